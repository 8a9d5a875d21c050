package sqlext

import (
	"strings"
	"unicode/utf8"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/sqltypes"
	querypb "github.com/dolthub/vitess/go/vt/proto/query"
)

// The engine types CONCAT, CONCAT_WS, LEFT, RIGHT, LPAD, RPAD, REPLACE,
// REPEAT and SUBSTRING as LONGTEXT, and IFNULL and COALESCE of text by
// their first argument. MySQL gives them a VARCHAR as long as their
// longest value can be (CONCAT(v, '!') of a VARCHAR(5) is a VARCHAR(6)),
// which clients read in a result's column description and CREATE TABLE
// ... AS SELECT makes the column's type (a LONGTEXT column there could
// not take an index without a prefix length). stringType works that
// length out from the arguments, as MySQL does, where every argument's
// is known: CHAR and VARCHAR columns, literals, integers, DECIMALs and
// dates by their longest text; not TEXTs, binary strings, floats, JSON or
// other functions.

// stringFunctions are the functions whose length stringLength knows.
var stringFunctions = map[string]bool{
	"concat": true, "concat_ws": true, "left": true, "right": true, "lpad": true, "rpad": true,
	"replace": true, "repeat": true, "substring": true, "substr": true, "mid": true,
	"upper": true, "lower": true, "ucase": true, "lcase": true, "trim": true, "ltrim": true, "rtrim": true,
	"ifnull": true, "coalesce": true,
}

// ctasVarcharLimit is the longest a computed text column of CREATE TABLE
// ... AS SELECT may be as a VARCHAR, in characters: MySQL makes a longer
// one a TEXT (CONVERT_IF_BIGGER_TO_BLOB).
const ctasVarcharLimit = 512

// stringType is the VARCHAR MySQL gives a string function's result, and
// whether it gives one: e is one of stringFunctions whose arguments'
// lengths are known, and the result fits a VARCHAR.
func stringType(ctx *sql.Context, e sql.Expression) (sql.StringType, int64, bool) {
	e = unwrapAlias(e)
	if ta, ok := e.(*typedAs); ok {
		// Typed already, as a statement's result column.
		if st, ok := ta.typ.(sql.StringType); ok && st.Type() == sqltypes.VarChar {
			return st, st.MaxCharacterLength(), true
		}
		return nil, 0, false
	}
	f, ok := e.(sql.FunctionExpression)
	if !ok || !stringFunctions[strings.ToLower(f.FunctionName())] {
		return nil, 0, false
	}
	// Only the engine's LONGTEXT, and its IFNULL or COALESCE of text typed
	// by the first argument, are retyped; other types stand.
	st, ok := e.Type().(sql.StringType)
	switch name := strings.ToLower(f.FunctionName()); {
	case !ok || types.IsBinaryType(st):
		return nil, 0, false
	case name == "ifnull" || name == "coalesce":
		if st.Type() != sqltypes.Char && st.Type() != sqltypes.VarChar {
			return nil, 0, false
		}
	case st.MaxByteLength() < types.LongTextBlobMax:
		return nil, 0, false
	}
	n, ok := stringLength(e)
	if !ok {
		return nil, 0, false
	}
	coll := sql.Collation_Default
	if cc, ok := e.(sql.CollationCoercible); ok {
		coll, _ = cc.CollationCoercibility(ctx)
	}
	if coll == sql.Collation_Unspecified || coll == sql.Collation_binary {
		return nil, 0, false
	}
	if n*coll.CharacterSet().MaxLength() > types.MaxRowLength {
		return nil, 0, false
	}
	vt, err := types.CreateString(sqltypes.VarChar, n, coll)
	if err != nil {
		return nil, 0, false
	}
	return vt, n, true
}

// ctasStringType is the column CREATE TABLE ... AS SELECT makes of a
// string function's result of type st, at most n characters long: st up
// to ctasVarcharLimit characters, a TEXT past it, as in MySQL.
func ctasStringType(st sql.StringType, n int64) sql.StringType {
	if n <= ctasVarcharLimit {
		return st
	}
	coll := st.Collation()
	text, err := types.CreateString(sqltypes.Text, types.TextBlobMax/coll.CharacterSet().MaxLength(), coll)
	if err != nil {
		return st
	}
	return text
}

