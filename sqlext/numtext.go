package sqlext

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"
)

// MySQL reads a string as a number by its longest numeric prefix and
// warns (1292) when it had to leave something out: CAST('123abc' AS
// SIGNED) is 123, and int_col = '12abc' compares int_col with 12. The
// engine read any string that is not wholly a number as 0, and refused
// one it looked a key up by (error 1366). numericTextRule hands such
// strings to the engine already read as MySQL reads them: the operand of
// a CAST to an integer (textToInteger), and the text side of a
// comparison with a number or of arithmetic (numericPrefix). A string
// literal compared with a number is read once, here, so that the
// engine can still look a key up by it. Storing a string in a numeric
// column is not a comparison and still fails in strict mode (1366).
//
// It runs before the engine's rules, for every statement
// (beforeEveryStatement), so that what it changes is in place before the
// engine folds constants and chooses index lookups.
const numericTextRule analyzer.RuleId = 9996

func numericTexts(ctx *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	r := textReader{ctx: ctx, strict: changesData(n) && strictMode(ctx)}
	return withInsertSource(n, r.read)
}

// withInsertSource is n rewritten by rewrite, and for an INSERT the rows
// it stores too: the engine plans the rows an INSERT takes from a query
// or VALUES on their own, with them at the root, where a rule cannot
// see that they are stored.
func withInsertSource(n sql.Node, rewrite func(sql.Node) (sql.Node, transform.TreeIdentity, error)) (sql.Node, transform.TreeIdentity, error) {
	out, same, err := rewrite(n)
	if ins, ok := out.(*plan.InsertInto); ok && err == nil && ins.Source != nil {
		src, srcSame, err := rewrite(ins.Source)
		if err != nil || srcSame == transform.SameTree {
			return out, same, err
		}
		return ins.WithSource(src), transform.NewTree, nil
	}
	return out, same, err
}

// read reads the text operands in n's expressions as numbers.
func (r textReader) read(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
	return transform.NodeExprs(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
		switch x := e.(type) {
		case *expression.Convert:
			if types.IsTextOnly(x.Child.Type()) && types.IsInteger(x.Type()) {
				return &textToInteger{Convert: x, unsigned: types.IsUnsigned(x.Type()), strict: r.strict}, transform.NewTree, nil
			}
		case *expression.HashInTuple:
			// Built by the engine from an InTuple this rule has read.
			return e, transform.SameTree, nil
		case *expression.InTuple:
			return r.in(x)
		case *expression.Between:
			return r.againstNumber(e, x.Val)
		case expression.Comparer:
			return r.againstNumber(e, x.Left(), x.Right())
		case *expression.Arithmetic, *expression.Div, *expression.IntDiv, *expression.Mod, *expression.UnaryMinus:
			if dateArithmetic(e) {
				return e, transform.SameTree, nil
			}
			return replaceChildren(e, func(_ int, c sql.Expression) sql.Expression { return r.onEval(c) })
		case *expression.BitOp:
			return replaceChildren(e, func(_ int, c sql.Expression) sql.Expression { return asMemberNumber(c) })
		case sql.FunctionExpression:
			return onDoubleArguments(x, r.asDouble)
		}
		return e, transform.SameTree, nil
	})
}

// doubleArguments are the functions that read their arguments, or as
// many of the first ones as given, as DOUBLEs. MySQL reads a string
// argument by its numeric prefix with warning 1292 (POW('3x', 2) is 9,
// SQRT('abc') is 0), where the engine's refused it (error 1366), read
// it as 0 (FLOOR) or NULL (ABS), or dropped ROUND's decimals; and it
// reads a date or time as a number (temporalNumberRule), where ABS(d)
// was NULL.
var doubleArguments = map[string]int{
	"pow": 0, "power": 0, "sqrt": 0, "exp": 0, "ln": 0, "log": 0, "log2": 0, "log10": 0,
	"sin": 0, "cos": 0, "tan": 0, "cot": 0, "asin": 0, "acos": 0, "atan": 0, "atan2": 0,
	"degrees": 0, "radians": 0, "abs": 0, "sign": 0, "ceil": 0, "floor": 0,
	"round": 1, "truncate": 1, "format": 1,
}

// onDoubleArguments gives a function of doubleArguments, in place of
// each argument it reads as a DOUBLE, what replace returns for it (nil
// keeps the argument).
func onDoubleArguments(f sql.FunctionExpression, replace func(sql.Expression) sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
	n, ok := doubleArguments[f.FunctionName()]
	if !ok {
		return f, transform.SameTree, nil
	}
	return replaceChildren(f, func(i int, c sql.Expression) sql.Expression {
		if n > 0 && i >= n {
			return nil
		}
		return replace(c)
	})
}

// changesData reports whether a statement writes rows. MySQL's strict
// mode makes a string it has to cut short to read as a number an error
// in such a statement (1292), where a SELECT gets a warning.
func changesData(n sql.Node) bool {
	switch n.(type) {
	case *plan.InsertInto, *plan.Update, *plan.DeleteFrom:
		return true
	}
	return false
}

