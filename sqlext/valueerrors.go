package sqlext

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync/atomic"
	"unicode/utf8"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"
	"github.com/dolthub/vitess/go/sqltypes"
)

// A value a column cannot hold fails a strict statement with MySQL's
// error for it, which names the column and the row: 1406 "Data too long
// for column 'b' at row 2", 1264 "Out of range value", 1366 "Incorrect
// integer value: 'x'", 1265 "Data truncated" (text with a number in
// front, an ENUM member that is not one), 1292 "Incorrect date value".
// The engine answered with texts of its own ("error: 'x' is not a valid
// value for 'int'"), without the row, and some with 1105 (text for a
// DECIMAL, a YEAR or BIT out of range); it also checked every NOT NULL
// column of an inserted row before any value's type, so that a NULL in a
// later column (1048) came before a bad value in an earlier one, where
// MySQL takes the row's columns in order. valueErrorRule puts each value
// an INSERT (VALUES, SELECT or LOAD DATA), an UPDATE or an ON DUPLICATE
// KEY UPDATE stores behind valueCheck, which answers those errors as the
// projection reaches each column, in order. Outside strict mode, and in a
// statement that ignores errors (INSERT or UPDATE IGNORE, LOAD DATA
// LOCAL), it stores what MySQL does, with the error's text as a warning:
// the engine refused such values as in strict mode, and under IGNORE
// stored 0 for '5x' and cut text too long by bytes, in the middle of a
// character, which left a value no read could write back. It runs for
// every statement (onEveryStatement), after the rules that read values
// their own way (dates from numbers, blank numbers, trailing spaces), so
// that it sees the value they hand on.
const valueErrorRule analyzer.RuleId = 9954

func valueErrors(ctx *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	ignore := ignoresErrors(n)
	n, insSame, err := transform.Node(n, func(node sql.Node) (sql.Node, transform.TreeIdentity, error) {
		ins, ok := node.(*plan.InsertInto)
		if !ok || ins.Destination == nil {
			return node, transform.SameTree, nil
		}
		// A BEFORE INSERT trigger may give a NULL column a value: the
		// engine checks NULLs after it has run.
		t := writtenTable(ins.Destination)
		nulls := t != nil && !mayTrigger(ctx, t)
		multi := manyRows(ins.Source)
		_, triggered := ins.Source.(*plan.TriggerExecutor)
		return rewriteInsertValues(ins, func(col *sql.Column, e sql.Expression) (sql.Expression, bool, error) {
			if !checkable(e) {
				return e, false, nil
			}
			c := newValueCheck(e, col, nulls && !col.Nullable, multi || ignore, ignore)
			c.typed = triggered && types.IsNumber(col.Type) && col.Type.Type() != sqltypes.Bit
			return c, true, nil
		})
	})
	if err != nil {
		return nil, transform.SameTree, err
	}
	out, same, err := transform.NodeExprs(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
		sf, ok := e.(*expression.SetField)
		if !ok || !checkable(sf.Right()) {
			return e, transform.SameTree, nil
		}
		gf, ok := sf.Left().(*expression.GetField)
		if !ok {
			return e, transform.SameTree, nil
		}
		// NULL assigned by SET is setNullRule's.
		col := &sql.Column{Name: gf.Name(), Type: gf.Type(), Nullable: true}
		return expression.NewSetField(gf, newValueCheck(sf.Right(), col, false, false, ignore)), transform.NewTree, nil
	})
	if insSame == transform.NewTree {
		same = transform.NewTree
	}
	return out, same, err
}

// manyRows says whether an INSERT's source gives more than one row, or
// may: anything but VALUES of one row.
func manyRows(source sql.Node) bool {
	many := true
	transform.Inspect(source, func(n sql.Node) bool {
		if v, ok := n.(*plan.Values); ok {
			many = len(v.ExpressionTuples) > 1
			return false
		}
		return true
	})
	return many
}

