package sqlext

import (
	"strings"
	"unicode/utf8"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"
)

// LIKE's escape character as MySQL reads it, where the engine's LIKE
// differs:
//   - ESCAPE '' stands for '\'; under NO_BACKSLASH_ESCAPES it is refused,
//     as is an escape of more than one character, with error 1210 (the
//     engine panicked on the first, and gave 1105 for the second).
//   - Under NO_BACKSLASH_ESCAPES a LIKE without ESCAPE has no escape
//     character: 'a\b' LIKE 'a\b' is true.
//   - A pattern that ends in its escape character matches that character
//     itself: 'c\' LIKE '%\' is true. The engine refused the pattern as
//     an invalid string.
//
// Each LIKE that may meet one of these is rewritten when the statement is
// parsed (likeEscapes), under the sql_mode it is parsed with: its pattern
// becomes sqlearn_like_pattern(mode, pattern[, escape]) and its escape
// sqlearn_like_escape(mode[, escape]), which give the engine's LIKE a
// pattern and an escape it reads as MySQL does. A LIKE of a pattern
// written as a literal that does not end in a backslash, or as a
// parameter, without ESCAPE and outside NO_BACKSLASH_ESCAPES, the common
// case, is left to the engine, which reads such a pattern alike and can
// turn a prefix into a range of an index.

const (
	likePatternFunc = "sqlearn_like_pattern"
	likeEscapeFunc  = "sqlearn_like_escape"
)

// noLikeEscape is the escape character given to the engine's LIKE for
// none: its matcher never reads it from a pattern (it refuses U+FFFD as a
// broken character).
const noLikeEscape = utf8.RuneError

// likeEscapes rewrites the LIKEs of st as described above.
func likeEscapes(ctx *sql.Context, st ast.Statement) {
	nbe := noBackslashEscapes(ctx)
	mode := ast.NewIntVal([]byte("0"))
	if nbe {
		mode = ast.NewIntVal([]byte("1"))
	}
	_ = ast.Walk(func(n ast.SQLNode) (bool, error) {
		ce, ok := n.(*ast.ComparisonExpr)
		if !ok || ce.Operator != ast.LikeStr && ce.Operator != ast.NotLikeStr {
			return true, nil
		}
		if ce.Escape == nil && !nbe && !mayEndInBackslash(ce.Right) {
			return true, nil
		}
		pattern, escape := []ast.Expr{mode, ce.Right}, []ast.Expr{mode}
		if ce.Escape != nil {
			pattern, escape = append(pattern, ce.Escape), append(escape, ce.Escape)
		}
		ce.Right, ce.Escape = callOf(likePatternFunc, pattern), callOf(likeEscapeFunc, escape)
		return true, nil
	}, st)
}

