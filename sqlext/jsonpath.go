package sqlext

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"
	"github.com/shopspring/decimal"
)

// MySQL's JSON path language, for the functions that read a document by
// path: JSON_EXTRACT (and -> and ->>), JSON_LENGTH, JSON_KEYS,
// JSON_CONTAINS and JSON_CONTAINS_PATH. The engine's path reader knew
// neither [last] nor ranges ([0 to 1]) nor ** (1105 or NULL), read
// $[*][0] of [[1,2],[3,4]] as [1,2], gave [] for a member missing from
// an array ('$.y' of [1,2]: NULL in MySQL) and JSON_LENGTH('[]') as
// NULL; its JSON_CONTAINS refused any integer of a document (1105).
//
// A path is $ and legs: .name or ."quoted name" (a member), .* (every
// member), [n], [last], [last-n] or [m to n] (elements, an array of one
// standing for any other value), [*] (every element), and ** (the value
// and everything in it, which a leg must follow).

// jsonPath is a parsed path.
type jsonPath struct {
	legs []pathLeg
	// wild says it may match more than one value (*, ** or a range).
	wild bool
}

type legKind uint8

const (
	memberLeg legKind = iota
	anyMemberLeg
	elementsLeg // [n], [last-n] or [m to n]
	anyElementLeg
	anyDepthLeg
)

type pathLeg struct {
	kind     legKind
	name     string       // of a memberLeg
	from, to elementIndex // of an elementsLeg; the same for a single index
}

// elementIndex is n, or last-n counted from an array's end.
type elementIndex struct {
	n    int
	last bool
}

// at is the index in an array of length n.
func (e elementIndex) at(n int) int {
	if e.last {
		return n - 1 - e.n
	}
	return e.n
}

// errJSONPath is MySQL's error for a path that does not parse, at
// character position pos (from 1).
func errJSONPath(pos int) error {
	return mysql.NewSQLError(3143, "42000", "Invalid JSON path expression. The error is around character position %d.", pos)
}

// errWildPath is MySQL's error for a path with *, ** or a range where
// one value is needed.
func errWildPath() error {
	return mysql.NewSQLError(3149, "42000", "In this situation, path expressions may not contain the * and ** tokens or an array range.")
}

// parseJSONPath reads a path written as MySQL writes one.
func parseJSONPath(text string) (jsonPath, error) {
	p := pathReader{s: text}
	p.space()
	if !p.take("$") {
		return jsonPath{}, errJSONPath(p.i + 1)
	}
	var out jsonPath
	for p.space(); p.i < len(p.s); p.space() {
		leg, err := p.leg()
		if err != nil {
			return jsonPath{}, err
		}
		if leg.kind != memberLeg && leg.kind != elementsLeg || leg.from != leg.to {
			out.wild = true
		}
		out.legs = append(out.legs, leg)
	}
	if n := len(out.legs); n > 0 && out.legs[n-1].kind == anyDepthLeg {
		return jsonPath{}, errJSONPath(len(text))
	}
	return out, nil
}

type pathReader struct {
	s string
	i int
}

func (p *pathReader) space() {
	for p.i < len(p.s) && strings.IndexByte(" \t\n\r", p.s[p.i]) >= 0 {
		p.i++
	}
}

// take consumes word when the text goes on with it.
func (p *pathReader) take(word string) bool {
	if strings.HasPrefix(p.s[p.i:], word) {
		p.i += len(word)
		return true
	}
	return false
}

func (p *pathReader) leg() (pathLeg, error) {
	switch {
	case p.take("**"):
		if p.i < len(p.s) && p.s[p.i] == '*' {
			return pathLeg{}, errJSONPath(p.i + 1)
		}
		return pathLeg{kind: anyDepthLeg}, nil
	case p.take("."):
		p.space()
		switch {
		case p.take("*"):
			return pathLeg{kind: anyMemberLeg}, nil
		case p.i < len(p.s) && p.s[p.i] == '"':
			name, err := p.quoted()
			return pathLeg{kind: memberLeg, name: name}, err
		}
		start := p.i
		for p.i < len(p.s) {
			r, size := utf8.DecodeRuneInString(p.s[p.i:])
			if !(r == '_' || r == '$' || unicode.IsLetter(r) || p.i > start && (unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r) || unicode.Is(unicode.Pc, r))) {
				break
			}
			p.i += size
		}
		if p.i == start {
			return pathLeg{}, errJSONPath(p.i + 1)
		}
		return pathLeg{kind: memberLeg, name: p.s[start:p.i]}, nil
	case p.take("["):
		p.space()
		if p.take("*") {
			p.space()
			if !p.take("]") {
				return pathLeg{}, errJSONPath(p.i + 1)
			}
			return pathLeg{kind: anyElementLeg}, nil
		}
		from, err := p.index()
		if err != nil {
			return pathLeg{}, err
		}
		to := from
		p.space()
		if p.take("to") {
			p.space()
			if to, err = p.index(); err != nil {
				return pathLeg{}, err
			}
			if from.last == to.last && (!from.last && from.n > to.n || from.last && from.n < to.n) {
				return pathLeg{}, errJSONPath(p.i)
			}
			p.space()
		}
		if !p.take("]") {
			return pathLeg{}, errJSONPath(p.i + 1)
		}
		return pathLeg{kind: elementsLeg, from: from, to: to}, nil
	}
	return pathLeg{}, errJSONPath(p.i + 1)
}