// stringLength is the most characters e's values can hold as text.
func stringLength(e sql.Expression) (int64, bool) {
	switch x := e.(type) {
	case *expression.Alias:
		return stringLength(x.Child)
	case *expression.Literal:
		v, err := x.Eval(nil, nil)
		if err != nil {
			return 0, false
		}
		switch v := v.(type) {
		case nil:
			return 0, true
		case string:
			return int64(utf8.RuneCountInString(v)), true
		}
		return typedLength(x.Type())
	case *expression.GetField:
		return typedLength(x.Type())
	case sql.FunctionExpression:
		return functionLength(strings.ToLower(x.FunctionName()), e.Children())
	}
	return 0, false
}

// integerTextWidths are the most characters an integer type's values take
// as text, its sign included.
var integerTextWidths = map[querypb.Type]int64{
	sqltypes.Int8: 4, sqltypes.Uint8: 3, sqltypes.Int16: 6, sqltypes.Uint16: 5, sqltypes.Int24: 9,
	sqltypes.Uint24: 8, sqltypes.Int32: 11, sqltypes.Uint32: 10, sqltypes.Int64: 20, sqltypes.Uint64: 20,
}

// typedLength is the most characters a value of t takes as text.
func typedLength(t sql.Type) (int64, bool) {
	switch {
	case types.IsText(t):
		// A TEXT makes a TEXT (a BLOB in a result's description), which
		// is left as the engine types it.
		if st, ok := t.(sql.StringType); ok && t.Type() != sqltypes.Text && !types.IsBinaryType(t) {
			return st.MaxCharacterLength(), true
		}
	case types.IsInteger(t):
		w, ok := integerTextWidths[t.Type()]
		return w, ok
	case types.IsDecimal(t):
		d := t.(sql.DecimalType)
		n := int64(d.Precision()) + 1 // a sign
		if d.Scale() > 0 {
			n++ // the point
		}
		return n, true
	case t.Type() == sqltypes.Date:
		return 10, true
	case t.Type() == sqltypes.Year:
		return 4, true
	}
	return 0, false
}

// functionLength is the most characters the named function's values take,
// given its arguments.
func functionLength(name string, args []sql.Expression) (int64, bool) {
	lengths := make([]int64, len(args))
	for i, a := range args {
		n, ok := stringLength(a)
		if !ok && !constantInt(a) {
			return 0, false
		}
		lengths[i] = n
	}
	constant := func(i int) (int64, bool) {
		if i >= len(args) {
			return 0, false
		}
		lit, ok := args[i].(*expression.Literal)
		if !ok {
			return 0, false
		}
		v, err := lit.Eval(nil, nil)
		if err != nil || v == nil || !types.IsInteger(lit.Type()) {
			return 0, false
		}
		n, err := int64Of(v)
		return max(n, 0), err == nil
	}
	switch name {
	case "concat":
		var sum int64
		for _, n := range lengths {
			sum += n
		}
		return sum, true
	case "concat_ws":
		if len(args) < 2 {
			return 0, false
		}
		var sum int64
		for _, n := range lengths[1:] {
			sum += n
		}
		return sum + int64(len(args)-2)*lengths[0], true
	case "upper", "lower", "ucase", "lcase", "trim", "ltrim", "rtrim":
		return lengths[0], len(args) > 0
	case "left", "right":
		n, ok := constant(1)
		return min(n, lengths[0]), ok
	case "lpad", "rpad":
		return constant(1)
	case "repeat":
		n, ok := constant(1)
		return n * lengths[0], ok
	case "replace":
		if len(args) != 3 {
			return 0, false
		}
		from, to := lengths[1], lengths[2]
		if to <= from || from == 0 {
			return lengths[0], true
		}
		return lengths[0] + lengths[0]/from*(to-from), true
	case "substring", "substr", "mid":
		n := lengths[0]
		if pos, ok := constant(1); ok && pos > 0 {
			n = max(n-(pos-1), 0)
		}
		if l, ok := constant(2); ok {
			n = min(n, l)
		}
		return n, true
	case "ifnull", "coalesce":
		var most int64
		for i, a := range args {
			if !types.IsText(a.Type()) && a.Type() != types.Null {
				return 0, false
			}
			most = max(most, lengths[i])
		}
		return most, len(args) > 0
	}
	return 0, false
}

// constantInt says whether e is an integer literal (a count or position).
func constantInt(e sql.Expression) bool {
	lit, ok := e.(*expression.Literal)
	return ok && types.IsInteger(lit.Type())
}
