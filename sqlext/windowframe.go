package sqlext

import (
	"io"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/expression/function/aggregation/window"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"
)

// A window without a frame clause has MySQL's default frame: the whole
// partition without ORDER BY, and with one RANGE BETWEEN UNBOUNDED
// PRECEDING AND CURRENT ROW, which takes in the current row's peers (the
// rows its ORDER BY columns hold equal). The engine gave MAX the whole
// partition even with ORDER BY, SUM, AVG, MIN, FIRST_VALUE and
// LAST_VALUE the rows up to the current one but not its peers, and
// COUNT the peers of its first ORDER BY column only.
// peerFrameRule gives each aggregate over a window without a frame clause,
// and FIRST_VALUE and LAST_VALUE, that default frame. It runs for every
// statement, after exactWindowRule.
const peerFrameRule analyzer.RuleId = 9959

func init() {
	onEveryStatement(peerFrameRule, peerFrames)
}

func peerFrames(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	typed := map[sql.ColumnId]sql.Type{}
	n, same, err := transform.Node(n, func(node sql.Node) (sql.Node, transform.TreeIdentity, error) {
		w, ok := node.(*plan.Window)
		if !ok {
			return node, transform.SameTree, nil
		}
		exprs := append([]sql.Expression(nil), w.SelectExprs...)
		changed := false
		for i, e := range exprs {
			alias, _ := e.(*expression.Alias)
			inner := e
			if alias != nil {
				inner = alias.Child
			}
			if nt, ok := inner.(*window.NTile); ok {
				// NTILE is a BIGINT UNSIGNED in MySQL; the engine typed it
				// a DOUBLE, and clients read 2.0 for bucket 2.
				var err error
				if exprs[i], err = withType(e, alias, nt, types.Uint64, typed); err != nil {
					return nil, transform.SameTree, err
				}
				changed = true
				continue
			}
			fn, ok := framedByDefault(inner)
			if !ok {
				continue
			}
			var framed sql.Expression = &peerFramed{WindowAdaptableExpression: fn}
			if alias != nil {
				var err error
				if framed, err = alias.WithChildren(framed); err != nil {
					return nil, transform.SameTree, err
				}
			}
			exprs[i], changed = framed, true
		}
		if !changed {
			return node, transform.SameTree, nil
		}
		out, err := w.WithExpressions(exprs...)
		return out, transform.NewTree, err
	})
	if err != nil {
		return n, same, err
	}
	return retypeSwapped(n, same, typed)
}

// withType is the window function fn (e, or the child of e's alias) typed
// t, with the ids of both noted in typed for the references to them.
func withType(e sql.Expression, alias *expression.Alias, fn sql.WindowAdaptableExpression, t sql.Type, typed map[sql.ColumnId]sql.Type) (sql.Expression, error) {
	out := sql.Expression(&typedWindow{WindowAdaptableExpression: fn, typ: t})
	typed[fn.Id()] = t
	if alias == nil {
		return out, nil
	}
	typed[alias.Id()] = t
	return alias.WithChildren(out)
}

// typedWindow is a window function whose values are of type typ.
type typedWindow struct {
	sql.WindowAdaptableExpression
	typ sql.Type
}

func (w *typedWindow) Type() sql.Type { return w.typ }

func (w *typedWindow) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	e, err := w.WindowAdaptableExpression.WithChildren(children...)
	if err != nil {
		return nil, err
	}
	return &typedWindow{WindowAdaptableExpression: e.(sql.WindowAdaptableExpression), typ: w.typ}, nil
}

func (w *typedWindow) WithId(id sql.ColumnId) sql.IdExpression {
	return &typedWindow{WindowAdaptableExpression: w.WindowAdaptableExpression.WithId(id).(sql.WindowAdaptableExpression), typ: w.typ}
}

func (w *typedWindow) WithWindow(def *sql.WindowDefinition) sql.WindowAdaptableExpression {
	return &typedWindow{WindowAdaptableExpression: w.WindowAdaptableExpression.WithWindow(def), typ: w.typ}
}

// framedByDefault is e when it is a window function whose value depends
// on its frame and whose window has no frame clause.
func framedByDefault(e sql.Expression) (sql.WindowAdaptableExpression, bool) {
	var fn sql.WindowAdaptableExpression
	switch x := e.(type) {
	case *peerFramed:
		return nil, false
	case *window.FirstValue:
		fn = x
	case *window.LastValue:
		fn = x
	case sql.Aggregation:
		fn = x
	default:
		return nil, false
	}
	if w := fn.Window(); w == nil || w.Frame != nil {
		return nil, false
	}
	return fn, true
}

// peerFramed is a window function computed over MySQL's default frame.
type peerFramed struct {
	sql.WindowAdaptableExpression
}

func (p *peerFramed) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	e, err := p.WindowAdaptableExpression.WithChildren(children...)
	if err != nil {
		return nil, err
	}
	return &peerFramed{WindowAdaptableExpression: e.(sql.WindowAdaptableExpression)}, nil
}

