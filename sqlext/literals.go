package sqlext

import (
	"strconv"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/vitess/go/mysql"
)

// DATE '2024-01-15', TIME '10:20:30' and TIMESTAMP '2024-01-15 10:20:30'
// are standard SQL's typed literals: a DATE, a TIME and a DATETIME whose
// fractional digits are those written. The engine's parser drops the
// keyword and keeps the string, so DATE'2024-01-15' + INTERVAL 1 DAY
// answered text and the result column was text. Every statement that has
// such a literal is read with each one written as a CAST of its value to
// its type (typedLiteralEdits), which the engine types as MySQL types
// the literal; a literal that is not a value of its type is MySQL's
// error 1525, raised when the statement is bound (badLiteralFunction).

// badLiteralFunc is the function an invalid typed literal becomes.
const badLiteralFunc = "sqlearn_bad_literal"

// erWrongValue is MySQL's ER_WRONG_VALUE, "Incorrect DATE value: 'x'".
const erWrongValue = 1525

// badLiteralFunction fails the statement that calls it, when it is
// bound, with error 1525 naming its arguments, the literal's type and
// text.
var badLiteralFunction = sql.FunctionN{Name: badLiteralFunc, Fn: func(args ...sql.Expression) (sql.Expression, error) {
	var text [2]string
	for i := 0; i < len(args) && i < 2; i++ {
		if lit, ok := args[i].(*expression.Literal); ok {
			text[i], _ = lit.Value().(string)
		}
	}
	return nil, mysql.NewSQLError(erWrongValue, "HY000", "Incorrect %s value: '%s'", text[0], text[1])
}}

// hasTypedLiteralWord reports whether q has DATE or TIME (TIMESTAMP
// included) in any case, which every typed literal has: most statements
// have neither and are not tokenized.
func hasTypedLiteralWord(q string) bool {
	for i := 0; i+4 <= len(q); i++ {
		if c := q[i] | 0x20; c == 'd' || c == 't' {
			if w := strings.ToUpper(q[i : i+4]); w == "DATE" || w == "TIME" {
				return true
			}
		}
	}
	return false
}

// typedLiteralEdits writes each typed literal of q as a CAST of its
// value to its type, or as a call of badLiteralFunc when the text is not
// a value of the type.
func typedLiteralEdits(q string) []edit {
	if !hasTypedLiteralWord(q) {
		return nil
	}
	toks := sqlTokens(q)
	var edits []edit
	for i := 0; i+1 < len(toks); i++ {
		kw, str := toks[i], toks[i+1]
		if !kw.word || len(str.text) < 2 || str.text[0] != '\'' && str.text[0] != '"' || strings.Contains(str.text, `\`) {
			continue
		}
		switch kind := strings.ToUpper(kw.text); kind {
		case "DATE", "TIME", "TIMESTAMP":
			edits = append(edits, edit{from: kw.start, to: str.end, text: typedLiteral(kind, unquote(str.text))})
			i++
		}
	}
	return edits
}

// typedLiteral is the text a typed literal is read as: a CAST of its
// value, or a call of badLiteralFunc.
func typedLiteral(kind, text string) string {
	var v temporalText
	var rest string
	var ok bool
	want, typ := kindDatetime, "DATETIME"
	switch kind {
	case "DATE":
		v, rest, ok = scanDatetime(text)
		want, typ = kindDate, "DATE"
	case "TIME":
		v, rest, ok = scanTime(text)
		want, typ = kindTime, "TIME"
	default:
		v, rest, ok = scanDatetime(text)
		kind = "DATETIME"
	}
	if !ok || v.kind != want || !onlySpaces(rest) {
		return badLiteralFunc + "(" + quoteString(kind) + ", " + quoteString(text) + ")"
	}
	if v.digits > 0 {
		typ += "(" + strconv.Itoa(v.digits) + ")"
	}
	return "CAST(" + quoteString(v.String()) + " AS " + typ + ")"
}