// index reads n, last or last-n.
func (p *pathReader) index() (elementIndex, error) {
	var e elementIndex
	if p.take("last") {
		e.last = true
		p.space()
		if !p.take("-") {
			return e, nil
		}
		p.space()
	}
	start := p.i
	for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
		p.i++
	}
	n, err := strconv.Atoi(p.s[start:p.i])
	if err != nil {
		return e, errJSONPath(p.i + 1)
	}
	e.n = n
	return e, nil
}

// quoted reads a member name written as a JSON string.
func (p *pathReader) quoted() (string, error) {
	start := p.i
	for p.i++; p.i < len(p.s); p.i++ {
		switch p.s[p.i] {
		case '\\':
			p.i++
		case '"':
			p.i++
			name, err := strconv.Unquote(p.s[start:p.i])
			if err != nil {
				doc, jerr := parseJSON([]byte(p.s[start:p.i]))
				name, ok := doc.(string)
				if jerr != nil || !ok {
					return "", errJSONPath(start + 1)
				}
				return name, nil
			}
			return name, nil
		}
	}
	return "", errJSONPath(len(p.s))
}

// find appends to out the values of v the path leads to, in document
// order.
func (jp jsonPath) find(v any, out []any) []any { return seek(v, jp.legs, out) }

func seek(v any, legs []pathLeg, out []any) []any {
	if len(legs) == 0 {
		return append(out, v)
	}
	leg, rest := legs[0], legs[1:]
	switch leg.kind {
	case memberLeg:
		if m, ok := v.(map[string]any); ok {
			if e, ok := m[leg.name]; ok {
				out = seek(e, rest, out)
			}
		}
	case anyMemberLeg:
		if m, ok := v.(map[string]any); ok {
			for _, k := range jsonKeyOrder(m) {
				out = seek(m[k], rest, out)
			}
		}
	case anyElementLeg:
		if a, ok := v.([]any); ok {
			for _, e := range a {
				out = seek(e, rest, out)
			}
		}
	case elementsLeg:
		a, ok := v.([]any)
		if !ok {
			a = []any{v} // any other value reads as an array of one
		}
		lo, hi := leg.from.at(len(a)), min(leg.to.at(len(a)), len(a)-1)
		if leg.from != leg.to {
			lo = max(lo, 0)
		}
		for i := lo; i >= 0 && i <= hi; i++ {
			out = seek(a[i], rest, out)
		}
	case anyDepthLeg:
		out = seek(v, rest, out)
		switch x := v.(type) {
		case map[string]any:
			for _, k := range jsonKeyOrder(x) {
				out = seek(x[k], legs, out)
			}
		case []any:
			for _, e := range x {
				out = seek(e, legs, out)
			}
		}
	}
	return out
}

// jsonDocArg is argument pos (from 1) of the function name as a
// document's value: a document, or text read as one (parseJSON).
func jsonDocArg(name string, pos int, v any) (any, error) {
	switch x := v.(type) {
	case sql.JSONWrapper:
		return x.ToInterface()
	case string:
		doc, err := parseJSON([]byte(x))
		if err != nil {
			return nil, sql.ErrInvalidJSONText.New(pos, name, x)
		}
		return doc, nil
	}
	return nil, mysql.NewSQLError(3146, "22032", "Invalid data type for JSON data in argument %d to function %s; a JSON string or JSON type is required.", pos, name)
}

// jsonPathArg is a path argument.
func jsonPathArg(v any, wildAllowed bool) (jsonPath, error) {
	s, ok := v.(string)
	if !ok {
		s = fmt.Sprint(v)
		if b, isBytes := v.([]byte); isBytes {
			s = string(b)
		}
	}
	p, err := parseJSONPath(s)
	if err == nil && p.wild && !wildAllowed {
		err = errWildPath()
	}
	return p, err
}

