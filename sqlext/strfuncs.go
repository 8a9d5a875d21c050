package sqlext

import (
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression/function"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/shopspring/decimal"
)

// String functions the engine answered otherwise than MySQL: LPAD and
// RPAD counted bytes, so padding with or around a character of more than
// one byte failed ("invalid string for charset utf8mb4") or cut it; a
// negative length or an empty pad gave '' (NULL in MySQL); REPEAT with a
// negative count failed; FIND_IN_SET found '' in an empty list; SOUNDEX
// of text without letters was 0000 (''); and FORMAT of a number past
// 2^63 overflowed (FORMAT(1e21, 2) was 3,875,820,019,684,112,736.00),
// and rounded a DOUBLE half away from zero where MySQL rounds it to even.

// maxResultBytes is max_allowed_packet's default, past which MySQL
// answers a string function NULL with warning 1301.
const maxResultBytes = 64 << 20

// tooLarge is NULL with MySQL's warning for a result of the function
// name past maxResultBytes.
func tooLarge(ctx *sql.Context, name string) (any, error) {
	ctx.Warn(1301, "Result of %s() was larger than max_allowed_packet (%d) - truncated", name, maxResultBytes)
	return nil, nil
}

// intArg is a count or length argument as MySQL reads one: rounded half
// away from zero, text by the number it starts with.
func intArg(v any) int64 { return int64(bitsOf(v)) }

// pad is LPAD (left) or RPAD: str cut or padded to n characters.
func pad(name string, left bool) sql.Function {
	return scalar(name, 3, 3, fixedType(types.LongText), func(ctx *sql.Context, v []any) (any, error) {
		s, err := textOf(v[0])
		if err != nil {
			return nil, err
		}
		fill, err := textOf(v[2])
		if err != nil {
			return nil, err
		}
		n := intArg(v[1])
		have := int64(utf8.RuneCountInString(s))
		switch {
		case n < 0:
			return nil, nil
		case n <= have:
			return firstRunes(s, int(n)), nil
		case fill == "":
			return nil, nil
		case n*int64(utf8.UTFMax) > maxResultBytes:
			return tooLarge(ctx, name)
		}
		need := int(n - have)
		fillRunes := utf8.RuneCountInString(fill)
		padding := strings.Repeat(fill, need/fillRunes) + firstRunes(fill, need%fillRunes)
		if left {
			return padding + s, nil
		}
		return s + padding, nil
	})
}

// firstRunes is the first n characters of s.
func firstRunes(s string, n int) string {
	for i := range s {
		if n == 0 {
			return s[:i]
		}
		n--
	}
	return s
}

var repeatFunction = scalar("repeat", 2, 2, fixedType(types.LongText), func(ctx *sql.Context, v []any) (any, error) {
	s, err := textOf(v[0])
	if err != nil {
		return nil, err
	}
	n := intArg(v[1])
	switch {
	case n < 1 || s == "":
		return "", nil
	case n > maxResultBytes/int64(len(s)):
		return tooLarge(ctx, "repeat")
	}
	return strings.Repeat(s, int(n)), nil
})

// findInSetFunction is FIND_IN_SET(str, list): 0 for an empty list,
// else the engine's, which compares by the arguments' collation.
var findInSetFunction = sql.Function2{Name: "find_in_set", Fn: func(str, list sql.Expression) sql.Expression {
	return &findInSet{Expression: function.NewFindInSet(str, list)}
}}

type findInSet struct{ sql.Expression }

var _ sql.FunctionExpression = (*findInSet)(nil)

// FunctionName is the function's, so that the rules that treat its
// arguments (textArguments reads an ENUM as its text) find it.
func (f *findInSet) FunctionName() string { return "find_in_set" }
func (f *findInSet) Description() string {
	return "returns the position of str in the comma-separated list"
}

func (f *findInSet) Eval(ctx *sql.Context, row sql.Row) (any, error) {
	list, err := f.Children()[1].Eval(ctx, row)
	if err != nil || list == nil {
		return nil, err
	}
	if s, ok := list.(string); ok && s == "" {
		if str, err := f.Children()[0].Eval(ctx, row); err != nil || str == nil {
			return nil, err
		}
		return int64(0), nil
	}
	return f.Expression.Eval(ctx, row)
}

func (f *findInSet) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	e, err := f.Expression.WithChildren(children...)
	if err != nil {
		return nil, err
	}
	return &findInSet{Expression: e}, nil
}

var soundexFunction = scalar("soundex", 1, 1, fixedType(types.LongText), func(ctx *sql.Context, v []any) (any, error) {
	s, err := textOf(v[0])
	if err != nil || strings.IndexFunc(s, unicode.IsLetter) < 0 {
		return "", err
	}
	return engineCall(ctx, func(a ...sql.Expression) (sql.Expression, error) { return function.NewSoundex(a[0]), nil }, v)
})

// formatFunction is FORMAT(x, d[, locale]): x rounded to d decimals
// (0 to 30) and written with a comma between each three digits of its
// whole part, an exact number rounded half away from zero and any other
// read as a DOUBLE and rounded to even, as MySQL does. With a locale the
// engine's function answers.
var formatFunction = scalar("format", 2, 3, fixedType(types.LongText), func(ctx *sql.Context, v []any) (any, error) {
	if len(v) == 3 {
		return engineCall(ctx, function.NewFormat, v)
	}
	d := int32(min(max(intArg(v[1]), 0), 30))
	var text string
	switch x := v[0].(type) {
	case decimal.Decimal:
		text = x.StringFixed(d)
	case float64:
		text = formatDouble(x, d)
	case float32:
		text = formatDouble(float64(x), d)
	default:
		if _, ok := wideOf(v[0]); ok {
			n, err := decimalOf(ctx, v[0]) // sumavg.go
			if err != nil {
				return nil, err
			}
			text = n.StringFixed(d)
			break
		}
		f, err := float64Of(v[0])
		if err != nil {
			return nil, err
		}
		text = formatDouble(f, d)
	}
	return groupThousands(text), nil
})

// formatDouble is f rounded to even at d decimals, written with them.
func formatDouble(f float64, d int32) string {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	p := math.Pow10(int(d))
	if r := math.RoundToEven(f * p); !math.IsInf(r, 0) && math.Abs(f) < 1e15 {
		f = r / p
	}
	return strconv.FormatFloat(f, 'f', int(d), 64)
}

// groupThousands puts a comma between each three digits of the whole
// part of a number written in plain notation.
func groupThousands(s string) string {
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	whole, frac, hasFrac := strings.Cut(s, ".")
	var b strings.Builder
	b.WriteString(sign)
	for i, c := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if hasFrac {
		b.WriteByte('.')
		b.WriteString(frac)
	}
	return b.String()
}
