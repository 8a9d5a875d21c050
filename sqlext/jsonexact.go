package sqlext

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/sqltypes"
	"github.com/shopspring/decimal"

	"github.com/sqlearn/sqlearn/storage"
)

// JSON numbers as MySQL keeps them. MySQL reads a number in JSON text as
// an integer when it has neither fraction nor exponent and fits 64 bits
// (signed, else unsigned), and as a DOUBLE otherwise; it writes a DOUBLE
// as it writes one in a result, with ".0" after one that would otherwise
// read as an integer. The engine read every number as a float64 and wrote
// each whole float64 as an integer, so 9007199254740993 was stored as
// 9007199254740992, 18446744073709551615 as 18446744073709552000, and
// 1.0 came back as 1; it also wrote object keys without escaping them
// ({"a"b": 1}), and stored a DECIMAL of a document (JSON_OBJECT('a',
// 1.50)) as the string "1.5".
//
// Here JSON text is read with exact numbers (parseJSON) where a document
// is made from text: a value stored in a JSON column (exactJSONRule, by
// wrapStoredValues), CAST(text AS JSON), and the document arguments of
// the JSON functions; documents are written as MySQL writes them
// (appendJSON) in results, kept in storage with their DOUBLEs and
// DECIMALs told apart from integers (storedJSON), and read back with
// them (parseStoredJSON).

// parseJSON reads JSON text as MySQL does: integers as int64 or uint64,
// other numbers as float64 (an error if one is beyond a DOUBLE's range).
func parseJSON(text []byte) (any, error) { return decodeJSON(text, false) }

// parseStoredJSON reads a document storedJSON wrote: as parseJSON, but a
// number with a fraction whose text is not that of the DOUBLE it reads
// as (1.50, or more digits than a DOUBLE holds) is the DECIMAL written,
// as storedJSON writes a DOUBLE with its shortest digits only.
func parseStoredJSON(text []byte) (any, error) { return decodeJSON(text, true) }

func decodeJSON(text []byte, stored bool) (any, error) {
	if plainNumbers(text) {
		// Most documents: read as floats, each number is the value
		// written, and a whole one was written as an integer.
		var v any
		if err := json.Unmarshal(text, &v); err != nil {
			return nil, err
		}
		return wholeAsIntegers(v), nil
	}
	return decodeExact(text, stored)
}

// decodeExact is decodeJSON reading each number from its text.
func decodeExact(text []byte, stored bool) (any, error) {
	d := json.NewDecoder(bytes.NewReader(text))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, errors.New("the document is followed by more text")
	}
	return exactNumbers(v, stored)
}

// plainNumbers reports whether every number of the JSON text reads back
// as the same value through a float64 and has neither an exponent nor a
// fraction that ends in 0: at most 15 digits, so that a whole float64 is
// an integer as written, and one with a fraction is no DECIMAL of a
// stored document (10.50). Numbers inside strings do not count.
func plainNumbers(text []byte) bool {
	inString := false
	for i := 0; i < len(text); i++ {
		c := text[i]
		if inString {
			switch c {
			case '\\':
				i++
			case '"':
				inString = false
			}
			continue
		}
		if c == '"' {
			inString = true
			continue
		}
		if c != '-' && (c < '0' || c > '9') {
			continue
		}
		digits, point, last := 0, false, byte(0)
		j := i
	number:
		for ; j < len(text); j++ {
			switch d := text[j]; {
			case d >= '0' && d <= '9':
				digits, last = digits+1, d
			case d == '.':
				point = true
			case d == '-':
			case d == 'e' || d == 'E':
				return false
			default:
				break number
			}
		}
		if digits > 15 || point && last == '0' {
			return false
		}
		i = j - 1
	}
	return true
}

// wholeAsIntegers replaces each whole float64 in v, which
// encoding/json read from an integer of at most 15 digits, by the int64.
func wholeAsIntegers(v any) any {
	switch x := v.(type) {
	case float64:
		if i := int64(x); float64(i) == x {
			return i
		}
	case []any:
		for i, e := range x {
			x[i] = wholeAsIntegers(e)
		}
	case map[string]any:
		for k, e := range x {
			x[k] = wholeAsIntegers(e)
		}
	}
	return v
}