func strictMode(ctx *sql.Context) bool {
	m := sqlMode(ctx)
	return m.ModeEnabled("STRICT_TRANS_TABLES") || m.ModeEnabled("STRICT_ALL_TABLES")
}

// textReader reads the text operands of one statement as numbers.
type textReader struct {
	ctx    *sql.Context
	strict bool // a string cut short is an error, not a warning
}

// againstNumber reads every text operand of the comparison e as a
// number when one of operands is a number.
func (r textReader) againstNumber(e sql.Expression, operands ...sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
	var num bool
	for _, c := range operands {
		num = num || types.IsNumber(c.Type())
	}
	if !num {
		return e, transform.SameTree, nil
	}
	return replaceChildren(e, func(_ int, c sql.Expression) sql.Expression { return r.now(c) })
}

// in is againstNumber for x IN (a, b, ...): the list read as numbers when
// x is a number, x when every item of the list is.
func (r textReader) in(in *expression.InTuple) (sql.Expression, transform.TreeIdentity, error) {
	list, ok := in.Right().(expression.Tuple)
	if !ok {
		return in, transform.SameTree, nil
	}
	if types.IsNumber(in.Left().Type()) {
		l, same, err := replaceChildren(list, func(_ int, c sql.Expression) sql.Expression { return r.now(c) })
		if err != nil || same == transform.SameTree {
			return in, same, err
		}
		out, err := in.WithChildren(in.Left(), l)
		return out, transform.NewTree, err
	}
	for _, c := range list {
		if !types.IsNumber(c.Type()) {
			return in, transform.SameTree, nil
		}
	}
	left := r.onEval(in.Left())
	if left == nil {
		return in, transform.SameTree, nil
	}
	out, err := in.WithChildren(left, list)
	return out, transform.NewTree, err
}

// now is a text operand of a comparison read as a number, or nil for an
// operand that is not text or is read already. A literal is read now,
// so that the engine can look a key up by it: wholly a number it stays
// as it is, and otherwise becomes its numeric prefix, with the warning
// (where that would be an error, it is read when evaluated instead).
func (r textReader) now(e sql.Expression) sql.Expression {
	lit, ok := e.(*expression.Literal)
	if !ok || r.strict || !types.IsTextOnly(e.Type()) {
		return r.onEval(e)
	}
	s, ok := lit.Value().(string)
	if !ok {
		return nil
	}
	prefix, whole := numberPrefix(s)
	if whole {
		return nil
	}
	warnTruncatedDouble(r.ctx, s)
	return expression.NewLiteral(prefix, lit.Type())
}

// onEval is a text operand read as a number when it is evaluated
// (numericPrefix), or nil for an operand that is not text or is read
// already. Arithmetic reads even a literal so: the engine names a
// result column after its operands.
func (r textReader) onEval(e sql.Expression) sql.Expression {
	if _, ok := e.(*numericPrefix); ok {
		return nil
	}
	if m := asMemberNumber(e); m != nil {
		return m
	}
	if !types.IsTextOnly(e.Type()) {
		return nil
	}
	return &numericPrefix{Expression: e, strict: r.strict}
}

// asMemberNumber is e, an ENUM or SET, read as a number; nil for any
// other e.
func asMemberNumber(e sql.Expression) sql.Expression {
	switch e.Type().(type) {
	case sql.EnumType, sql.SetType:
		return &memberNumber{Expression: e}
	}
	return nil
}

// memberNumber is an ENUM or SET read as a number, as MySQL reads one in
// arithmetic: an ENUM's value as its position in the list of members,
// from 1, a SET's as the bits of its members. The engine read both as
// DOUBLEs, so that tier + 0 was 2.0 where MySQL answers 2.
type memberNumber struct {
	sql.Expression
}

func (m *memberNumber) Type() sql.Type {
	if s, ok := m.Expression.Type().(sql.SetType); ok && s.NumberOfElements() == 64 {
		return types.Uint64
	}
	return types.Int64
}

func (m *memberNumber) Eval(ctx *sql.Context, row sql.Row) (any, error) {
	v, err := m.Expression.Eval(ctx, row)
	if err != nil || v == nil {
		return nil, err
	}
	if v, _, err = m.Expression.Type().Convert(ctx, v); err != nil {
		return nil, err
	}
	switch x := v.(type) {
	case uint16:
		return int64(x), nil
	case uint64:
		if m.Type() == types.Uint64 {
			return x, nil
		}
		return int64(x), nil
	}
	return nil, fmt.Errorf("sqlext: %T as a member's number", v)
}

func (m *memberNumber) Children() []sql.Expression { return []sql.Expression{m.Expression} }

func (m *memberNumber) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) != 1 {
		return nil, sql.ErrInvalidChildrenNumber.New(m, len(children), 1)
	}
	return &memberNumber{Expression: children[0]}, nil
}

// asDouble is a text or binary string argument of a function of
// DOUBLEs read as one when it is evaluated, or nil for an argument that
// is neither or is read already.
func (r textReader) asDouble(e sql.Expression) sql.Expression {
	if _, ok := e.(*numericPrefix); ok || !types.IsText(e.Type()) {
		return nil
	}
	return &numericPrefix{Expression: e, strict: r.strict, double: true}
}

