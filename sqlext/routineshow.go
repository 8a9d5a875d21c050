package sqlext

import (
	"fmt"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/types"

	"github.com/sqlearn/sqlearn/internal/compound"
)

// erSPAlreadyExistsProc is MySQL's ER_SP_ALREADY_EXISTS for a procedure.
const erSPAlreadyExistsProc = 1304

// createProcedure carries out CREATE PROCEDURE IF NOT EXISTS of a
// procedure that exists: a note, as in MySQL, where the engine (which is
// given the statement without IF NOT EXISTS, see parseProcedure) would
// refuse it. Any other CREATE PROCEDURE is left to the engine.
func createProcedure(ctx *sql.Context, n *plan.CreateProcedure) (sql.RowIter, error) {
	r, ok, err := compound.Procedure(ctx.Query())
	if !ok || err != nil || !r.IfNotExists || n.Database() == nil {
		return nil, nil
	}
	if _, exists := storedProcedure(ctx, n.Database().Name(), n.StoredProcDetails.Name); !exists {
		return nil, nil
	}
	ctx.Session.Warn(&sql.Warning{Level: "Note", Code: erSPAlreadyExistsProc, Message: fmt.Sprintf("PROCEDURE %s already exists", n.StoredProcDetails.Name)})
	return sql.RowsToRowIter(sql.NewRow(types.NewOkResult(0))), nil
}

// showCreateProcedure is the engine's SHOW CREATE PROCEDURE with the
// procedure's SQL mode, which the engine left empty, and its text named
// as MySQL writes it: unqualified and quoted (`p`), so that a dump
// restores it into whatever database the dump is loaded in, not the one
// a qualified name in the written CREATE named.
func (o *execOverrides) showCreateProcedure(ctx *sql.Context, n *plan.ShowCreateProcedure, row sql.Row) (sql.RowIter, error) {
	if n.ExternalStoredProcedure != nil || n.Database() == nil {
		return nil, nil
	}
	return o.once(n, func() (sql.RowIter, error) {
		iter, err := o.b.Build(ctx, n, row)
		if err != nil || iter == nil {
			return iter, err
		}
		return routineTexts(ctx, n, iter)
	})
}

// routineTexts are the rows of SHOW CREATE PROCEDURE n, iter's, with the
// procedure's sql_mode and its name unqualified.
func routineTexts(ctx *sql.Context, n *plan.ShowCreateProcedure, iter sql.RowIter) (sql.RowIter, error) {
	rows, err := sql.RowIterToRows(ctx, iter)
	if err != nil {
		return nil, err
	}
	spd, found := storedProcedure(ctx, n.Database().Name(), n.ProcedureName)
	for _, r := range rows {
		if len(r) < 3 {
			continue
		}
		if found {
			r[1] = spd.SqlMode
		}
		if text, ok := r[2].(string); ok {
			r[2] = unqualifiedRoutine(text)
		}
	}
	return sql.RowsToRowIter(rows...), nil
}

// unqualifiedRoutine is a CREATE PROCEDURE or FUNCTION text with the
// routine's name unqualified and quoted.
func unqualifiedRoutine(text string) string {
	r, err := compiledRoutine(text)
	if err != nil || r.NameSpan[1] <= r.NameSpan[0] {
		return text
	}
	return text[:r.NameSpan[0]] + quoteIdent(r.Name) + text[r.NameSpan[1]:]
}