// checkable says whether e is a value valueCheck should see: not the
// column's default or automatic value, which the engine evaluates apart,
// nor one checked already.
func checkable(e sql.Expression) bool {
	_, done := unwrapped(e).(*valueCheck)
	return !done && !evaluatedApart(e)
}

// valueCheck is a value bound for column col, refused with MySQL's error
// when the column cannot hold it and the statement is strict. It hands
// on the value as it is: the engine converts it.
type valueCheck struct {
	sql.Expression
	col *sql.Column
	// notNull says to refuse NULL (1048).
	notNull bool
	// nullDefault says that outside strict mode a NULL for a NOT NULL
	// column is stored as the column's implicit default, with a warning,
	// as MySQL does in a statement of many rows (one row's NULL is an
	// error in every mode).
	nullDefault bool
	// ignore says that the statement ignores errors (INSERT or UPDATE
	// IGNORE, LOAD DATA LOCAL): a value is stored as outside strict
	// mode (a NULL as the implicit default, whatever the rows), and what
	// lenientValue cannot store is left to the engine.
	ignore bool
	// rows counts the evaluations, a row each: the row an error names.
	rows *atomic.Int64
	// typed says to hand on a number as the column holds it (2.5 as 3
	// in an INT), for the BEFORE INSERT triggers that read it as NEW.
	typed bool
}

func (*valueCheck) storeWrapper() {}

func newValueCheck(e sql.Expression, col *sql.Column, notNull, nullDefault, ignore bool) *valueCheck {
	return &valueCheck{Expression: e, col: col, notNull: notNull, nullDefault: nullDefault, ignore: ignore, rows: new(atomic.Int64)}
}

func (c *valueCheck) Eval(ctx *sql.Context, row sql.Row) (any, error) {
	v, err := c.checked(ctx, row)
	if err != nil || !c.typed || v == nil {
		return v, err
	}
	if typed, inRange, err := c.col.Type.Convert(ctx, v); err == nil && inRange == sql.InRange {
		return typed, nil
	}
	return v, nil
}

func (c *valueCheck) checked(ctx *sql.Context, row sql.Row) (any, error) {
	v, err := c.Expression.Eval(ctx, row)
	n := c.rows.Add(1)
	if err != nil {
		return nil, err
	}
	var bad error
	if v == nil {
		if c.notNull {
			bad = mysql.NewSQLError(mysql.ERBadNullError, "23000", "Column '%s' cannot be null", c.col.Name)
		}
	} else {
		bad = columnValueError(ctx, c.col, v, n)
	}
	if bad == nil {
		return v, nil
	}
	if !c.ignore && strictMode(ctx) {
		return nil, bad
	}
	out, err := lenientValue(ctx, c.col, v, n, bad, c.nullDefault, c.ignore)
	if err != nil && c.ignore {
		return v, nil
	}
	return out, err
}