// exactNumbers replaces each json.Number in v by its value.
func exactNumbers(v any, stored bool) (any, error) {
	switch x := v.(type) {
	case json.Number:
		return jsonNumber(string(x), stored)
	case []any:
		for i, e := range x {
			n, err := exactNumbers(e, stored)
			if err != nil {
				return nil, err
			}
			x[i] = n
		}
	case map[string]any:
		for k, e := range x {
			n, err := exactNumbers(e, stored)
			if err != nil {
				return nil, err
			}
			x[k] = n
		}
	}
	return v, nil
}

func jsonNumber(s string, stored bool) (any, error) {
	if !strings.ContainsAny(s, ".eE") {
		if i, err := strconv.ParseInt(s, 10, 64); err == nil {
			return i, nil
		}
		if u, err := strconv.ParseUint(s, 10, 64); err == nil {
			return u, nil
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return nil, errors.New("number too big to be stored in double")
	}
	if stored && strings.IndexByte(s, '.') >= 0 && !strings.ContainsAny(s, "eE") && string(storage.AppendJSONDouble(nil, f)) != s {
		if d, err := decimal.NewFromString(s); err == nil {
			return d, nil
		}
	}
	return f, nil
}

// appendJSON appends v written as MySQL writes a JSON value: ", " and ":
// " between items, object keys shorter first and then by bytes, strings
// and keys quoted with '"', '\\' and control characters escaped, a
// DECIMAL with its scale and a DOUBLE as appendJSONDouble writes it. ok
// is false for a value of a kind a document made by SQL does not hold.
func appendJSON(b []byte, v any) (_ []byte, ok bool) {
	switch x := v.(type) {
	case nil:
		b = append(b, "null"...)
	case bool:
		b = strconv.AppendBool(b, x)
	case string:
		b = appendJSONString(b, x)
	case decimal.Decimal:
		if x.Exponent() < 0 {
			b = append(b, x.StringFixed(-x.Exponent())...)
		} else {
			b = append(b, x.String()...)
		}
	case float64:
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return b, false
		}
		b = appendJSONDouble(b, x)
	case float32:
		return appendJSON(b, float64(x))
	case int64:
		b = strconv.AppendInt(b, x, 10)
	case uint64:
		b = strconv.AppendUint(b, x, 10)
	case int32, int16, int8, int, uint32, uint16, uint8:
		b = fmt.Append(b, x)
	case time.Time:
		b = append(append(append(b, '"'), x.Format(time.RFC3339)...), '"')
	case []any:
		b = append(b, '[')
		for i, e := range x {
			if i > 0 {
				b = append(b, ", "...)
			}
			if b, ok = appendJSON(b, e); !ok {
				return b, false
			}
		}
		b = append(b, ']')
	case map[string]any:
		b = append(b, '{')
		for i, k := range jsonKeyOrder(x) {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = append(appendJSONString(b, k), ": "...)
			if b, ok = appendJSON(b, x[k]); !ok {
				return b, false
			}
		}
		b = append(b, '}')
	case sql.JSONWrapper:
		in, err := x.ToInterface()
		if err != nil {
			return b, false
		}
		return appendJSON(b, in)
	default:
		return b, false
	}
	return b, true
}

// appendJSONDouble appends f as MySQL writes a DOUBLE in a document: its
// shortest digits, as in a result (mysqlFloatText), and ".0" when that
// text has neither a point nor an exponent (1.0, -0.0, 100.0), so that
// it reads back as a DOUBLE.
func appendJSONDouble(b []byte, f float64) []byte {
	start := len(b)
	if f == 0 && math.Signbit(f) {
		b = append(b, '-')
	}
	b = append(b, mysqlFloatText(f, 64)...)
	if !bytes.ContainsAny(b[start:], ".e") {
		b = append(b, ".0"...)
	}
	return b
}

// jsonKeyOrder is an object's keys in the order MySQL writes them:
// shorter first, then by bytes.
func jsonKeyOrder(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		if len(a) != len(b) {
			return len(a) - len(b)
		}
		return strings.Compare(a, b)
	})
	return keys
}

