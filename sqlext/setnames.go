package sqlext

import (
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/vitess/go/mysql"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"
)

// SET NAMES cs [COLLATE coll] sets collation_connection too, in MySQL: to
// coll, or to cs's default collation. The parser drops the COLLATE clause
// and the engine sets only the three character_set_ variables, so a
// client that asked for utf8mb4_unicode_ci (as drivers do when they
// connect) compared its strings in the collation the connection had
// before. namesCollation adds the assignment, reading the COLLATE clause
// from text, the statement as written.
func namesCollation(st ast.Statement, text string) error {
	set, ok := st.(*ast.Set)
	if !ok {
		return nil
	}
	for _, e := range set.Exprs {
		if !strings.EqualFold(e.Name.String(), "names") {
			continue
		}
		v, ok := e.Expr.(*ast.SQLVal)
		if !ok || v.Type != ast.StrVal {
			return nil // SET NAMES DEFAULT
		}
		cs, err := sql.ParseCharacterSet(string(v.Val))
		if err != nil {
			return nil // the engine refuses the character set
		}
		coll := cs.DefaultCollation().Name()
		if written := writtenNamesCollation(text); written != "" {
			id, err := sql.ParseCollation("", written, false)
			if err != nil {
				return mysql.NewSQLError(mysql.ERUnknownCollation, "HY000", "Unknown collation: '%s'", written)
			}
			if id.CharacterSet() != cs {
				return mysql.NewSQLError(mysql.ERCollationCharsetMismatch, "42000", "COLLATION '%s' is not valid for CHARACTER SET '%s'", written, string(v.Val))
			}
			coll = id.Name()
		}
		set.Exprs = append(set.Exprs, &ast.SetVarExpr{Name: ast.NewColName("collation_connection"),
			Expr: ast.NewStrVal([]byte(coll)), Scope: ast.SetScope_Session})
		return nil
	}
	return nil
}

// writtenNamesCollation is the collation named by the COLLATE clause of
// the SET NAMES statement text, or "".
func writtenNamesCollation(text string) string {
	toks := sqlTokens(text)
	for i := 0; i+3 < len(toks); i++ {
		if strings.EqualFold(toks[i].text, "NAMES") && strings.EqualFold(toks[i+2].text, "COLLATE") {
			if c := toks[i+3].text; !toks[i+3].word && len(c) >= 2 {
				return unquote(c)
			}
			return toks[i+3].text
		}
	}
	return ""
}