// lenientValue is what a statement outside strict mode stores for v,
// which column col cannot hold (bad, columnValueError's error for it), as
// MySQL stores it, with bad's text as a warning: text cut to the
// column's length ("Data truncated"), the number in front of text ('5x'
// is 5), 0 for text that is no number, under IGNORE the zero date for a
// date it cannot read, the empty member of an ENUM, YEAR 0000, a BIT's largest
// value (out of range), and in a statement of
// many rows (nullDefault) the implicit default of a NOT NULL column for
// NULL. Other values keep their error, which the engine answers.
func lenientValue(ctx *sql.Context, col *sql.Column, v any, row int64, bad error, nullDefault, ignore bool) (any, error) {
	var me *mysql.SQLError
	if !errors.As(bad, &me) {
		return nil, bad
	}
	t := col.Type
	s, isText := v.(string)
	code, msg := int(me.Num), me.Message
	var out any
	switch {
	case me.Num == mysql.ERBadNullError:
		if !nullDefault {
			return nil, bad
		}
		d, err := implicitDefault(col, false)
		if err != nil || d == nil {
			return nil, bad
		}
		out = d
	case me.Num == mysql.ERDataTooLong && isText && types.IsText(t):
		out = cutText(t, s)
		code, msg = erDataTruncated, fmt.Sprintf("Data truncated for column '%s' at row %d", col.Name, row)
	case me.Num == erDataTruncated && isText && types.IsNumber(t):
		prefix, _ := numberPrefix(s)
		out = prefix
		if types.IsInteger(t) || types.IsDecimal(t) {
			// The number in front may be beyond the column's range
			// too: its bound, with that warning.
			var err error
			if out, err = storedInRange(ctx, t, prefix, col.Name, row, true); err != nil {
				return nil, err
			}
		}
	case me.Num == mysql.ERTruncatedWrongValueForField && types.IsNumber(t):
		out = "0"
	case me.Num == erTruncatedWrongValue && types.IsTime(t) && ignore:
		// The zero date, which MySQL stores for a date it cannot read.
		// Only where the engine stored it before (under IGNORE): outside
		// strict mode such a date is refused still, as the engine's
		// functions read the zero DATETIME as 0000-01-01.
		out = "0000-00-00 00:00:00"
		if types.IsDateType(t) {
			out = "0000-00-00"
		}
		code, msg = erDataTruncated, fmt.Sprintf("Data truncated for column '%s' at row %d", col.Name, row)
	case me.Num == erDataTruncated && types.IsEnum(t):
		out = 0 // the empty member, MySQL's value for an error
	case me.Num == mysql.ERWarnDataOutOfRange && types.IsYear(t):
		out = int64(0) // 0000
	case t.Type() == sqltypes.Bit:
		// The BIT's largest value, warned of as out of range.
		bits, ok := t.(types.BitType)
		if !ok {
			return nil, bad
		}
		out = uint64(1)<<bits.NumberOfBits() - 1
		if bits.NumberOfBits() >= 64 {
			out = uint64(math.MaxUint64)
		}
		code, msg = mysql.ERWarnDataOutOfRange, fmt.Sprintf("Out of range value for column '%s' at row %d", col.Name, row)
	default:
		return nil, bad
	}
	ctx.Session.Warn(&sql.Warning{Level: "Warning", Code: code, Message: msg})
	return out, nil
}

// cutText is s cut to what text column type t holds: its length in
// characters, or for TEXT types in bytes, at a character's boundary.
func cutText(t sql.Type, s string) string {
	st, ok := t.(sql.StringType)
	if !ok {
		return s
	}
	if types.IsTextBlob(t) {
		end := int(st.MaxByteLength())
		for end > 0 && end < len(s) && !utf8.RuneStart(s[end]) {
			end--
		}
		return s[:min(end, len(s))]
	}
	return firstRunes(s, int(st.MaxCharacterLength()))
}

func (c *valueCheck) Children() []sql.Expression { return []sql.Expression{c.Expression} }

func (c *valueCheck) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	return withOneChild(c, children, func(e sql.Expression) sql.Expression {
		d := *c
		d.Expression = e
		return &d
	})
}

func (c *valueCheck) String() string      { return c.Expression.String() }
func (c *valueCheck) DebugString() string { return "valueCheck(" + sql.DebugString(c.Expression) + ")" }

func (c *valueCheck) CollationCoercibility(ctx *sql.Context) (sql.CollationID, byte) {
	return sql.GetCoercibility(ctx, c.Expression)
}