// appendJSONString appends s quoted as MySQL quotes a JSON string: '"'
// and '\\' escaped, backspace, form feed, newline, carriage return and
// tab as their short escapes, other control characters as \u00XX.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\b':
			b = append(b, `\b`...)
		case '\f':
			b = append(b, `\f`...)
		case '\n':
			b = append(b, `\n`...)
		case '\r':
			b = append(b, `\r`...)
		case '\t':
			b = append(b, `\t`...)
		case '"':
			b = append(b, `\"`...)
		case '\\':
			b = append(b, `\\`...)
		default:
			if c < 0x20 {
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
			} else {
				b = append(b, c)
			}
		}
	}
	return append(b, '"')
}

// jsonResult is the type of a statement's JSON columns (given by
// doubleDecimalsRule through a typedAs, which keeps the column's name):
// it writes each document with appendJSON, and leaves one holding a value
// appendJSON does not know to the engine.
type jsonResult struct{ types.JsonType }

func (t jsonResult) SQL(ctx *sql.Context, dest []byte, v any) (sqltypes.Value, error) {
	if b, ok := documentText(dest[:0:0], v); ok {
		return sqltypes.MakeTrusted(sqltypes.TypeJSON, b), nil
	}
	return types.JSON.SQL(ctx, dest, v)
}

// documentText appends v, when it is a document, as appendJSON writes
// it; ok is false for another value or one appendJSON does not know.
func documentText(b []byte, v any) ([]byte, bool) {
	w, ok := v.(sql.JSONWrapper)
	if !ok {
		return b, false
	}
	in, err := w.ToInterface()
	if err != nil {
		return b, false
	}
	return appendJSON(b, in)
}

// storedJSON is a document's text in storage: encoding/json's compact
// form, which the engine stored, but with a whole DOUBLE written with
// ".0" (storage.AppendJSONDouble) and a DECIMAL as the number it is, with
// its scale; the engine wrote the first as an integer and the second as a
// string. parseStoredJSON reads it back.
func storedJSON(w sql.JSONWrapper) (string, error) {
	in, err := w.ToInterface()
	if err != nil {
		return "", err
	}
	b, err := types.MarshallJsonValue(storedNumbers(in))
	return string(b), err
}

// StoredJSON is the text storage keeps for a document whose value is
// doc (what an INSERT of it stores), for those that write stored
// documents themselves.
func StoredJSON(doc any) (string, error) { return storedJSON(types.JSONDocument{Val: doc}) }

// storedNumbers is v with its DOUBLEs and DECIMALs as the json.Numbers
// storedJSON writes; v itself is left as it is.
func storedNumbers(v any) any {
	return mapLeaves(v, func(v any) any {
		switch x := v.(type) {
		case float64:
			if math.IsInf(x, 0) || math.IsNaN(x) {
				return x // which encoding/json refuses
			}
			return json.Number(storage.AppendJSONDouble(nil, x))
		case float32:
			return storedNumbers(float64(x))
		case decimal.Decimal:
			b, _ := appendJSON(nil, x)
			return json.Number(b)
		case sql.JSONWrapper:
			if in, err := x.ToInterface(); err == nil {
				return storedNumbers(in)
			}
		}
		return v
	})
}

// mapLeaves is a copy of the document v with each value that is neither
// an array nor an object replaced by leaf's for it.
func mapLeaves(v any, leaf func(any) any) any {
	switch x := v.(type) {
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = mapLeaves(e, leaf)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = mapLeaves(e, leaf)
		}
		return out
	}
	return leaf(v)
}

// exactJSONRule reads with parseJSON the text that becomes a document:
// each value stored in a JSON column, the text of CAST(... AS JSON), and
// the arguments of the JSON functions that take a document. It runs for
// every statement (onEveryStatement).
const exactJSONRule analyzer.RuleId = 9961

// jsonPathFunctions are the functions that read a document by path,
// taken over from the engine (jsonpath.go), by name.
var jsonPathFunctions = map[string]struct {
	typ  sql.Type
	eval func(*sql.Context, []any) (any, error)
}{
	"json_extract":       {types.JSON, jsonExtract},
	"json_keys":          {types.JSON, jsonKeys},
	"json_length":        {types.Int64, jsonLength},
	"json_contains":      {types.Int64, jsonContainsFunc},
	"json_contains_path": {types.Int64, jsonContainsPath},
}

