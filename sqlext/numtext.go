package sqlext

import (
	"math"
	"strconv"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
)

// MySQL reads a string as a number by its longest numeric prefix and
// warns (1292) when it had to leave something out: CAST('123abc' AS
// SIGNED) is 123. The engine read any string that is not wholly a
// number as 0. numericTextRule hands such strings to the engine already
// read as MySQL reads them.
//
// It runs before the engine's rules, for every statement
// (beforeEveryStatement), so that what it changes is in place before the
// engine folds constants.
const numericTextRule analyzer.RuleId = 9996

func init() { beforeEveryStatement(numericTextRule, numericTexts) }

// beforeEveryStatement adds a rule to the batch the engine runs first for
// every statement, the short batches of single-table UPDATE and DELETE
// and of INSERT of literal rows included (see onEveryStatement). Like
// that one, the batch is the engine's, shared by every server in the
// process: such a rule holds no state.
func beforeEveryStatement(id analyzer.RuleId, apply analyzer.RuleFunc) {
	analyzer.AlwaysBeforeDefault = append(analyzer.AlwaysBeforeDefault, analyzer.Rule{Id: id, Apply: apply})
}

func numericTexts(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return transform.NodeExprs(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
		if c, ok := e.(*expression.Convert); ok && types.IsTextOnly(c.Child.Type()) && types.IsInteger(c.Type()) {
			return &textToInteger{Convert: c, unsigned: types.IsUnsigned(c.Type())}, transform.NewTree, nil
		}
		return e, transform.SameTree, nil
	})
}

// textToInteger is CAST(text AS SIGNED) or CAST(text AS UNSIGNED), read
// as MySQL reads it (integerPrefix).
type textToInteger struct {
	*expression.Convert
	unsigned bool
}

var (
	_ sql.Expression         = (*textToInteger)(nil)
	_ sql.CollationCoercible = (*textToInteger)(nil)
)

func (t *textToInteger) Eval(ctx *sql.Context, row sql.Row) (any, error) {
	v, err := t.Child.Eval(ctx, row)
	if err != nil || v == nil {
		return nil, err
	}
	s, ok := v.(string)
	if !ok {
		// Text that came as bytes: the engine's conversion.
		return t.Convert.Eval(ctx, row)
	}
	n, whole := integerPrefix(s)
	if !whole {
		ctx.Warn(erTruncatedWrongValue, "Truncated incorrect INTEGER value: '%s'", s)
	}
	if t.unsigned {
		return n, nil
	}
	return int64(n), nil
}

func (t *textToInteger) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	c, err := t.Convert.WithChildren(children...)
	if err != nil {
		return nil, err
	}
	return &textToInteger{Convert: c.(*expression.Convert), unsigned: t.unsigned}, nil
}

// integerPrefix reads s as MySQL's CAST to an integer reads it: blanks,
// a sign and the digits that follow, nothing more (1e3 is 1, 12.7 is
// 12), as a 64-bit two's complement value: BIGINT UNSIGNED's range for a
// positive number, 2^64 - 1 past it; BIGINT's for a negative one, -2^63
// past it. whole is false when the digits are not all of s, or run past
// that range.
func integerPrefix(s string) (n uint64, whole bool) {
	rest := strings.TrimLeft(s, " \t\n\r")
	neg := false
	if rest != "" && (rest[0] == '-' || rest[0] == '+') {
		neg = rest[0] == '-'
		rest = rest[1:]
	}
	digits := len(rest) - len(strings.TrimLeft(rest, "0123456789"))
	if digits == 0 {
		return 0, false
	}
	mag, err := strconv.ParseUint(rest[:digits], 10, 64)
	whole = digits == len(rest)
	switch {
	case err != nil && neg, neg && mag > 1<<63:
		return 1 << 63, false // -2^63
	case err != nil:
		return math.MaxUint64, false
	case neg:
		return -mag, whole
	}
	return mag, whole
}