// jsonExtract is JSON_EXTRACT(doc, path, ...): the one value a path
// without * ** or a range leads to, else an array of every value the
// paths lead to, in the order of the paths; NULL when they lead to none.
func jsonExtract(_ *sql.Context, v []any) (any, error) {
	doc, err := jsonDocArg("json_extract", 1, v[0])
	if err != nil {
		return nil, err
	}
	var found []any
	wrap := len(v) > 2
	for _, a := range v[1:] {
		p, err := jsonPathArg(a, true)
		if err != nil {
			return nil, err
		}
		wrap = wrap || p.wild
		found = p.find(doc, found)
	}
	switch {
	case len(found) == 0:
		return nil, nil
	case !wrap:
		return types.JSONDocument{Val: found[0]}, nil
	}
	return types.JSONDocument{Val: found}, nil
}

// jsonAt is the value of doc at path (an argument of the function name),
// which must not be wild; ok is false when there is none.
func jsonAt(name string, docArg, pathArg any) (value any, ok bool, err error) {
	doc, err := jsonDocArg(name, 1, docArg)
	if err != nil {
		return nil, false, err
	}
	p, err := jsonPathArg(pathArg, false)
	if err != nil {
		return nil, false, err
	}
	found := p.find(doc, nil)
	if len(found) == 0 {
		return nil, false, nil
	}
	return found[0], true, nil
}

// jsonLength is JSON_LENGTH(doc[, path]): an array's elements, an
// object's members, 1 for any other value.
func jsonLength(_ *sql.Context, v []any) (any, error) {
	path := any("$")
	if len(v) > 1 {
		path = v[1]
	}
	at, ok, err := jsonAt("json_length", v[0], path)
	if err != nil || !ok {
		return nil, err
	}
	switch x := at.(type) {
	case []any:
		return int64(len(x)), nil
	case map[string]any:
		return int64(len(x)), nil
	}
	return int64(1), nil
}

// jsonKeys is JSON_KEYS(doc[, path]): an object's member names, as an
// array in MySQL's order; NULL for another value.
func jsonKeys(_ *sql.Context, v []any) (any, error) {
	path := any("$")
	if len(v) > 1 {
		path = v[1]
	}
	at, _, err := jsonAt("json_keys", v[0], path)
	m, isObject := at.(map[string]any)
	if err != nil || !isObject {
		return nil, err
	}
	keys := make([]any, 0, len(m))
	for _, k := range jsonKeyOrder(m) {
		keys = append(keys, k)
	}
	return types.JSONDocument{Val: keys}, nil
}

// jsonContainsFunc is JSON_CONTAINS(target, candidate[, path]).
func jsonContainsFunc(_ *sql.Context, v []any) (any, error) {
	path := any("$")
	if len(v) > 2 {
		path = v[2]
	}
	candidate, err := jsonDocArg("json_contains", 2, v[1])
	if err != nil {
		return nil, err
	}
	target, ok, err := jsonAt("json_contains", v[0], path)
	if err != nil || !ok {
		return nil, err
	}
	return boolInt(jsonContains(target, candidate)), nil
}

// jsonContains is MySQL's containment: a scalar contains an equal one
// (numbers of any kind compared as numbers); an array contains an array
// whose every element some element of it contains, and a value some
// element contains; an object contains an object whose every member it
// has, with a value that contains the candidate's.
func jsonContains(target, candidate any) bool {
	switch t := target.(type) {
	case []any:
		if c, ok := candidate.([]any); ok {
			for _, ce := range c {
				if !jsonContains(t, ce) {
					return false
				}
			}
			return true
		}
		for _, te := range t {
			if jsonContains(te, candidate) {
				return true
			}
		}
		return false
	case map[string]any:
		c, ok := candidate.(map[string]any)
		if !ok {
			return false
		}
		for k, cv := range c {
			tv, ok := t[k]
			if !ok || !jsonContains(tv, cv) {
				return false
			}
		}
		return true
	}
	if tn, ok := jsonNumberOf(target); ok {
		cn, ok := jsonNumberOf(candidate)
		return ok && tn.Equal(cn)
	}
	switch candidate.(type) {
	case []any, map[string]any:
		return false
	}
	return target == candidate
}