// jsonDocArgs are the positions of the document arguments of the
// engine's JSON functions, by their names; -1 stands for every argument.
var jsonDocArgs = map[string][]int{
	"json_array_append": {0}, "json_array_insert": {0}, "json_insert": {0}, "json_replace": {0},
	"json_set": {0}, "json_remove": {0}, "json_overlaps": {0, 1},
	"json_depth": {0}, "json_pretty": {0}, "json_search": {0}, "json_type": {0},
	"json_merge_patch": {-1}, "json_merge_preserve": {-1}, "json_merge": {-1},
}

func exactJSON(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	n, same, err := wrapStoredValues(n, func(col string, t sql.Type, e sql.Expression) sql.Expression {
		if !types.IsJSON(t) {
			return nil
		}
		return newCheckedStore(e, col, false, func(_ *sql.Context, v any, _ string, _ int64, _ bool) (any, error) {
			return jsonFromText(v), nil
		})
	})
	if err != nil {
		return nil, transform.SameTree, err
	}
	out, esame, err := transform.NodeExprs(n, exactJSONExpr)
	if esame == transform.NewTree {
		same = transform.NewTree
	}
	return out, same, err
}

// exactJSONExpr is e with the text it reads as a document read by
// parseJSON (jsonTextArg), the documents it writes as text written by
// appendJSON (jsonAsText), and JSON_TYPE as jsonTypeOf.
func exactJSONExpr(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
	switch x := e.(type) {
	case *expression.Convert:
		switch {
		case types.IsJSON(x.Type()):
			return replaceChildren(e, func(_ int, c sql.Expression) sql.Expression { return jsonTextArg(c) })
		case types.IsText(x.Type()):
			return replaceChildren(e, documentAsText)
		}
	case sql.FunctionExpression:
		name := strings.ToLower(x.FunctionName())
		if name == "json_unquote" {
			return replaceChildren(e, documentAsText)
		}
		if f, ok := jsonPathFunctions[name]; ok || name == "json_value" {
			// The engine's, by path (jsonpath.go).
			var args []sql.Expression
			for _, c := range e.Children() {
				if c != nil {
					args = append(args, c)
				}
			}
			if !ok { // JSON_VALUE, of the type it RETURNS
				f.typ, f.eval = e.Type(), jsonValueOf(e.Type())
			}
			return &scalarFunc{name: name, args: args, typ: f.typ, typeOf: fixedType(f.typ), eval: f.eval}, transform.NewTree, nil
		}
		at, ok := jsonDocArgs[name]
		if !ok {
			break
		}
		checked := transform.SameTree
		if jsonChangers[name] { // jsonpath.go
			var err error
			if e, checked, err = jsonPathsChecked(e, name); err != nil {
				return nil, transform.SameTree, err
			}
		}
		e, same, err := replaceChildren(e, func(i int, c sql.Expression) sql.Expression {
			if at[0] >= 0 && !slices.Contains(at, i) {
				return nil
			}
			return jsonTextArg(c)
		})
		if checked == transform.NewTree {
			same = transform.NewTree
		}
		if err != nil || name != "json_type" || len(e.Children()) != 1 {
			return e, same, err
		}
		if _, cast := e.Children()[0].(*expression.Convert); cast {
			return e, same, nil
		}
		return &jsonTypeOf{engine: e}, transform.NewTree, nil
	}
	return e, transform.SameTree, nil
}

// documentAsText is c, a document, written as text by appendJSON, or nil
// when c is no document.
func documentAsText(_ int, c sql.Expression) sql.Expression {
	if !types.IsJSON(c.Type()) {
		return nil
	}
	return &jsonAsText{Expression: c}
}

// jsonTextArg is c read as a document when it gives text, or nil when c
// needs nothing: a document already, or read so already. A CAST is left
// as it is, as JSON_TYPE reads the type of what a CAST converts.
func jsonTextArg(c sql.Expression) sql.Expression {
	switch c.(type) {
	case nil, *jsonFromTextExpr, *expression.Convert:
		return nil
	}
	if types.IsJSON(c.Type()) {
		return nil
	}
	return &jsonFromTextExpr{Expression: c}
}

// jsonFromTextExpr is its expression's value, as a document read by
// parseJSON when that is text; text that is no document, and any other
// value, is handed on as it is, for the engine to read or refuse with its
// errors.
type jsonFromTextExpr struct{ sql.Expression }