// mayEndInBackslash reports whether a pattern written as e may end in a
// backslash: a string literal that does, or an expression such as a
// column. A parameter is left to the engine, which may read a prefix of
// the value bound to it as a range of an index.
func mayEndInBackslash(e ast.Expr) bool {
	switch v := e.(type) {
	case *ast.SQLVal:
		return v.Type == ast.StrVal && strings.HasSuffix(string(v.Val), `\`)
	case *ast.NullVal, ast.BoolVal:
		return false
	}
	return true
}

// callOf is the call of the function name with args.
func callOf(name string, args []ast.Expr) *ast.FuncExpr {
	f := &ast.FuncExpr{Name: ast.NewColIdent(name)}
	for _, a := range args {
		f.Exprs = append(f.Exprs, &ast.AliasedExpr{Expr: a})
	}
	return f
}

var (
	likePatternFunction = sql.FunctionN{Name: likePatternFunc, Fn: likePartOf(true)}
	likeEscapeFunction  = sql.FunctionN{Name: likeEscapeFunc, Fn: likePartOf(false)}
)

// likePart is a LIKE's pattern or its escape character, read as MySQL
// reads them; escape is the ESCAPE written, nil without one.
type likePart struct {
	pattern        sql.Expression // nil for the escape
	escape         sql.Expression
	noBackslashEsc bool // parsed under NO_BACKSLASH_ESCAPES
}

var _ sql.FunctionExpression = (*likePart)(nil)
var _ sql.CollationCoercible = (*likePart)(nil)

func likePartOf(isPattern bool) func(args ...sql.Expression) (sql.Expression, error) {
	name := likeEscapeFunc
	if isPattern {
		name = likePatternFunc
	}
	return func(args ...sql.Expression) (sql.Expression, error) {
		need := 1
		if isPattern {
			need = 2
		}
		if len(args) < need || len(args) > need+1 {
			return nil, sql.ErrInvalidArgumentNumber.New(strings.ToUpper(name), need, len(args))
		}
		mode, ok := args[0].(*expression.Literal)
		if !ok {
			return nil, sql.ErrInvalidArgument.New(name)
		}
		l := &likePart{noBackslashEsc: mode.Value() != nil && mode.Value() != int8(0) && mode.Value() != int64(0)}
		rest := args[1:]
		if isPattern {
			l.pattern, rest = rest[0], rest[1:]
		}
		if len(rest) == 1 {
			l.escape = rest[0]
		}
		return l, nil
	}
}

// escapeChar is the escape character of the LIKE, noLikeEscape for none.
func (l *likePart) escapeChar(ctx *sql.Context, row sql.Row) (rune, error) {
	if l.escape == nil {
		if l.noBackslashEsc {
			return noLikeEscape, nil
		}
		return '\\', nil
	}
	v, err := l.escape.Eval(ctx, row)
	if err != nil || v == nil {
		return '\\', err
	}
	s, err := textValue(ctx, v)
	if err != nil {
		return 0, err
	}
	switch utf8.RuneCountInString(s) {
	case 0:
		if !l.noBackslashEsc {
			return '\\', nil
		}
	case 1:
		r, _ := utf8.DecodeRuneInString(s)
		return r, nil
	}
	return 0, mysql.NewSQLError(mysql.ERWrongArguments, "HY000", "Incorrect arguments to ESCAPE")
}

func (l *likePart) Eval(ctx *sql.Context, row sql.Row) (any, error) {
	esc, err := l.escapeChar(ctx, row)
	if err != nil {
		return nil, err
	}
	if l.pattern == nil {
		return string(esc), nil
	}
	v, err := l.pattern.Eval(ctx, row)
	if err != nil || v == nil {
		return nil, err
	}
	p, err := textValue(ctx, v)
	if err != nil {
		return nil, err
	}
	if esc == noLikeEscape {
		return p, nil
	}
	return withLastEscapeMatched(p, esc), nil
}

// textValue is v, not NULL, as text.
func textValue(ctx *sql.Context, v any) (string, error) {
	v, err := sql.UnwrapAny(ctx, v)
	if err != nil {
		return "", err
	}
	if s, ok := v.(string); ok {
		return s, nil
	}
	c, _, err := types.LongText.Convert(ctx, v)
	if err != nil {
		return "", err
	}
	s, _ := c.(string)
	return s, nil
}

// withLastEscapeMatched is pattern p, where a last escape character that
// escapes nothing is escaped itself, so that it matches itself.
func withLastEscapeMatched(p string, esc rune) string {
	escaped := false
	for _, r := range p {
		escaped = !escaped && r == esc
	}
	if escaped {
		return p + string(esc)
	}
	return p
}

func (l *likePart) FunctionName() string {
	if l.pattern != nil {
		return likePatternFunc
	}
	return likeEscapeFunc
}

func (l *likePart) Description() string {
	return "a LIKE's pattern or escape, read as MySQL reads them"
}

func (l *likePart) Type() sql.Type {
	if l.pattern != nil && types.IsText(l.pattern.Type()) {
		return l.pattern.Type()
	}
	return types.LongText
}

func (l *likePart) CollationCoercibility(ctx *sql.Context) (sql.CollationID, byte) {
	if l.pattern != nil {
		return sql.GetCoercibility(ctx, l.pattern)
	}
	return sql.Collation_Default, 4 // as a literal's
}

func (l *likePart) IsNullable() bool { return true }

func (l *likePart) Resolved() bool {
	for _, c := range l.Children() {
		if !c.Resolved() {
			return false
		}
	}
	return true
}

// String is the pattern or escape as written, which is how EXPLAIN shows
// the LIKE.
func (l *likePart) String() string {
	switch {
	case l.pattern != nil:
		return l.pattern.String()
	case l.escape != nil:
		return l.escape.String()
	case l.noBackslashEsc:
		return "''"
	}
	return `'\\'`
}

func (l *likePart) Children() []sql.Expression {
	var out []sql.Expression
	if l.pattern != nil {
		out = append(out, l.pattern)
	}
	if l.escape != nil {
		out = append(out, l.escape)
	}
	return out
}

func (l *likePart) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) != len(l.Children()) {
		return nil, sql.ErrInvalidChildrenNumber.New(l, len(children), len(l.Children()))
	}
	out := *l
	if out.pattern != nil {
		out.pattern, children = children[0], children[1:]
	}
	if out.escape != nil {
		out.escape = children[0]
	}
	return &out, nil
}