// boolInt is 1 for true, 0 for false: MySQL's answer of a test.
func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// jsonNumberOf is a document's number as a DECIMAL, which holds every
// kind exactly; ok is false for a value that is no number.
func jsonNumberOf(v any) (decimal.Decimal, bool) {
	switch x := v.(type) {
	case float64:
		return decimal.NewFromFloat(x), true
	case float32:
		return decimal.NewFromFloat(float64(x)), true
	case decimal.Decimal:
		return x, true
	}
	if _, ok := wideOf(v); !ok {
		return decimal.Decimal{}, false
	}
	d, err := decimalOf(nil, v) // sumavg.go
	return d, err == nil
}

// jsonContainsPath is JSON_CONTAINS_PATH(doc, 'one' or 'all', path,
// ...): whether one (or every) path leads to a value.
func jsonContainsPath(_ *sql.Context, v []any) (any, error) {
	doc, err := jsonDocArg("json_contains_path", 1, v[0])
	if err != nil {
		return nil, err
	}
	mode, _ := v[1].(string)
	all := strings.EqualFold(mode, "all")
	if !all && !strings.EqualFold(mode, "one") {
		return nil, mysql.NewSQLError(3154, "42000", "The oneOrAll argument to json_contains_path may take these values: 'one' or 'all'.")
	}
	for _, a := range v[2:] {
		p, err := jsonPathArg(a, true)
		if err != nil {
			return nil, err
		}
		if found := len(p.find(doc, nil)) > 0; found != all {
			return boolInt(found), nil
		}
	}
	return boolInt(all), nil
}

// jsonValueOf is JSON_VALUE(doc, path [RETURNING typ]): the scalar at
// path, its text (a string unquoted) converted to typ; NULL when there is
// none, for JSON null, an array or an object, and for text typ cannot
// hold (MySQL's NULL ON EMPTY and NULL ON ERROR).
func jsonValueOf(typ sql.Type) func(*sql.Context, []any) (any, error) {
	return func(ctx *sql.Context, v []any) (any, error) {
		at, ok, err := jsonAt("json_value", v[0], v[1])
		if err != nil || !ok || at == nil {
			return nil, err
		}
		var text string
		switch x := at.(type) {
		case string:
			text = x
		case []any, map[string]any:
			return nil, nil
		default:
			b, ok := appendJSON(nil, x)
			if !ok {
				return nil, nil
			}
			text = string(b)
		}
		out, _, err := typ.Convert(ctx, text)
		if err != nil {
			return nil, nil
		}
		return out, nil
	}
}

// jsonPathChecked is a path argument of a function that changes a
// document at one place (JSON_SET, JSON_INSERT, JSON_REPLACE, JSON_REMOVE,
// JSON_ARRAY_APPEND, JSON_ARRAY_INSERT), which the engine reads itself:
// a path that does not parse is MySQL's 3143, one with *, ** or a range
// 3149, and $ alone where a value is removed 3153, where the engine
// answered 1105.
type jsonPathChecked struct {
	sql.Expression
	removes bool
}

func (j *jsonPathChecked) Eval(ctx *sql.Context, row sql.Row) (any, error) {
	v, err := j.Expression.Eval(ctx, row)
	s, ok := v.(string)
	if err != nil || !ok {
		return v, err
	}
	p, err := jsonPathArg(s, false)
	if err == nil && j.removes && len(p.legs) == 0 {
		err = mysql.NewSQLError(3153, "42000", "The path expression '$' is not allowed in this context.")
	}
	return v, err
}

func (j *jsonPathChecked) String() string { return j.Expression.String() }

func (j *jsonPathChecked) Children() []sql.Expression { return []sql.Expression{j.Expression} }

func (j *jsonPathChecked) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	return withOneChild(j, children, func(c sql.Expression) sql.Expression { return &jsonPathChecked{Expression: c, removes: j.removes} })
}

// jsonPathsChecked is e, one of jsonChangers, with its path arguments
// given as jsonPathChecked.
func jsonPathsChecked(e sql.Expression, name string) (sql.Expression, transform.TreeIdentity, error) {
	removes := name == "json_remove"
	return replaceChildren(e, func(i int, c sql.Expression) sql.Expression {
		if _, done := c.(*jsonPathChecked); done || i == 0 || !removes && i%2 == 0 {
			return nil
		}
		return &jsonPathChecked{Expression: c, removes: removes}
	})
}

// jsonChangers are the functions that change a document at the paths
// their odd arguments give (every argument after the first for
// JSON_REMOVE).
var jsonChangers = map[string]bool{
	"json_set": true, "json_insert": true, "json_replace": true, "json_remove": true,
	"json_array_append": true, "json_array_insert": true,
}