func (j *jsonFromTextExpr) Eval(ctx *sql.Context, row sql.Row) (any, error) {
	v, err := j.Expression.Eval(ctx, row)
	if err != nil {
		return nil, err
	}
	return jsonFromText(v), nil
}

func (j *jsonFromTextExpr) String() string { return j.Expression.String() }

func (j *jsonFromTextExpr) Children() []sql.Expression { return []sql.Expression{j.Expression} }

func (j *jsonFromTextExpr) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	return withOneChild(j, children, func(c sql.Expression) sql.Expression { return &jsonFromTextExpr{Expression: c} })
}

// jsonAsText is a document as the text MySQL writes it (appendJSON), for
// CAST(... AS CHAR) and JSON_UNQUOTE (j->>'$.a'), which the engine gave
// its own text: CAST('[1.0]' AS JSON) AS CHAR was [1].
type jsonAsText struct{ sql.Expression }

func (j *jsonAsText) Type() sql.Type { return types.LongText }

func (j *jsonAsText) Eval(ctx *sql.Context, row sql.Row) (any, error) {
	v, err := j.Expression.Eval(ctx, row)
	if b, ok := documentText(nil, v); ok && err == nil {
		return string(b), nil
	}
	return v, err
}

func (j *jsonAsText) String() string { return j.Expression.String() }

func (j *jsonAsText) Children() []sql.Expression { return []sql.Expression{j.Expression} }

func (j *jsonAsText) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	return withOneChild(j, children, func(c sql.Expression) sql.Expression { return &jsonAsText{Expression: c} })
}

// convertForColumn is v converted to t, a column's type, as the engine
// converts it but for text bound for a JSON column, which is read with
// exact numbers (jsonFromText).
func convertForColumn(ctx *sql.Context, t sql.Type, v any) (any, sql.ConvertInRange, error) {
	if types.IsJSON(t) {
		v = jsonFromText(v)
	}
	return t.Convert(ctx, v)
}

// jsonFromText is v as a document when it is text that parses as one
// within the engine's size limit, else v.
func jsonFromText(v any) any {
	s, ok := v.(string)
	if !ok || int64(len(s))*4 > types.MaxJsonFieldByteLength {
		return v
	}
	doc, err := parseJSON([]byte(s))
	if err != nil {
		return v
	}
	return types.JSONDocument{Val: doc}
}

// jsonTypeOf is JSON_TYPE, which the engine answers "INTEGER" for a
// whole DOUBLE (1.0, 1e2): MySQL's answer is "DOUBLE". Other documents
// go to the engine's function (engine), over the value already read. Its
// one child is the function's argument, so that the rule that made it
// finds nothing more to do in it when a statement is planned again.
type jsonTypeOf struct{ engine sql.Expression }

func (j *jsonTypeOf) Eval(ctx *sql.Context, row sql.Row) (any, error) {
	arg := j.engine.Children()[0]
	v, err := arg.Eval(ctx, row)
	if err != nil {
		return nil, err
	}
	if w, ok := v.(sql.JSONWrapper); ok {
		if in, err := w.ToInterface(); err == nil {
			if _, double := in.(float64); double {
				return "DOUBLE", nil
			}
		}
	}
	f, err := j.engine.WithChildren(expression.NewLiteral(v, arg.Type()))
	if err != nil {
		return nil, err
	}
	return f.Eval(ctx, row)
}

func (j *jsonTypeOf) Type() sql.Type             { return j.engine.Type() }
func (j *jsonTypeOf) IsNullable() bool           { return j.engine.IsNullable() }
func (j *jsonTypeOf) Resolved() bool             { return j.engine.Resolved() }
func (j *jsonTypeOf) String() string             { return j.engine.String() }
func (j *jsonTypeOf) Children() []sql.Expression { return j.engine.Children() }
func (j *jsonTypeOf) CollationCoercibility(ctx *sql.Context) (sql.CollationID, byte) {
	return sql.GetCoercibility(ctx, j.engine)
}

func (j *jsonTypeOf) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	e, err := j.engine.WithChildren(children...)
	if err != nil {
		return nil, err
	}
	return &jsonTypeOf{engine: e}, nil
}