func (p *peerFramed) WithId(id sql.ColumnId) sql.IdExpression {
	return &peerFramed{WindowAdaptableExpression: p.WindowAdaptableExpression.WithId(id).(sql.WindowAdaptableExpression)}
}

func (p *peerFramed) WithWindow(w *sql.WindowDefinition) sql.WindowAdaptableExpression {
	return &peerFramed{WindowAdaptableExpression: p.WindowAdaptableExpression.WithWindow(w)}
}

func (p *peerFramed) NewWindowFunction() (sql.WindowFunction, error) {
	fn, err := p.WindowAdaptableExpression.NewWindowFunction()
	if err != nil {
		return nil, err
	}
	var order []sql.Expression
	if w := p.Window(); w != nil {
		order = w.OrderBy.ToExpressions()
	}
	return &peerFramedFunction{WindowFunction: fn, order: order}, nil
}

type peerFramedFunction struct {
	sql.WindowFunction
	order []sql.Expression
}

func (f *peerFramedFunction) DefaultFramer() sql.WindowFramer {
	return &peerFramer{order: f.order}
}

// peerFramer frames each row of a partition from the partition's first
// row to the last of the row's peers.
type peerFramer struct {
	order           []sql.Expression
	start, end, idx int
	frameEnd        int
	partitionSet    bool
}

func (f *peerFramer) NewFramer(in sql.WindowInterval) (sql.WindowFramer, error) {
	return &peerFramer{order: f.order, start: in.Start, end: in.End, idx: in.Start, frameEnd: in.Start, partitionSet: true}, nil
}

func (f *peerFramer) Next(ctx *sql.Context, buf sql.WindowBuffer) (sql.WindowInterval, error) {
	if !f.partitionSet || f.idx >= f.end {
		return sql.WindowInterval{}, io.EOF
	}
	if f.idx >= f.frameEnd {
		f.frameEnd = f.idx + 1
		for f.frameEnd < f.end {
			same, err := f.peers(ctx, buf[f.idx], buf[f.frameEnd])
			if err != nil {
				return sql.WindowInterval{}, err
			}
			if !same {
				break
			}
			f.frameEnd++
		}
	}
	f.idx++
	return f.Interval()
}

// peers reports whether rows a and b hold equal values in every ORDER BY
// column (NULLs equal).
func (f *peerFramer) peers(ctx *sql.Context, a, b sql.Row) (bool, error) {
	for _, e := range f.order {
		x, err := e.Eval(ctx, a)
		if err != nil {
			return false, err
		}
		y, err := e.Eval(ctx, b)
		if err != nil {
			return false, err
		}
		if x == nil || y == nil {
			if x != nil || y != nil {
				return false, nil
			}
			continue
		}
		n, err := e.Type().Compare(ctx, x, y)
		if err != nil || n != 0 {
			return false, err
		}
	}
	return true, nil
}

func (f *peerFramer) FirstIdx() int { return f.start }
func (f *peerFramer) LastIdx() int  { return f.frameEnd }

func (f *peerFramer) Interval() (sql.WindowInterval, error) {
	return sql.WindowInterval{Start: f.start, End: f.frameEnd}, nil
}

// inlineNamedWindows writes each OVER w that names a window of the
// WINDOW clause, and adds nothing to it, as that window's definition.
// The engine gives a window without ORDER BY or frame the whole
// partition as an explicit frame before it reads the named window, so
// OVER w with w AS (ORDER BY g) summed the whole partition, where MySQL
// takes the default frame of a window with ORDER BY (peerFrames).
func inlineNamedWindows(st ast.Statement) {
	_ = ast.Walk(func(node ast.SQLNode) (bool, error) {
		sel, ok := node.(*ast.Select)
		if !ok || len(sel.Window) == 0 {
			return true, nil
		}
		defs := map[string]*ast.WindowDef{}
		for _, w := range sel.Window {
			defs[w.Name.Lowered()] = w
		}
		_ = ast.Walk(func(node ast.SQLNode) (bool, error) {
			switch n := node.(type) {
			case *ast.Subquery:
				return false, nil
			case *ast.FuncExpr:
				o := n.Over
				if o == nil || o.NameRef.IsEmpty() || len(o.PartitionBy) > 0 || len(o.OrderBy) > 0 || o.Frame != nil {
					return true, nil
				}
				if def := defs[o.NameRef.Lowered()]; def != nil && def.NameRef.IsEmpty() {
					o.PartitionBy = append(ast.Exprs(nil), def.PartitionBy...)
					o.OrderBy = append(ast.OrderBy(nil), def.OrderBy...)
					o.Frame = def.Frame
					o.NameRef = ast.ColIdent{}
				}
			}
			return true, nil
		}, sel.SelectExprs, sel.OrderBy)
		return true, nil
	}, st)
}
