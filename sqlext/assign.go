package sqlext

import (
	"fmt"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/types"
)

// MySQL lets an expression assign a user variable, @v := expr, which sets
// @v and has expr's value; later expressions of the same row read it
// (SELECT @n := @n + 1 AS rank numbers rows). The engine's parser knows
// := only in SET, so such a statement failed with a syntax error: among
// others the query MariaDB Connector/ODBC runs for SQLColumns, which BI
// tools call for every table they show. A statement the parser refuses
// is tried again with each assignment written as a call of assignFunc
// (rewriteAssignments), which the engine evaluates where MySQL evaluates
// the assignment, once per row and in order.

// assignFunc is the function an assignment becomes.
const assignFunc = "sqlearn_assign_var"

// assignVar is assignFunc(name, value): it sets the user variable and
// returns the value.
type assignVar struct {
	name  string
	value sql.Expression
}

var (
	_ sql.FunctionExpression         = (*assignVar)(nil)
	_ sql.NonDeterministicExpression = (*assignVar)(nil)
)

// assignFunction builds assignVar; a name that is not a string literal
// leaves it nameless, which Eval refuses.
var assignFunction = sql.Function2{Name: assignFunc, Fn: func(name, value sql.Expression) sql.Expression {
	a := &assignVar{value: value}
	if lit, ok := name.(*expression.Literal); ok {
		a.name, _ = lit.Value().(string)
	}
	return a
}}

func (a *assignVar) FunctionName() string { return assignFunc }
func (a *assignVar) Description() string {
	return "@v := expr: sets the user variable v to expr and returns it"
}
func (a *assignVar) Type() sql.Type             { return a.value.Type() }
func (a *assignVar) IsNullable() bool           { return a.value.IsNullable() }
func (a *assignVar) Resolved() bool             { return a.value.Resolved() }
func (a *assignVar) IsNonDeterministic() bool   { return true }
func (a *assignVar) Children() []sql.Expression { return []sql.Expression{a.value} }
func (a *assignVar) String() string             { return "@" + a.name + " := " + a.value.String() }
func (a *assignVar) CollationCoercibility(ctx *sql.Context) (sql.CollationID, byte) {
	return sql.GetCoercibility(ctx, a.value)
}

func (a *assignVar) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) != 1 {
		return nil, sql.ErrInvalidChildrenNumber.New(a, len(children), 1)
	}
	return &assignVar{name: a.name, value: children[0]}, nil
}

func (a *assignVar) Eval(ctx *sql.Context, row sql.Row) (any, error) {
	if a.name == "" {
		return nil, fmt.Errorf("%s: the variable's name must be a string", assignFunc)
	}
	v, err := a.value.Eval(ctx, row)
	if err != nil {
		return nil, err
	}
	typ := a.value.Type()
	if v == nil {
		typ = types.Null
	}
	if err := ctx.SetUserVariable(ctx, a.name, v, typ); err != nil {
		return nil, err
	}
	return v, nil
}

// rewriteAssignments writes each @v := expr of q as assignFunc('v',
// expr), and reports whether it found any. An assignment binds more
// loosely than any operator, so expr runs to the next comma, closing
// parenthesis or semicolon at its own level, or to a keyword that cannot
// continue an expression (WHEN, THEN, ELSE and END of an enclosing CASE,
// AS, FROM, WHERE, ...).
func rewriteAssignments(q string) (string, bool) {
	q, _, names := rewriteAssignmentsOf(q, nil)
	return q, len(names) > 0
}

// rewriteAssignmentsOf is rewriteAssignments of q, whose bytes were at
// origin in the text written (see splice), giving where the bytes of the
// rewritten text were and the names of the variables assigned.
func rewriteAssignmentsOf(q string, origin []int) (string, []int, []string) {
	var names []string
	for range 1000 { // each pass rewrites one assignment
		toks := sqlTokens(q)
		i := firstAssignment(toks)
		if i < 0 {
			return q, origin, names
		}
		end := len(q)
		depth, cases := 0, 0
	scan:
		for _, t := range toks[i+2:] {
			switch {
			case t.text == "(":
				depth++
			case t.text == ")":
				if depth == 0 {
					end = t.start
					break scan
				}
				depth--
			case depth > 0:
			case t.text == "," || t.text == ";":
				end = t.start
				break scan
			case t.word && strings.EqualFold(t.text, "CASE"):
				cases++
			case t.word && strings.EqualFold(t.text, "END") && cases > 0:
				cases--
			case t.word && cases == 0 && assignmentStops[strings.ToUpper(t.text)]:
				end = t.start
				break scan
			}
		}
		v, op := toks[i], toks[i+1]
		exprEnd := op.end + len(strings.TrimRight(q[op.end:end], " \t\r\n"))
		exprStart := exprEnd - len(strings.TrimSpace(q[op.end:exprEnd]))
		q, origin = splice(q, origin, []edit{
			{from: v.start, to: exprStart, text: assignFunc + "(" + quoteString(v.name) + ", "},
			{from: exprEnd, to: exprEnd, text: ")"},
		})
		names = append(names, v.name)
	}
	return q, origin, names
}