// columnValueError is MySQL's error for v, not NULL, bound for col at
// row row, or nil when col holds v (or its error is one the engine's
// text already gives). Text that fits a text column, number text and Go
// integers a number column holds are let through without the conversion,
// which the engine does next.
func columnValueError(ctx *sql.Context, col *sql.Column, v any, row int64) error {
	t := col.Type
	if types.IsJSON(t) {
		return nil // the engine's own error (3140), after its one parse
	}
	if s, ok := v.(string); ok && (fitsText(t, s) || numberText(t, s)) || integerFits(t, v) {
		return nil
	}
	_, inRange, err := t.Convert(ctx, v)
	if err == nil && inRange == sql.InRange {
		return nil
	}
	at := func(code int, state, format string, args ...any) error {
		return mysql.NewSQLError(code, state, "%s at row %d", fmt.Sprintf(format, args...), row)
	}
	switch {
	case types.ErrLengthBeyondLimit.Is(err), t.Type() == sqltypes.Bit:
		return at(mysql.ERDataTooLong, "22001", "Data too long for column '%s'", col.Name)
	case err == nil, sql.ErrValueOutOfRange.Is(err), types.IsYear(t):
		return at(mysql.ERWarnDataOutOfRange, "22003", "Out of range value for column '%s'", col.Name)
	case types.IsEnum(t) || types.IsSet(t):
		return at(erDataTruncated, "01000", "Data truncated for column '%s'", col.Name)
	case types.IsNumber(t):
		s, ok := v.(string)
		if _, whole := numberPrefix(s); !ok || whole {
			// A number the column's type cannot hold.
			return at(mysql.ERWarnDataOutOfRange, "22003", "Out of range value for column '%s'", col.Name)
		}
		if startsNumber(s) {
			return at(erDataTruncated, "01000", "Data truncated for column '%s'", col.Name)
		}
		kind := "double"
		switch {
		case types.IsInteger(t):
			kind = "integer"
		case types.IsDecimal(t):
			kind = "decimal"
		}
		return at(mysql.ERTruncatedWrongValueForField, "HY000", "Incorrect %s value: '%s' for column '%s'", kind, s, col.Name)
	case types.IsTime(t) || isTimeType(t):
		kind := "datetime"
		switch {
		case types.IsDateType(t):
			kind = "date"
		case isTimeType(t):
			kind = "time"
		}
		return at(erTruncatedWrongValue, "22007", "Incorrect %s value: '%s' for column '%s'", kind, fmt.Sprint(v), col.Name)
	}
	return nil
}

// numberText says, without converting it, that s is text a number
// column of type t holds as it is (textInRange, or a float's text that
// parses whole and finite).
func numberText(t sql.Type, s string) bool {
	switch t.Type() {
	case sqltypes.Float32, sqltypes.Float64:
		f, err := strconv.ParseFloat(s, 64)
		return err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) && (t.Type() != sqltypes.Float32 || math.Abs(f) <= math.MaxFloat32)
	}
	return textInRange(t, s) // false for other types
}

// erDataTruncated is MySQL's WARN_DATA_TRUNCATED, an error in strict
// mode.
const erDataTruncated = 1265

// fitsText says whether s is valid UTF-8 that a CHAR, VARCHAR or TEXT
// column of a UTF-8 character set holds as it is.
func fitsText(t sql.Type, s string) bool {
	st, ok := t.(sql.StringType)
	if !ok || !types.IsText(t) || !utf8.ValidString(s) {
		return false
	}
	switch cs := st.CharacterSet(); cs {
	case sql.CharacterSet_utf8mb4, sql.CharacterSet_utf8mb3:
	default:
		return false
	}
	if types.IsTextBlob(t) {
		return int64(len(s)) <= st.MaxByteLength()
	}
	return int64(len(s)) <= st.MaxCharacterLength() || int64(utf8.RuneCountInString(s)) <= st.MaxCharacterLength()
}

// startsNumber says whether s, after blanks and a sign, starts with a
// number ('5x', '.5x'), which MySQL stores cut short ("Data truncated")
// where it refuses text that does not ("Incorrect integer value").
func startsNumber(s string) bool {
	s = strings.TrimLeft(s, " \t\n\r")
	if s != "" && (s[0] == '-' || s[0] == '+') {
		s = s[1:] // one sign, as numberPrefix reads it
	}
	s = strings.TrimPrefix(s, ".")
	return s != "" && s[0] >= '0' && s[0] <= '9'
}