func warnTruncatedDouble(ctx *sql.Context, s string) {
	ctx.Warn(erTruncatedWrongValue, "Truncated incorrect DOUBLE value: '%s'", s)
}

// truncated reports a string cut short to read it as a number of type
// typ: a warning, or in strict mode the error.
func truncated(ctx *sql.Context, strict bool, typ, s string) error {
	if strict {
		return mysql.NewSQLError(erTruncatedWrongValue, "22007", "Truncated incorrect %s value: '%s'", typ, s)
	}
	ctx.Warn(erTruncatedWrongValue, "Truncated incorrect %s value: '%s'", typ, s)
	return nil
}

// numericPrefix is text read as a number: its numeric prefix, still as
// text, which the engine reads exactly (numberPrefix), or as a DOUBLE.
type numericPrefix struct {
	sql.Expression
	strict bool
	double bool
}

var (
	_ sql.Expression         = (*numericPrefix)(nil)
	_ sql.CollationCoercible = (*numericPrefix)(nil)
)

func (p *numericPrefix) Eval(ctx *sql.Context, row sql.Row) (any, error) {
	v, err := p.Expression.Eval(ctx, row)
	if err != nil {
		return nil, err
	}
	if b, ok := v.([]byte); ok && p.double {
		v = string(b)
	}
	s, ok := v.(string)
	if !ok {
		return v, nil
	}
	prefix, whole := numberPrefix(s)
	if !whole {
		if err := truncated(ctx, p.strict, "DOUBLE", s); err != nil {
			return nil, err
		}
	}
	if !p.double {
		return prefix, nil
	}
	f, err := strconv.ParseFloat(prefix, 64)
	if err != nil { // past DOUBLE's range: the largest DOUBLE of that sign
		if whole {
			if err := truncated(ctx, p.strict, "DOUBLE", s); err != nil {
				return nil, err
			}
		}
		return math.Copysign(math.MaxFloat64, f), nil
	}
	return f, nil
}

func (p *numericPrefix) Type() sql.Type {
	if p.double {
		return types.Float64
	}
	return p.Expression.Type()
}

func (p *numericPrefix) Children() []sql.Expression { return []sql.Expression{p.Expression} }

func (p *numericPrefix) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) != 1 {
		return nil, sql.ErrInvalidChildrenNumber.New(p, len(children), 1)
	}
	return &numericPrefix{Expression: children[0], strict: p.strict, double: p.double}, nil
}

func (p *numericPrefix) CollationCoercibility(ctx *sql.Context) (sql.CollationID, byte) {
	return sql.GetCoercibility(ctx, p.Expression)
}

func (p *numericPrefix) String() string      { return p.Expression.String() }
func (p *numericPrefix) DebugString() string { return sql.DebugString(p.Expression) }

// numberPrefix is the number MySQL reads s as where it wants a DOUBLE:
// after blanks, a sign, digits with at most one decimal point, and an
// exponent when digits follow its e ('1e3x' is 1000, '1e' is 1), or 0
// when s does not start so. whole is false when more than blanks
// follow, or nothing is a number (an empty string too).
func numberPrefix(s string) (prefix string, whole bool) {
	rest := strings.TrimLeft(s, " \t\n\r")
	i := 0
	if i < len(rest) && (rest[i] == '-' || rest[i] == '+') {
		i++
	}
	intDigits := digitsAt(rest, i)
	end := i + intDigits
	fracDigits := 0
	if end < len(rest) && rest[end] == '.' {
		fracDigits = digitsAt(rest, end+1)
		if fracDigits > 0 || intDigits > 0 {
			end += 1 + fracDigits
		}
	}
	if intDigits == 0 && fracDigits == 0 {
		return "0", false
	}
	if end < len(rest) && (rest[end] == 'e' || rest[end] == 'E') {
		j := end + 1
		if j < len(rest) && (rest[j] == '-' || rest[j] == '+') {
			j++
		}
		if d := digitsAt(rest, j); d > 0 {
			end = j + d
		}
	}
	whole = strings.TrimRight(rest[end:], " \t\n\r") == ""
	return strings.TrimSuffix(rest[:end], "."), whole // '5.' is 5
}

// digitsAt counts the decimal digits in s from i on.
func digitsAt(s string, i int) int {
	n := 0
	for i+n < len(s) && s[i+n] >= '0' && s[i+n] <= '9' {
		n++
	}
	return n
}

// textToInteger is CAST(text AS SIGNED) or CAST(text AS UNSIGNED), read
// as MySQL reads it (integerPrefix).
type textToInteger struct {
	*expression.Convert
	unsigned bool
	strict   bool // a string cut short is an error, not a warning
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
		if err := truncated(ctx, t.strict, "INTEGER", s); err != nil {
			return nil, err
		}
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
	return &textToInteger{Convert: c.(*expression.Convert), unsigned: t.unsigned, strict: t.strict}, nil
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
