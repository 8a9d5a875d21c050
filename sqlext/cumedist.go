package sqlext

import (
	"fmt"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/expression/function/aggregation/window"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"
)

// CUME_DIST() OVER (...) is the share of its partition's rows that come
// before a row or are its peers in the window's order, a DOUBLE: 1 for
// every row of a window without ORDER BY. The engine has no such window
// function, and its planner takes a window function only by one of the
// names it lists, so a parsed statement has each CUME_DIST() OVER
// written as PERCENT_RANK(cumeDistMarker) OVER (cumeDistAsPercentRank),
// which percentRankFunction builds as cumeDist; PERCENT_RANK() stays the
// engine's. The statement's text, and the column's name, are left as
// written.

// cumeDistMarker is the argument that makes PERCENT_RANK a CUME_DIST.
const cumeDistMarker = "sqlearn_cume_dist"

// cumeDistAsPercentRank writes f, a call over a window, as
// PERCENT_RANK(cumeDistMarker) when it is CUME_DIST().
func cumeDistAsPercentRank(f *ast.FuncExpr) {
	if len(f.Exprs) == 0 && f.Name.EqualString("cume_dist") {
		f.Name = ast.NewColIdent("percent_rank")
		f.Exprs = ast.SelectExprs{&ast.AliasedExpr{Expr: ast.NewStrVal([]byte(cumeDistMarker))}}
	}
}

// percentRankFunction is the engine's PERCENT_RANK(), its peers told by
// type (peers.go), and CUME_DIST for PERCENT_RANK(cumeDistMarker).
var percentRankFunction = sql.FunctionN{Name: "percent_rank", Fn: func(args ...sql.Expression) (sql.Expression, error) {
	switch {
	case len(args) == 0:
		return wrapRanked(window.NewPercentRank())
	case len(args) == 1 && literalText(args[0]) == cumeDistMarker:
		return &cumeDist{PercentRank: window.NewPercentRank().(*window.PercentRank)}, nil
	}
	return nil, sql.ErrInvalidArgumentNumber.New("PERCENT_RANK", 0, len(args))
}}

// cumeDist is CUME_DIST() OVER a window: the engine's PERCENT_RANK
// expression, which holds the window, with its own function.
type cumeDist struct {
	*window.PercentRank
}

var _ sql.WindowAdaptableExpression = (*cumeDist)(nil)

func (c *cumeDist) FunctionName() string { return "CUME_DIST" }
func (c *cumeDist) Description() string {
	return "returns the share of the partition's rows up to the current row's peers."
}

func (c *cumeDist) String() string {
	return strings.Replace(c.PercentRank.String(), "percent_rank()", "cume_dist()", 1)
}

func (c *cumeDist) DebugString() string {
	return strings.Replace(c.PercentRank.DebugString(), "percent_rank()", "cume_dist()", 1)
}

func (c *cumeDist) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	e, err := c.PercentRank.WithChildren(children...)
	if err != nil {
		return nil, err
	}
	return c.wrap(e)
}

func (c *cumeDist) WithId(id sql.ColumnId) sql.IdExpression {
	return rewrapped(c.PercentRank.WithId(id), c.wrap)
}

func (c *cumeDist) WithWindow(w *sql.WindowDefinition) sql.WindowAdaptableExpression {
	return rewrapped(c.PercentRank.WithWindow(w), c.wrap)
}

// wrap makes the engine's expression e, a PERCENT_RANK, a cumeDist.
func (c *cumeDist) wrap(e any) (*cumeDist, error) {
	pr, ok := e.(*window.PercentRank)
	if !ok {
		return nil, fmt.Errorf("sqlext: CUME_DIST over %T", e)
	}
	return &cumeDist{PercentRank: pr}, nil
}

func (c *cumeDist) NewWindowFunction() (sql.WindowFunction, error) {
	var orderBy []sql.Expression
	if w := c.Window(); w != nil {
		orderBy = w.OrderBy.ToExpressions()
	}
	return &cumeDistFunction{orderBy: orderBy}, nil
}

// cumeDistFunction computes CUME_DIST over the peer groups of a
// partition: the frame of a row is its peers, so the rows up to its
// last peer are those from the partition's start to the frame's end.
type cumeDistFunction struct {
	orderBy    []sql.Expression
	start, end int // the partition
}

var _ sql.WindowFunction = (*cumeDistFunction)(nil)

func (f *cumeDistFunction) Dispose() {}

func (f *cumeDistFunction) DefaultFramer() sql.WindowFramer {
	return &peerFramer{order: f.orderBy, peersOnly: true}
}

func (f *cumeDistFunction) StartPartition(_ *sql.Context, partition sql.WindowInterval, _ sql.WindowBuffer) error {
	f.start, f.end = partition.Start, partition.End
	return nil
}

func (f *cumeDistFunction) Compute(_ *sql.Context, peers sql.WindowInterval, _ sql.WindowBuffer) any {
	if f.end <= f.start || peers.End <= peers.Start {
		return nil
	}
	return float64(peers.End-f.start) / float64(f.end-f.start)
}

// literalText is the string e holds when it is a literal string, else "".
func literalText(e sql.Expression) string {
	if lit, ok := e.(*expression.Literal); ok {
		if s, ok := lit.Value().(string); ok {
			return s
		}
	}
	return ""
}
