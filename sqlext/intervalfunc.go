package sqlext

import (
	"cmp"
	"errors"
	"math"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/shopspring/decimal"
)

// INTERVAL(N, N1, N2, ...) is how many of N1, N2, ... come before the
// first that is greater than N: 0 when N < N1, 1 when N1 <= N < N2, and
// so on, -1 when N is NULL; a NULL bound is passed over. MySQL reads the
// bounds in order, N1 < N2 < ..., as a binary search needs them. The
// engine's parser knew INTERVAL only before a unit (INTERVAL 1 DAY), so
// the function was a syntax error; its text is written as a call of
// intervalFunc before the statement is parsed (intervalCalls), which is
// no other reading: INTERVAL (x) DAY has no comma in its parentheses.
const intervalFunc = "sqlearn_interval"

var intervalFunction = scalarOfNulls(intervalFunc, 2, math.MaxInt, fixedType(types.Int64), intervalIndex)

func intervalIndex(ctx *sql.Context, v []any) (any, error) {
	if v[0] == nil {
		return int64(-1), nil
	}
	for i := 1; i < len(v); i++ {
		if v[i] == nil {
			continue
		}
		c, err := compareNumbers(ctx, v[i], v[0])
		if err != nil {
			return nil, err
		}
		if c > 0 {
			return int64(i - 1), nil
		}
	}
	return int64(len(v) - 1), nil
}

// compareNumbers compares a and b as MySQL's INTERVAL does: exactly when
// both are integers or DECIMALs, as DOUBLEs otherwise.
func compareNumbers(ctx *sql.Context, a, b any) (int, error) {
	if exactValue(a) && exactValue(b) {
		da, errA := decimalOf(ctx, a)
		db, errB := decimalOf(ctx, b)
		return da.Cmp(db), errors.Join(errA, errB)
	}
	fa, errA := doubleOf(ctx, a)
	fb, errB := doubleOf(ctx, b)
	return cmp.Compare(fa, fb), errors.Join(errA, errB)
}

// exactValue reports whether v is an integer or a DECIMAL.
func exactValue(v any) bool {
	switch v.(type) {
	case string, []byte, float32, float64, nil:
		return false
	}
	_, isWide := wideOf(v)
	_, isDecimal := v.(decimal.Decimal)
	return isWide || isDecimal
}

// intervalCalls writes each INTERVAL( whose parentheses hold a list as a
// call of intervalFunc.
func intervalCalls(q string) []edit {
	if !strings.Contains(strings.ToUpper(q), "INTERVAL") {
		return nil
	}
	toks := sqlTokens(q)
	var edits []edit
	for i := 0; i+1 < len(toks); i++ {
		if !keyword(toks[i], "INTERVAL") || toks[i+1].text != "(" {
			continue
		}
		end := matchingParen(toks, i+1)
		if end < 0 {
			continue
		}
		depth := 0
		for k := i + 1; k < end; k++ {
			switch toks[k].text {
			case "(":
				depth++
			case ")":
				depth--
			case ",":
				if depth == 1 {
					edits = append(edits, edit{from: toks[i].start, to: toks[i].end, text: intervalFunc})
					k = end
				}
			}
		}
	}
	return edits
}
