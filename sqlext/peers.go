package sqlext

import (
	"fmt"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression/function/aggregation/window"
)

// RANK, DENSE_RANK, PERCENT_RANK and CUME_DIST give a row's peers, the
// rows equal to it in the window's ORDER BY, the same answer. The engine
// told peers apart with Go's ==, so two equal DECIMALs (which keep the
// digits they were made with) were never peers, nor text equal by its
// collation ('a' and 'A'), and a binary value failed the statement with
// a panic. Peers are told here as the window's sort orders the rows, by
// the ORDER BY expressions' types (peerFramer, windowframe.go): the
// engine's functions are wrapped (peerRanked) to frame their rows with
// it.

// rankExpression is the engine's expression of a ranking function.
type rankExpression interface {
	sql.WindowAdaptableExpression
	sql.FunctionExpression
	sql.CollationCoercible
}

// peerRanked is a ranking function whose peers are told by type.
type peerRanked struct {
	rankExpression
}

var (
	_ sql.WindowAdaptableExpression = (*peerRanked)(nil)
	_ sql.FunctionExpression        = (*peerRanked)(nil)
)

// rankFunction registers name, the engine's function made by build, with
// its peers told by type.
func rankFunction(name string, build func() sql.Expression) sql.Function0 {
	return sql.Function0{Name: name, Fn: func() sql.Expression { return rewrapped(build(), wrapRanked) }}
}

// rewrapped is inner, an expression the engine built from one of this
// package's wrappers, wrapped again by wrap; or inner itself, the
// engine's own, should it ever be of a type wrap does not take.
func rewrapped[I any, W any](inner I, wrap func(any) (W, error)) I {
	if w, err := wrap(inner); err == nil {
		if e, ok := any(w).(I); ok {
			return e
		}
	}
	return inner
}

var (
	rankFunctionByType      = rankFunction("rank", window.NewRank)
	denseRankFunctionByType = rankFunction("dense_rank", window.NewDenseRank)
)

// wrapRanked wraps e, an engine's ranking expression.
func wrapRanked(e any) (*peerRanked, error) {
	r, ok := e.(rankExpression)
	if !ok {
		return nil, fmt.Errorf("sqlext: ranking over %T", e)
	}
	return &peerRanked{rankExpression: r}, nil
}

func (p *peerRanked) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	e, err := p.rankExpression.WithChildren(children...)
	if err != nil {
		return nil, err
	}
	return wrapRanked(e)
}

func (p *peerRanked) WithId(id sql.ColumnId) sql.IdExpression {
	return rewrapped(p.rankExpression.WithId(id), wrapRanked)
}

func (p *peerRanked) WithWindow(w *sql.WindowDefinition) sql.WindowAdaptableExpression {
	return rewrapped(p.rankExpression.WithWindow(w), wrapRanked)
}

func (p *peerRanked) NewWindowFunction() (sql.WindowFunction, error) {
	f, err := p.rankExpression.NewWindowFunction()
	if err != nil {
		return nil, err
	}
	return &peerFunction{WindowFunction: f, orderBy: windowOrder(p.Window())}, nil
}

// windowOrder is the ORDER BY expressions of w (nil: none).
func windowOrder(w *sql.WindowDefinition) []sql.Expression {
	if w == nil {
		return nil
	}
	return w.OrderBy.ToExpressions()
}

// peerFunction is an engine's ranking function framed by peerFramer.
type peerFunction struct {
	sql.WindowFunction
	orderBy []sql.Expression
}

func (f *peerFunction) DefaultFramer() sql.WindowFramer {
	return &peerFramer{order: f.orderBy, peersOnly: true}
}