// declareAssigned gives each variable the statement assigns and the
// session has not set a type before the statement is bound: the engine
// types a reference to a variable when it binds the statement, and an
// unset one as NULL, whose values it sends as NULL, so SELECT @s := 'x',
// @s answered 'x' and NULL. The variables stay NULL until assigned, as
// unset ones read.
func declareAssigned(ctx *sql.Context, names []string) {
	for _, n := range names {
		if t, _, err := ctx.GetUserVariable(ctx, n); err == nil && t == nil {
			_ = ctx.SetUserVariable(ctx, n, nil, types.LongText)
		}
	}
}

// assignmentStops are the keywords that end the expression of an
// assignment outside a CASE of its own.
var assignmentStops = map[string]bool{
	"WHEN": true, "THEN": true, "ELSE": true, "END": true, "AS": true, "FROM": true, "WHERE": true,
	"GROUP": true, "HAVING": true, "ORDER": true, "LIMIT": true, "INTO": true, "UNION": true,
	"FOR": true, "ON": true, "USING": true, "JOIN": true, "INNER": true, "LEFT": true, "RIGHT": true,
	"CROSS": true, "WINDOW": true, "ASC": true, "DESC": true, "SEPARATOR": true,
}

// firstAssignment is the index of the variable of the first @v := in
// toks outside a SET statement (whose SET @v := 1 the parser reads), or
// -1.
func firstAssignment(toks []sqlToken) int {
	inSet, first := false, true
	for i := 0; i+1 < len(toks); i++ {
		switch {
		case toks[i].text == ";":
			first = true
			continue
		case first:
			inSet = toks[i].word && strings.EqualFold(toks[i].text, "SET")
			first = false
		}
		if !inSet && toks[i].name != "" && toks[i+1].text == ":=" {
			return i
		}
	}
	return -1
}

// sqlToken is one token of a statement: its text and where it is.
type sqlToken struct {
	text       string
	start, end int
	word       bool   // an unquoted identifier, keyword or number
	name       string // for a user variable (@v, @'v', @`v`), its name
}

// sqlTokens splits q into tokens, leaving out spaces and comments and
// keeping quoted strings and identifiers whole.
func sqlTokens(q string) []sqlToken {
	var out []sqlToken
	for i := 0; i < len(q); {
		c := q[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '#' || (c == '-' && strings.HasPrefix(q[i:], "-- ")):
			for i < len(q) && q[i] != '\n' {
				i++
			}
		case c == '/' && strings.HasPrefix(q[i:], "/*") && !strings.HasPrefix(q[i:], "/*!"):
			if j := strings.Index(q[i+2:], "*/"); j >= 0 {
				i += j + 4
			} else {
				i = len(q)
			}
		case c == '\'' || c == '"' || c == '`':
			j := quotedEnd(q, i)
			out = append(out, sqlToken{text: q[i:j], start: i, end: j})
			i = j
		case c == '@':
			j := i + 1
			var name string
			if j < len(q) && (q[j] == '\'' || q[j] == '"' || q[j] == '`') {
				k := quotedEnd(q, j)
				name = unquote(q[j:k])
				j = k
			} else {
				for j < len(q) && isWordByte(q[j]) {
					j++
				}
				name = q[i+1 : j]
			}
			if strings.HasPrefix(q[i:], "@@") {
				name = "" // a system variable
			}
			out = append(out, sqlToken{text: q[i:j], start: i, end: j, name: name})
			i = j
		case c == ':' && strings.HasPrefix(q[i:], ":="):
			out = append(out, sqlToken{text: ":=", start: i, end: i + 2})
			i += 2
		case isWordByte(c):
			j := i
			for j < len(q) && isWordByte(q[j]) {
				j++
			}
			out = append(out, sqlToken{text: q[i:j], start: i, end: j, word: true})
			i = j
		default:
			out = append(out, sqlToken{text: q[i : i+1], start: i, end: i + 1})
			i++
		}
	}
	return out
}

// quotedEnd is the index just past the quoted string or identifier that
// starts at q[i]; a doubled quote or, in a string, a backslash escapes.
func quotedEnd(q string, i int) int {
	quote := q[i]
	for j := i + 1; j < len(q); j++ {
		switch {
		case q[j] == '\\' && quote != '`':
			j++
		case q[j] == quote && j+1 < len(q) && q[j+1] == quote:
			j++
		case q[j] == quote:
			return j + 1
		}
	}
	return len(q)
}

// unquote is a quoted name without its quotes, doubled quotes undone.
func unquote(s string) string {
	if len(s) < 2 {
		return s
	}
	quote := s[:1]
	return strings.ReplaceAll(s[1:len(s)-1], quote+quote, quote)
}

// isWordByte is a byte of an identifier, keyword or number; a qualified
// name (db.t) and a decimal (2.5) are one word.
func isWordByte(c byte) bool {
	return c == '.' || isIdentifierByte(c)
}
