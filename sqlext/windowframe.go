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
// and FIRST_VALUE and LAST_VALUE, that default frame, and types NTILE as
// MySQL does. It runs for every statement, after exactWindowRule.
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
			mw, ok := asMySQLWindow(inner)
			if !ok {
				continue
			}
			var out sql.Expression = mw
			if mw.typ != nil {
				typed[mw.Id()] = mw.typ
			}
			if alias != nil {
				if mw.typ != nil {
					typed[alias.Id()] = mw.typ
				}
				var err error
				if out, err = alias.WithChildren(mw); err != nil {
					return nil, transform.SameTree, err
				}
			}
			exprs[i], changed = out, true
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

// asMySQLWindow is e as MySQL computes and types it, when that differs
// from the engine's: NTILE, a BIGINT UNSIGNED in MySQL, which the engine
// typed a DOUBLE (clients read 2.0 for bucket 2), and a window function
// whose value depends on its frame, over a window without a frame clause.
func asMySQLWindow(e sql.Expression) (*mysqlWindow, bool) {
	switch x := e.(type) {
	case *mysqlWindow:
		return nil, false
	case *window.NTile:
		return &mysqlWindow{WindowAdaptableExpression: x, typ: types.Uint64}, true
	case *window.FirstValue, *window.LastValue, *nthValue, sql.Aggregation:
		fn := x.(sql.WindowAdaptableExpression)
		w := fn.Window()
		switch {
		case w == nil:
			return nil, false
		case w.Frame != nil:
			// JSON_ARRAYAGG left an explicit frame (and the whole
			// partition the engine gives OVER ()) unread, and took the
			// rows up to the current one.
			return &mysqlWindow{WindowAdaptableExpression: fn, framed: true}, true
		}
		return &mysqlWindow{WindowAdaptableExpression: fn, peers: true}, true
	}
	return nil, false
}

// mysqlWindow is a window function typed typ (when not nil) and, when
// peers is set, computed over MySQL's default frame.
type mysqlWindow struct {
	sql.WindowAdaptableExpression
	typ   sql.Type
	peers bool
	// framed says to compute it over its window's frame clause.
	framed bool
}

func (w *mysqlWindow) Type() sql.Type {
	if w.typ != nil {
		return w.typ
	}
	return w.WindowAdaptableExpression.Type()
}

func (w *mysqlWindow) with(e sql.WindowAdaptableExpression) *mysqlWindow {
	return &mysqlWindow{WindowAdaptableExpression: e, typ: w.typ, peers: w.peers, framed: w.framed}
}

func (w *mysqlWindow) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	e, err := w.WindowAdaptableExpression.WithChildren(children...)
	if err != nil {
		return nil, err
	}
	return w.with(e.(sql.WindowAdaptableExpression)), nil
}

func (w *mysqlWindow) WithId(id sql.ColumnId) sql.IdExpression {
	return w.with(w.WindowAdaptableExpression.WithId(id).(sql.WindowAdaptableExpression))
}

func (w *mysqlWindow) WithWindow(def *sql.WindowDefinition) sql.WindowAdaptableExpression {
	return w.with(w.WindowAdaptableExpression.WithWindow(def))
}

func (w *mysqlWindow) NewWindowFunction() (sql.WindowFunction, error) {
	fn, err := w.WindowAdaptableExpression.NewWindowFunction()
	if err != nil {
		return nil, err
	}
	if def := w.Window(); w.framed && def != nil && def.Frame != nil {
		framer, err := def.Frame.NewFramer(def)
		if err != nil {
			return nil, err
		}
		return &framedFunction{WindowFunction: fn, framer: framer}, nil
	}
	if !w.peers {
		return fn, nil
	}
	var order []sql.Expression
	if def := w.Window(); def != nil {
		order = def.OrderBy.ToExpressions()
	}
	return &peerFramedFunction{WindowFunction: fn, order: order}, nil
}

// framedFunction is a window function computed over framer's frames.
type framedFunction struct {
	sql.WindowFunction
	framer sql.WindowFramer
}

func (f *framedFunction) DefaultFramer() sql.WindowFramer { return f.framer }

type peerFramedFunction struct {
	sql.WindowFunction
	order []sql.Expression
}

func (f *peerFramedFunction) DefaultFramer() sql.WindowFramer {
	return &peerFramer{order: f.order}
}

// peerFramer frames each row of a partition from the partition's first
// row to the last of the row's peers, or, peersOnly, the row's peers
// alone, as the ranking functions take them (peers.go).
type peerFramer struct {
	order                []sql.Expression
	start, end, idx      int
	frameStart, frameEnd int
	peersOnly            bool
	partitionSet         bool
}

func (f *peerFramer) NewFramer(in sql.WindowInterval) (sql.WindowFramer, error) {
	return &peerFramer{order: f.order, start: in.Start, end: in.End, idx: in.Start, frameStart: in.Start, frameEnd: in.Start, peersOnly: f.peersOnly, partitionSet: true}, nil
}

func (f *peerFramer) Next(ctx *sql.Context, buf sql.WindowBuffer) (sql.WindowInterval, error) {
	if !f.partitionSet || f.idx >= f.end {
		return sql.WindowInterval{}, io.EOF
	}
	if f.idx >= f.frameEnd {
		f.frameStart, f.frameEnd = f.idx, f.idx+1
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

func (f *peerFramer) FirstIdx() int {
	if f.peersOnly {
		return f.frameStart
	}
	return f.start
}

func (f *peerFramer) LastIdx() int { return f.frameEnd }

func (f *peerFramer) Interval() (sql.WindowInterval, error) {
	return sql.WindowInterval{Start: f.FirstIdx(), End: f.frameEnd}, nil
}

// inlineNamedWindows writes each OVER w of sel that names a window of its
// WINDOW clause, and adds nothing to it, as that window's definition.
// The engine gives a window without ORDER BY or frame the whole
// partition as an explicit frame before it reads the named window, so
// OVER w with w AS (ORDER BY g) summed the whole partition, where MySQL
// takes the default frame of a window with ORDER BY (peerFrames).
func inlineNamedWindows(sel *ast.Select) {
	if len(sel.Window) == 0 {
		return
	}
	defs := map[string]*ast.WindowDef{}
	for _, w := range sel.Window {
		defs[w.Name.Lowered()] = w
	}
	for _, o := range windowsOf(sel.SelectExprs, sel.OrderBy) {
		if o.NameRef.IsEmpty() || len(o.PartitionBy) > 0 || len(o.OrderBy) > 0 || o.Frame != nil {
			continue
		}
		if def := defs[o.NameRef.Lowered()]; def != nil && def.NameRef.IsEmpty() {
			o.PartitionBy = append(ast.Exprs(nil), def.PartitionBy...)
			o.OrderBy = append(ast.OrderBy(nil), def.OrderBy...)
			o.Frame = def.Frame
			o.NameRef = ast.ColIdent{}
		}
	}
}
