package sqlext

import (
	"context"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/vitess/go/mysql"
	"github.com/dolthub/vitess/go/sqltypes"
)

// Under NO_BACKSLASH_ESCAPES a backslash in a quoted string is an
// ordinary character: 'C:\dir' is seven characters and 'a\' ends at its
// second quote. The engine's parser always reads backslash escapes, so the
// client's statement is rewritten before it is parsed: each backslash
// inside a quoted string is doubled, which the parser reads back as the
// one backslash written. The text a view, trigger or routine keeps is
// the rewritten one, read again as it was kept, whatever the mode of the
// session that reads it; so only text the client sent is rewritten
// (Session.clientText). The server also says the mode is on in the
// status flags of its replies, as MySQL does, so that a client that
// quotes values itself doubles quotes instead of escaping them.

// serverStatusNoBackslashEscapes is the status flag MySQL sets while the
// session's sql_mode has NO_BACKSLASH_ESCAPES.
const serverStatusNoBackslashEscapes = 0x0200

// noBackslashEscapes reports whether the session's sql_mode has
// NO_BACKSLASH_ESCAPES.
func noBackslashEscapes(ctx *sql.Context) bool {
	return sqlMode(ctx).ModeEnabled("NO_BACKSLASH_ESCAPES")
}

// standardEscapes is q, which the client sent under NO_BACKSLASH_ESCAPES,
// written as the parser reads it, with where each of its bytes was in q;
// q itself and a nil origin when there is nothing to rewrite.
func standardEscapes(ctx context.Context, q string, origin []int) (string, []int) {
	sctx, ok := ctx.(*sql.Context)
	if !ok || !strings.Contains(q, `\`) {
		return q, origin
	}
	s, ok := sctx.Session.(*Session)
	if !ok || s.clientText == "" || !strings.Contains(s.clientText, q) || !noBackslashEscapes(sctx) {
		return q, origin
	}
	edits := literalBackslashes(q, sqlMode(sctx).ModeEnabled("ANSI_QUOTES"))
	if len(edits) == 0 {
		return q, origin
	}
	return splice(q, origin, edits)
}

// literalBackslashes are the edits doubling each backslash inside a
// quoted string of q, read as MySQL reads it under NO_BACKSLASH_ESCAPES:
// a string ends at a quote that is not doubled. Under ANSI_QUOTES a
// double-quoted text names something, and is left alone.
func literalBackslashes(q string, ansiQuotes bool) []edit {
	var edits []edit
	for i := 0; i < len(q); {
		c := q[i]
		switch {
		case c == '#' || (c == '-' && strings.HasPrefix(q[i:], "-- ")):
			for i < len(q) && q[i] != '\n' {
				i++
			}
		case c == '/' && strings.HasPrefix(q[i:], "/*") && !strings.HasPrefix(q[i:], "/*!") && !strings.HasPrefix(q[i:], "/*+"):
			if j := strings.Index(q[i+2:], "*/"); j >= 0 {
				i += j + 4
			} else {
				i = len(q)
			}
		case c == '`' || (c == '"' && ansiQuotes):
			i = doubledQuoteEnd(q, i)
		case c == '\'' || c == '"':
			end := doubledQuoteEnd(q, i)
			for k := i + 1; k < end; k++ {
				if q[k] == '\\' {
					edits = append(edits, edit{from: k, to: k + 1, text: `\\`})
				}
			}
			i = end
		default:
			i++
		}
	}
	return edits
}

// doubledQuoteEnd is the index just past the quoted text that starts at
// q[i], where only a doubled quote stands for the quote itself.
func doubledQuoteEnd(q string, i int) int {
	quote := q[i]
	for j := i + 1; j < len(q); j++ {
		if q[j] != quote {
			continue
		}
		if j+1 < len(q) && q[j+1] == quote {
			j++
			continue
		}
		return j + 1
	}
	return len(q)
}

// clientSays records text as the statement the client sent, for
// standardEscapes.
func (h *errorHandler) clientSays(c *mysql.Conn, text string) {
	if s := h.sessionOf(c); s != nil {
		s.clientText = text
	}
}

// flagged is cb, setting the NO_BACKSLASH_ESCAPES status flag of the
// reply first (escapesFlag).
func (h *errorHandler) flagged(c *mysql.Conn, cb mysql.ResultSpoolFn) mysql.ResultSpoolFn {
	return func(res *sqltypes.Result, more bool) error {
		h.escapesFlag(c)
		return cb(res, more)
	}
}

// escapesFlag sets or clears the NO_BACKSLASH_ESCAPES status flag of the
// replies to c by its session's sql_mode.
func (h *errorHandler) escapesFlag(c *mysql.Conn) {
	s := h.sessionOf(c)
	if s == nil {
		return
	}
	m := s.mode.Load()
	if m == nil {
		m = s.readMode(sql.NewEmptyContext())
	}
	if m != nil && m.mode.ModeEnabled("NO_BACKSLASH_ESCAPES") {
		c.StatusFlags |= serverStatusNoBackslashEscapes
	} else {
		c.StatusFlags &^= serverStatusNoBackslashEscapes
	}
}
