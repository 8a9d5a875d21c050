package sqlext

import (
	"context"
	"errors"
	"regexp"
	"strconv"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"
	"github.com/dolthub/vitess/go/sqltypes"
	querypb "github.com/dolthub/vitess/go/vt/proto/query"
)

// MySQL's diagnostics area: the errors, warnings and notes of the last
// statement. A statement that fails leaves its error there, after any
// warnings it raised, so that SHOW WARNINGS lists it, SHOW ERRORS lists
// the errors alone, SHOW COUNT(*) WARNINGS and @@warning_count count
// all of them, and SHOW COUNT(*) ERRORS and @@error_count the errors.
// The engine kept only warnings, had no SHOW ERRORS or SHOW COUNT(*), and
// no @@warning_count or @@error_count. Each statement but those that
// read the area begins with it empty (startDiagnostics); MySQL keeps it
// across a statement that uses no table (SELECT 1), which here empties
// it too. The statements that read it are answered here (diagnosis), as
// the engine empties the area before it runs a statement.

var (
	// readsDiagnostics matches the statements that leave the area as it
	// is, by how they begin.
	readsDiagnostics = regexp.MustCompile(`(?is)^\s*(SHOW\s+(WARNINGS|ERRORS|COUNT\s*\(\s*\*\s*\))|SELECT\s+@@(session\.|local\.)?(warning|error)_count\b)`)
	showErrors       = regexp.MustCompile(`(?is)^\s*SHOW\s+ERRORS(?:\s+LIMIT\s+(\d+)(?:\s*(,|\s+OFFSET\s+)\s*(\d+))?)?\s*;?\s*$`)
	showCount        = regexp.MustCompile(`(?is)^\s*SHOW\s+COUNT\s*\(\s*\*\s*\)\s+(WARNINGS|ERRORS)\s*;?\s*$`)
	selectCounts     = regexp.MustCompile(`(?is)^\s*SELECT\s+(.*?)\s*;?\s*$`)
	countItem        = regexp.MustCompile("(?is)^(@@(?:session\\.|local\\.)?(warning|error)_count)(?:\\s+(?:AS\\s+)?(\\w+|`[^`]+`|'[^']*'|\"[^\"]*\"))?$")
)

// startDiagnostics empties the diagnostics area for a statement that
// does not read it, and reports whether text reads it.
func (h *errorHandler) startDiagnostics(c *mysql.Conn, text string) bool {
	if readsDiagnostics.MatchString(text) {
		return true
	}
	if s := h.sessionOf(c); s != nil {
		s.ClearWarnings()
	}
	return false
}

// diagnose puts a failed statement's error in the diagnostics area; err
// is the error as the client gets it.
func (h *errorHandler) diagnose(c *mysql.Conn, err *error) {
	var se *mysql.SQLError
	if *err == nil || !errors.As(*err, &se) {
		return
	}
	if s := h.sessionOf(c); s != nil {
		s.Warn(&sql.Warning{Level: "Error", Code: se.Num, Message: se.Message})
	}
}

// diagnosis answers query, which reads the diagnostics area
// (startDiagnostics), when it reads it in a way the
// engine does not: SHOW ERRORS, SHOW COUNT(*) and a SELECT of
// @@warning_count and @@error_count. SHOW WARNINGS is the engine's.
func (h *errorHandler) diagnosis(c *mysql.Conn, query string) (*sqltypes.Result, bool) {
	// A connection's first statement finds no session yet: no statement
	// has run, and the area is empty.
	var all []*sql.Warning
	ctx := sql.NewEmptyContext()
	if s := h.sessionOf(c); s != nil {
		all = s.Warnings()
		ctx = sql.NewContext(context.Background(), sql.WithSession(s))
	}
	// The engine lists the most recent first; MySQL in the order raised.
	for i, j := 0, len(all)-1; i < j; i, j = i+1, j-1 {
		all[i], all[j] = all[j], all[i]
	}
	var errs []*sql.Warning
	for _, w := range all {
		if w.Level == "Error" {
			errs = append(errs, w)
		}
	}
	if m := showErrors.FindStringSubmatch(query); m != nil {
		offset, count := 0, len(errs)
		switch {
		case m[1] != "" && m[3] == "":
			count, _ = strconv.Atoi(m[1])
		case m[2] == ",":
			offset, _ = strconv.Atoi(m[1])
			count, _ = strconv.Atoi(m[3])
		case m[1] != "":
			count, _ = strconv.Atoi(m[1])
			offset, _ = strconv.Atoi(m[3])
		}
		res := &sqltypes.Result{Fields: []*querypb.Field{
			columnField(ctx, sql.CharacterSet_Unspecified, &sql.Column{Name: "Level", Type: types.LongText}),
			columnField(ctx, sql.CharacterSet_Unspecified, &sql.Column{Name: "Code", Type: types.Uint32}),
			columnField(ctx, sql.CharacterSet_Unspecified, &sql.Column{Name: "Message", Type: types.LongText}),
		}}
		for i := offset; i < len(errs) && i < offset+count; i++ {
			res.Rows = append(res.Rows, []sqltypes.Value{
				sqltypes.NewVarChar(errs[i].Level),
				sqltypes.NewUint32(uint32(errs[i].Code)),
				sqltypes.NewVarChar(errs[i].Message),
			})
		}
		return res, true
	}
	counts := map[string]int{"warning": len(all), "error": len(errs)}
	var names []string
	var values []int
	if m := showCount.FindStringSubmatch(query); m != nil {
		kind := strings.TrimSuffix(strings.ToLower(m[1]), "s")
		names, values = []string{"@@session." + kind + "_count"}, []int{counts[kind]}
	} else if m := selectCounts.FindStringSubmatch(query); m != nil {
		for _, item := range strings.Split(m[1], ",") {
			im := countItem.FindStringSubmatch(strings.TrimSpace(item))
			if im == nil {
				return nil, false // a SELECT of more than the counts is the engine's
			}
			name := im[1]
			switch {
			case im[3] == "":
			case strings.ContainsRune("`'\"", rune(im[3][0])):
				name = unquote(im[3])
			default:
				name = im[3]
			}
			names, values = append(names, name), append(values, counts[strings.ToLower(im[2])])
		}
	} else {
		return nil, false
	}
	res := &sqltypes.Result{Rows: [][]sqltypes.Value{nil}}
	for i, name := range names {
		f := columnField(ctx, sql.CharacterSet_Unspecified, &sql.Column{Name: name, Type: types.Uint64})
		res.Fields = append(res.Fields, f)
		res.Rows[0] = append(res.Rows[0], sqltypes.NewUint64(uint64(values[i])))
	}
	return res, true
}
