package sqlext

import (
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
)

// Where MySQL wants a date or a time it reads text by the longest prefix
// that is one, and drops the rest with warning 1292 naming what it read:
// TIME('10:20:30abc') is 10:20:30 ("Truncated incorrect time value:
// '10:20:30abc'"), DATE('2024-01-15 10:00:00junk') 2024-01-15 (a
// datetime value), and spaces after the value are dropped without a
// warning. The engine answered NULL for such text (TIMESTAMP failed with
// 1292). truncatedTemporalRule hands a text argument of CAST to a
// temporal type, of the functions of a date or a time below and of date
// arithmetic to them behind temporalPrefix, which passes on the value
// the text starts with. Text the engine reads whole (a time zone after
// the value, '2024-01-15T10:20:30Z') and text that starts with no value
// reach the engine as they are. As for text read as a number
// (numtext.go), text cut short is error 1292 in a statement that writes
// rows in strict mode.
const truncatedTemporalRule analyzer.RuleId = 9962

// temporalReaders are the functions that read their first argument as
// a date (false) or as a time (true). DATE_ADD and DATE_SUB are also
// ADDDATE and SUBDATE; TIMESTAMP(d) is the engine's datetime.
var temporalReaders = map[string]bool{
	"date": false, "datetime": false, "timestamp": false, "year": false, "quarter": false,
	"month": false, "monthname": false, "day": false, "dayname": false, "dayofweek": false,
	"dayofyear": false, "weekday": false, "week": false, "to_days": false, "last_day": false,
	"date_add": false, "date_sub": false,
	"time": true, "hour": true, "minute": true, "second": true, "microsecond": true, "time_to_sec": true,
}

func truncatedTemporals(ctx *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	strict := changesData(n) && strictMode(ctx)
	return withInsertSource(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		return transform.NodeExprs(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
			asTime, ok := readsTemporal(e)
			if !ok {
				return e, transform.SameTree, nil
			}
			return replaceChildren(e, func(i int, c sql.Expression) sql.Expression {
				if i > 0 || !types.IsText(c.Type()) || !mayBeTruncated(ctx, c, asTime) {
					return nil
				}
				return &temporalPrefix{Expression: c, asTime: asTime, strict: strict}
			})
		})
	})
}

// readsTemporal reports whether e reads its first argument as a date or
// a time, and asTime for a time.
func readsTemporal(e sql.Expression) (asTime, ok bool) {
	switch x := e.(type) {
	case *expression.Convert:
		t := x.Type()
		return types.IsTimespan(t), types.IsTime(t) || types.IsTimespan(t)
	case *dateOffset:
		return false, true
	case *timeCast:
		return true, true
	case *durationFunc:
		e = x.Expression
	}
	if f, isFunc := e.(sql.FunctionExpression); isFunc {
		asTime, ok = temporalReaders[strings.ToLower(f.FunctionName())]
	}
	return asTime, ok
}

// mayBeTruncated reports whether e may be text with something after
// its value: anything but a literal that is not.
func mayBeTruncated(ctx *sql.Context, e sql.Expression, asTime bool) bool {
	if _, ok := e.(*temporalPrefix); ok {
		return false
	}
	lit, ok := e.(*expression.Literal)
	if !ok {
		return true
	}
	s, ok := lit.Value().(string)
	if !ok {
		return false
	}
	_, _, ok = temporalPrefixOf(ctx, s, asTime)
	return ok
}

// temporalPrefixOf is the value s starts with when something follows
// it, and whether that is more than spaces; ok is false when s is to
// reach the engine as it is: it is all value, it starts with none, or
// the engine reads it whole.
func temporalPrefixOf(ctx *sql.Context, s string, asTime bool) (v temporalText, junk, ok bool) {
	scan := scanDatetime
	if asTime {
		scan = scanTime
	}
	v, rest, ok := scan(s)
	if !ok || rest == "" || engineReads(ctx, s, asTime) {
		return v, false, false
	}
	return v, !onlySpaces(rest), true
}

// engineReads reports whether the engine reads s whole as a date and
// time, or as a time.
func engineReads(ctx *sql.Context, s string, asTime bool) bool {
	if asTime {
		_, err := types.Time.ConvertToTimespan(s)
		return err == nil
	}
	_, ok := timeOf(ctx, s)
	return ok
}

// temporalPrefix is text read where a date or a time is wanted
// (asTime): the text of the value it starts with, with warning 1292
// when more than spaces follow it (temporalPrefixOf).
type temporalPrefix struct {
	sql.Expression
	asTime bool
	strict bool // text cut short is an error, not a warning
}

var (
	_ sql.Expression         = (*temporalPrefix)(nil)
	_ sql.CollationCoercible = (*temporalPrefix)(nil)
)

func (p *temporalPrefix) Eval(ctx *sql.Context, row sql.Row) (any, error) {
	v, err := p.Expression.Eval(ctx, row)
	s, ok := v.(string)
	if err != nil || !ok {
		return v, err
	}
	prefix, junk, ok := temporalPrefixOf(ctx, s, p.asTime)
	if !ok {
		return s, nil
	}
	if junk {
		if err := truncated(ctx, p.strict, prefix.kind.kindName(), s); err != nil {
			return nil, err
		}
	}
	return prefix.String(), nil
}

func (p *temporalPrefix) Children() []sql.Expression { return []sql.Expression{p.Expression} }

func (p *temporalPrefix) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	return withOneChild(p, children, func(c sql.Expression) sql.Expression {
		return &temporalPrefix{Expression: c, asTime: p.asTime, strict: p.strict}
	})
}

func (p *temporalPrefix) CollationCoercibility(ctx *sql.Context) (sql.CollationID, byte) {
	return sql.GetCoercibility(ctx, p.Expression)
}

func (p *temporalPrefix) DebugString() string { return sql.DebugString(p.Expression) }
