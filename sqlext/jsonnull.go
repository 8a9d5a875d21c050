package sqlext

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
)

// A JSON column's generated value or DEFAULT that is SQL NULL is stored
// and read as SQL NULL in MySQL. The engine converts such a value to its
// column's type whatever it is (sql.ColumnDefaultValue.Eval), and JSON's
// conversion makes a JSON null document of a NULL: j IS NULL was false
// for j JSON AS (IF(p IS NULL, NULL, JSON_OBJECT('a', p))) and for a
// JSON DEFAULT NULL. jsonNullRule gives each such expression to the
// engine with the conversion done by sqlNullKept, which leaves NULL
// alone: in the INSERT's projection of defaults and generated values,
// in UPDATE's assignments of stored generated columns, and in the
// projections of the table wrapper that computes virtual columns as
// rows are read, which the engine keeps out of the analyzer's sight.
const jsonNullRule analyzer.RuleId = 9963

func jsonNulls(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	n, tablesSame, err := transform.Node(n, virtualJSONNulls)
	if err != nil {
		return nil, transform.SameTree, err
	}
	out, same, err := withInsertSource(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		return transform.NodeExprs(n, keepJSONNull)
	})
	if tablesSame == transform.NewTree {
		same = transform.NewTree
	}
	return out, same, err
}

// keepJSONNull is a JSON column's default or generated expression e with
// its conversion done by sqlNullKept.
func keepJSONNull(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
	d, ok := e.(*sql.ColumnDefaultValue)
	if !ok || d == nil || d.OutType == nil || !types.IsJSON(d.OutType) {
		return e, transform.SameTree, nil
	}
	out := *d
	out.Expr, out.OutType = &sqlNullKept{Expression: d.Expr, typ: d.OutType}, nil
	return &out, transform.NewTree, nil
}

// virtualJSONNulls is a table node whose table computes virtual columns
// (plan.VirtualColumnTable) with their expressions read by keepJSONNull.
func virtualJSONNulls(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
	switch x := n.(type) {
	case *plan.ResolvedTable:
		t, same, err := withVirtualColumns(x.Table)
		if err != nil || same == transform.SameTree {
			return n, transform.SameTree, err
		}
		// Not WithTable, which wraps t in the table it replaces.
		out, err := x.ReplaceTable(t)
		return out, transform.NewTree, err
	case *plan.IndexedTableAccess:
		t, same, err := withVirtualColumns(x.Table)
		indexed, ok := t.(sql.IndexedTable)
		if err != nil || same == transform.SameTree || !ok {
			return n, transform.SameTree, err
		}
		out, err := x.WithTable(indexed)
		return out, transform.NewTree, err
	}
	return n, transform.SameTree, nil
}

// withVirtualColumns is t with the projections of the
// plan.VirtualColumnTable it is or wraps read by keepJSONNull.
func withVirtualColumns(t sql.Table) (sql.Table, transform.TreeIdentity, error) {
	switch x := t.(type) {
	case *plan.VirtualColumnTable:
		var projections []sql.Expression
		for i, p := range x.Projections {
			np, same, err := transform.Expr(p, keepJSONNull)
			if err != nil {
				return nil, transform.SameTree, err
			}
			if same == transform.NewTree && projections == nil {
				projections = append([]sql.Expression(nil), x.Projections...)
			}
			if projections != nil {
				projections[i] = np
			}
		}
		// Their functions read ENUM, SET and date arguments as text, as
		// the statement's own do (textArguments): the projections are
		// not among the statement's expressions, and CONCAT(e, '?') of
		// an ENUM wrote its index.
		read := projections
		if read == nil {
			read = x.Projections
		}
		texts, changed, err := textInProjections(read)
		if err != nil {
			return nil, transform.SameTree, err
		}
		if changed {
			projections = texts
		}
		if projections == nil {
			return t, transform.SameTree, nil
		}
		return plan.NewVirtualColumnTable(x.Table, projections), transform.NewTree, nil
	case *plan.ProcessTable:
		inner, same, err := withVirtualColumns(x.Table)
		if err != nil || same == transform.SameTree {
			return t, transform.SameTree, err
		}
		out := *x
		out.Table = inner
		return &out, transform.NewTree, nil
	case sql.MutableTableWrapper:
		inner, same, err := withVirtualColumns(x.Underlying())
		if err != nil || same == transform.SameTree {
			return t, transform.SameTree, err
		}
		return x.WithUnderlying(inner), transform.NewTree, nil
	}
	return t, transform.SameTree, nil
}

// sqlNullKept is a value converted to typ, a NULL left NULL, with the
// errors of sql.ColumnDefaultValue's conversion.
type sqlNullKept struct {
	sql.Expression
	typ sql.Type
}

var (
	_ sql.Expression         = (*sqlNullKept)(nil)
	_ sql.CollationCoercible = (*sqlNullKept)(nil)
)

func (k *sqlNullKept) Type() sql.Type { return k.typ }

func (k *sqlNullKept) Eval(ctx *sql.Context, row sql.Row) (any, error) {
	v, err := k.Expression.Eval(ctx, row)
	if err != nil || v == nil {
		return nil, err
	}
	out, inRange, err := convertForColumn(ctx, k.typ, v)
	switch {
	case err != nil:
		return nil, sql.ErrIncompatibleDefaultType.New()
	case inRange != sql.InRange:
		return nil, sql.ErrValueOutOfRange.New(out, k.typ)
	}
	return out, nil
}

func (k *sqlNullKept) Children() []sql.Expression { return []sql.Expression{k.Expression} }

func (k *sqlNullKept) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	return withOneChild(k, children, func(c sql.Expression) sql.Expression {
		return &sqlNullKept{Expression: c, typ: k.typ}
	})
}

func (k *sqlNullKept) CollationCoercibility(ctx *sql.Context) (sql.CollationID, byte) {
	return sql.GetCoercibility(ctx, k.Expression)
}

func (k *sqlNullKept) DebugString() string { return sql.DebugString(k.Expression) }

// textInProjections is exprs with the arguments textArguments reads as
// text so read, and whether any is.
func textInProjections(exprs []sql.Expression) ([]sql.Expression, bool, error) {
	out, same, err := textArguments(nil, nil, plan.NewProject(exprs, plan.NewEmptyTableWithSchema(nil)), nil, nil, nil)
	if err != nil || same == transform.SameTree {
		return exprs, false, err
	}
	p, ok := out.(*plan.Project)
	if !ok || len(p.Projections) != len(exprs) {
		return exprs, false, nil
	}
	return p.Projections, true, nil
}
