package sqlext

import (
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/shopspring/decimal"
)

// SUM and AVG as window functions (SUM(i) OVER (ORDER BY id)) are typed
// and computed by MySQL as in a GROUP BY (sumavg.go): exactly, as a
// DECIMAL, for an integer or DECIMAL argument, and as a DOUBLE for a
// floating-point one, NULL for a frame without a value. The engine types
// them as their argument, so that SUM of an INT stopped at 2147483647,
// and adds every value as a DOUBLE: AVG of a DECIMAL(10,2) was rounded to
// 2 places, SUM of a frame of NULLs was 0 and AVG one NaN (a DECIMAL
// AVG of one failed outright). exactWindowRule swaps each such window
// function for exactWindow and gives the references to it its type, and
// the references to any other window function the type it has now.
//
// It runs for every statement (onEveryStatement), after exactSumRule and
// before derivedTypeRule and rangeRule, which carry and use its types.
const exactWindowRule analyzer.RuleId = 9980

func exactWindows(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	typed := map[sql.ColumnId]sql.Type{}
	// A window function written twice is computed once, under the first
	// one's column; the planner refers to the second by a column of its
	// own, which the Window node does not output, named as the function
	// is. Those references are retyped by name.
	byName := map[string]sql.Type{}
	n, same, err := transform.Node(n, func(node sql.Node) (sql.Node, transform.TreeIdentity, error) {
		w, ok := node.(*plan.Window)
		if !ok {
			return node, transform.SameTree, nil
		}
		exprs := make([]sql.Expression, len(w.SelectExprs))
		changed := false
		for i, e := range w.SelectExprs {
			exprs[i] = e
			inner, alias := e, (*expression.Alias)(nil)
			if a, ok := e.(*expression.Alias); ok {
				inner, alias = a.Child, a
			}
			win, ok := inner.(*exactWindow)
			if !ok { // not analysed before
				if win = newExactWindow(inner); win == nil {
					// Another window function takes its argument's
					// type, which a rule before may have changed
					// (LAG(SUM(d)) OVER of an exact SUM).
					if f, ok := inner.(sql.WindowAdaptableExpression); ok {
						typed[f.Id()] = f.Type()
						byName[strings.ToLower(f.String())] = f.Type()
						if alias != nil {
							typed[alias.Id()] = f.Type()
						}
					}
					continue
				}
				changed = true
				exprs[i] = win
				if alias != nil {
					aliased, err := alias.WithChildren(win)
					if err != nil {
						return nil, transform.SameTree, err
					}
					exprs[i] = aliased
				}
			}
			typed[win.Id()] = win.typ
			byName[strings.ToLower(win.Aggregation.String())] = win.typ
			if alias != nil {
				typed[alias.Id()] = win.typ
			}
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
	if n, same, err = retypeSwapped(n, same, typed); err != nil || len(byName) == 0 {
		return n, same, err
	}
	out, again, err := transform.NodeExprs(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
		gf, ok := e.(*expression.GetField)
		if !ok {
			return e, transform.SameTree, nil
		}
		if _, known := typed[gf.Id()]; known {
			return e, transform.SameTree, nil
		}
		t, ok := byName[strings.ToLower(gf.Name())]
		if !ok || t.Equals(gf.Type()) {
			return e, transform.SameTree, nil
		}
		return retyped(gf, t), transform.NewTree, nil
	})
	if again == transform.NewTree {
		same = transform.NewTree
	}
	return out, same, err
}

// exactWindow is the engine's SUM or AVG window function of a numeric
// argument computed and typed as MySQL does.
type exactWindow struct {
	sql.Aggregation // the engine's, for everything but the arithmetic
	typ             sql.Type
	avg             bool
	exact           bool // decimal arithmetic, else DOUBLE
}

var (
	_ sql.Aggregation        = (*exactWindow)(nil)
	_ sql.CollationCoercible = (*exactWindow)(nil)
)

// newExactWindow is e made exact, or nil when e is not the engine's SUM
// or AVG window function of a number.
func newExactWindow(e sql.Expression) *exactWindow {
	agg, avg := sumOrAvg(e)
	if agg == nil || agg.Window() == nil {
		return nil
	}
	argType := agg.Children()[0].Type()
	if typ, ok := exactType(argType, avg); ok {
		return &exactWindow{Aggregation: agg, typ: typ, avg: avg, exact: true}
	}
	if !types.IsFloat(argType) {
		return nil
	}
	return &exactWindow{Aggregation: agg, typ: types.Float64, avg: avg}
}

func (w *exactWindow) Type() sql.Type   { return w.typ }
func (w *exactWindow) IsNullable() bool { return true }

func (w *exactWindow) CollationCoercibility(*sql.Context) (sql.CollationID, byte) {
	return sql.Collation_binary, 5
}

func (w *exactWindow) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	e, err := w.Aggregation.WithChildren(children...)
	if err != nil {
		return nil, err
	}
	if win := newExactWindow(e); win != nil {
		return win, nil
	}
	return e, nil
}

func (w *exactWindow) WithId(id sql.ColumnId) sql.IdExpression {
	e := w.Aggregation.WithId(id).(sql.Expression)
	if win := newExactWindow(e); win != nil {
		return win
	}
	return e.(sql.IdExpression)
}

func (w *exactWindow) WithWindow(window *sql.WindowDefinition) sql.WindowAdaptableExpression {
	e := w.Aggregation.WithWindow(window)
	if win := newExactWindow(e); win != nil {
		return win
	}
	return e
}

func (w *exactWindow) NewWindowFunction() (sql.WindowFunction, error) {
	// The engine's own function, for the frame it gives the window.
	engine, err := w.Aggregation.NewWindowFunction()
	if err != nil {
		return nil, err
	}
	arg, err := transform.Clone(w.Children()[0])
	if err != nil {
		return nil, err
	}
	fn := &windowSum{arg: arg, framer: engine.DefaultFramer(), avg: w.avg, exact: w.exact}
	if w.exact {
		fn.scale = int32(w.typ.(sql.DecimalType).Scale())
	}
	return fn, nil
}

// windowSum computes SUM or AVG of the frames of a partition from the
// running sums and counts of the partition's values, kept as decimals or
// as DOUBLEs. A DOUBLE frame that does not start at the partition's
// first row is added up again, as subtracting running sums would give a
// result that depends on the rows before it.
type windowSum struct {
	arg    sql.Expression
	framer sql.WindowFramer
	avg    bool
	exact  bool
	scale  int32

	start  int               // the partition's first row in the buffer
	counts []int             // values other than NULL in the rows up to each
	decs   []decimal.Decimal // running sums, exact
	floats []float64         // running sums, DOUBLE
	values []float64         // each row's value, DOUBLE (0 for NULL)
}

var _ sql.WindowFunction = (*windowSum)(nil)

func (f *windowSum) DefaultFramer() sql.WindowFramer { return f.framer }

func (f *windowSum) Dispose() { expression.Dispose(f.arg) }

func (f *windowSum) StartPartition(ctx *sql.Context, interval sql.WindowInterval, buf sql.WindowBuffer) error {
	f.start = interval.Start
	n := interval.End - interval.Start
	f.counts, f.decs, f.floats, f.values = make([]int, n), nil, nil, nil
	if f.exact {
		f.decs = make([]decimal.Decimal, n)
	} else {
		f.floats, f.values = make([]float64, n), make([]float64, n)
	}
	count, dec, float := 0, decimal.Zero, 0.0
	for i := range n {
		v, err := f.arg.Eval(ctx, buf[interval.Start+i])
		if err != nil {
			return err
		}
		if v != nil {
			count++
			if f.exact {
				d, err := decimalOf(ctx, v)
				if err != nil {
					return err
				}
				dec = dec.Add(d)
			} else {
				x, _, err := types.Float64.Convert(ctx, v)
				if err != nil {
					return err
				}
				f.values[i] = x.(float64)
				float += f.values[i]
			}
		}
		f.counts[i] = count
		if f.exact {
			f.decs[i] = dec
		} else {
			f.floats[i] = float
		}
	}
	return nil
}

func (f *windowSum) Compute(_ *sql.Context, interval sql.WindowInterval, _ sql.WindowBuffer) any {
	first, last := interval.Start-f.start, interval.End-f.start-1 // in the partition
	if last < first {
		return nil
	}
	count := f.counts[last]
	if first > 0 {
		count -= f.counts[first-1]
	}
	if count == 0 {
		return nil
	}
	if f.exact {
		sum := f.decs[last]
		if first > 0 {
			sum = sum.Sub(f.decs[first-1])
		}
		if f.avg {
			return sum.DivRound(decimal.NewFromInt(int64(count)), f.scale)
		}
		return sum.Round(f.scale) // a stored 1.50 may come back as 1.5
	}
	sum := f.floats[last]
	if first > 0 {
		sum = 0
		for _, x := range f.values[first : last+1] {
			sum += x
		}
	}
	if f.avg {
		return sum / float64(count)
	}
	return sum
}
