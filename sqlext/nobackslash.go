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

// MySQL keeps the backslash of \% and \_ in a string ('5\%' is three
// characters), so that a LIKE pattern written 'a\_b%' matches a literal
// underscore; the engine's parser dropped it, and the pattern matched any
// character there. escapedWildcards doubles the backslash of each \% and
// \_ inside a string before the statement is parsed, which the parser
// reads back as the two characters written. A text rewritten so reads
// alike when rewritten again (a view's or routine's, kept rewritten).
func escapedWildcards(ctx context.Context, q string, origin []int) (string, []int) {
	if !strings.Contains(q, `\%`) && !strings.Contains(q, `\_`) {
		return q, origin
	}
	ansiQuotes := false
	if sctx, ok := ctx.(*sql.Context); ok && sctx.Session != nil {
		if noBackslashEscapes(sctx) {
			return q, origin // standardEscapes doubled every backslash
		}
		ansiQuotes = sqlMode(sctx).ModeEnabled("ANSI_QUOTES")
	}
	var edits []edit
	forEachString(q, ansiQuotes, false, func(from, to int) {
		for j := from; j < to; j++ {
			if q[j] != '\\' {
				continue
			}
			if j+1 < to && (q[j+1] == '%' || q[j+1] == '_') {
				edits = append(edits, edit{from: j, to: j + 1, text: `\\`})
			}
			j++ // the escaped character
		}
	})
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
	forEachString(q, ansiQuotes, true, func(from, to int) {
		for k := from; k < to; k++ {
			if q[k] == '\\' {
				edits = append(edits, edit{from: k, to: k + 1, text: `\\`})
			}
		}
	})
	return edits
}

// forEachString calls body with the bounds of the inside of each quoted
// string of q, in order, skipping comments and quoted names (double
// quotes name under ANSI_QUOTES). Strings are read as MySQL reads them
// under NO_BACKSLASH_ESCAPES when noEscapes is set (a string ends at a
// quote that is not doubled), else with backslash escapes.
func forEachString(q string, ansiQuotes, noEscapes bool, body func(from, to int)) {
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
			if !noEscapes {
				end = quotedEnd(q, i)
			}
			body(i+1, max(end-1, i+1))
			i = end
		default:
			i++
		}
	}
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
		s.lockingReads = lockingStatement(text)
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
