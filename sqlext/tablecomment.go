package sqlext

import (
	"io"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/types"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"
)

// ALTER TABLE t COMMENT = 'text' gives a table a new comment, as in MySQL
// (tools that keep a model's documentation with its table write it so).
// The parser reads table options in an ALTER and drops them, so the
// engine ran nothing; the statement's text gives the comment, and the
// empty ALTER sets it (tableCommentOf). In an ALTER that also changes
// columns or indexes, the comment is set once the other clauses are done
// (commentAfter).

// pendingComment is the comment an ALTER TABLE gives its table;
// alongside marks one with other clauses.
type pendingComment struct {
	db, table, text string
	alongside       bool
}

// noteTableComment marks the session's statement as an ALTER TABLE that
// sets its table's comment and nothing else.
func noteTableComment(ctx *sql.Context, s *Session, st ast.Statement, text string) {
	s.tableComment = nil
	alt, ok := st.(*ast.AlterTable)
	if !ok || len(alt.PartitionSpecs) > 0 {
		return
	}
	alongside := false
	for _, d := range alt.Statements {
		alongside = alongside || !optionsOnly(d)
	}
	comment, ok := commentOption(text)
	if !ok {
		return
	}
	db := alt.Table.DbQualifier.String()
	if db == "" {
		db = ctx.GetCurrentDatabase()
	}
	s.tableComment = &pendingComment{db: db, table: alt.Table.Name.String(), text: comment, alongside: alongside}
}

// optionsOnly says whether a clause of ALTER TABLE is a table option the
// parser kept nothing of.
func optionsOnly(d *ast.DDL) bool {
	return strings.EqualFold(d.Action, ast.AlterStr) && d.ColumnAction == "" && d.ConstraintAction == "" &&
		d.IndexSpec == nil && d.AutoIncSpec == nil && d.DefaultSpec == nil && d.AlterCollationSpec == nil &&
		d.NotNullSpec == nil && d.ColumnTypeSpec == nil && d.TableSpec == nil
}

// commentOption is the text of the last COMMENT [=] 'text' option of an
// ALTER TABLE of options only.
func commentOption(text string) (string, bool) {
	toks := sqlTokens(text)
	found, comment := false, ""
	for i := 0; i+1 < len(toks); i++ {
		if !toks[i].word || !strings.EqualFold(toks[i].text, "COMMENT") {
			continue
		}
		j := i + 1
		if toks[j].text == "=" && j+1 < len(toks) {
			j++
		}
		if v := toks[j].text; len(v) >= 2 && (v[0] == '\'' || v[0] == '"') {
			found, comment = true, unquote(v)
		}
	}
	return comment, found
}

// tableCommentOf sets the comment noted for the session's ALTER TABLE
// of options only, when there is one: ok says the statement was that
// ALTER.
func tableCommentOf(ctx *sql.Context) (sql.RowIter, bool, error) {
	c := takeTableComment(ctx, false)
	if c == nil {
		return nil, false, nil
	}
	if err := setTableComment(ctx, c); err != nil {
		return nil, true, err
	}
	return sql.RowsToRowIter(sql.NewRow(types.NewOkResult(0))), true, nil
}

// takeTableComment takes the comment noted for the session's ALTER TABLE:
// of one with other clauses (alongside), or of one of options only.
func takeTableComment(ctx *sql.Context, alongside bool) *pendingComment {
	s, ok := ctx.Session.(*Session)
	if !ok || s.tableComment == nil || s.tableComment.alongside != alongside {
		return nil
	}
	c := s.tableComment
	s.tableComment = nil
	return c
}

func setTableComment(ctx *sql.Context, c *pendingComment) error {
	s := ctx.Session.(*Session)
	if err := commitPending(ctx); err != nil {
		return err
	}
	info, err := s.p.store.Table(c.db, c.table)
	if err != nil {
		return translateStorage(err)
	}
	t, err := s.p.newTable(ctx, info)
	if err != nil {
		return err
	}
	m := t.currentMeta()
	m.Comment = c.text
	return t.setMeta(ctx, m)
}

// commentAfter sets comment once the ALTER's other clauses, whose rows
// iter gives, are done.
type commentAfter struct {
	sql.RowIter
	comment *pendingComment
}

func (c *commentAfter) Next(ctx *sql.Context) (sql.Row, error) {
	row, err := c.RowIter.Next(ctx)
	if err == io.EOF && c.comment != nil {
		pending := c.comment
		c.comment = nil
		if serr := setTableComment(ctx, pending); serr != nil {
			return nil, serr
		}
	}
	return row, err
}
