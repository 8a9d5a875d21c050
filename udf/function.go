package udf

import (
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"
)

// spec describes one SQL function: its name as users write it, its arity,
// result type, and the code that computes it from non-NULL argument values.
type spec struct {
	name     string // upper case, for messages
	min, max int
	ret      sql.Type
	desc     string
	// volatile functions read tables or otherwise must not be folded into
	// constants at plan time.
	volatile bool
	// nullArgs lets eval see NULL arguments instead of the function
	// returning NULL for them.
	nullArgs bool
	eval     func(c *call) (any, error)
}

// call is one evaluation: the session context and the argument values.
type call struct {
	ctx  *sql.Context
	fn   string
	args []any
}

func (s *spec) function() sql.Function {
	return sql.FunctionN{Name: strings.ToLower(s.name), Fn: func(args ...sql.Expression) (sql.Expression, error) {
		if len(args) < s.min || len(args) > s.max {
			return nil, argCountError(s.name, len(args))
		}
		return &expr{s: s, args: args}, nil
	}}
}

// expr is a call of a spec in a query plan.
type expr struct {
	s    *spec
	args []sql.Expression
}

var (
	_ sql.FunctionExpression         = (*expr)(nil)
	_ sql.NonDeterministicExpression = (*expr)(nil)
	_ sql.CollationCoercible         = (*expr)(nil)
)

func (e *expr) Resolved() bool {
	for _, a := range e.args {
		if !a.Resolved() {
			return false
		}
	}
	return true
}

func (e *expr) String() string {
	parts := make([]string, len(e.args))
	for i, a := range e.args {
		parts[i] = a.String()
	}
	return e.s.name + "(" + strings.Join(parts, ", ") + ")"
}

func (e *expr) Type() sql.Type             { return e.s.ret }
func (e *expr) IsNullable() bool           { return true }
func (e *expr) Children() []sql.Expression { return e.args }
func (e *expr) FunctionName() string       { return strings.ToLower(e.s.name) }
func (e *expr) Description() string        { return e.s.desc }
func (e *expr) IsNonDeterministic() bool   { return e.s.volatile }
func (e *expr) CollationCoercibility(*sql.Context) (sql.CollationID, byte) {
	if types.IsText(e.s.ret) {
		return sql.Collation_Default, 4
	}
	return sql.Collation_binary, 4
}

func (e *expr) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) < e.s.min || len(children) > e.s.max {
		return nil, sql.ErrInvalidChildrenNumber.New(e, len(children), len(e.args))
	}
	return &expr{s: e.s, args: children}, nil
}

// Eval evaluates the arguments, returns NULL if any is NULL (as MySQL's
// functions do), and otherwise runs the function. A panic below is a bug,
// but it must cost the client one failed statement, not the server.
func (e *expr) Eval(ctx *sql.Context, row sql.Row) (out any, err error) {
	defer func() {
		if r := recover(); r != nil {
			ctx.GetLogger().Errorf("%s panicked: %v\n%s", e.s.name, r, debug.Stack())
			out, err = nil, mysql.NewSQLError(mysql.ERUnknownError, "HY000", "%s: internal error: %v", e.s.name, r)
		}
	}()
	vals := make([]any, len(e.args))
	for i, a := range e.args {
		v, err := a.Eval(ctx, row)
		if err != nil {
			return nil, err
		}
		if v == nil && !e.s.nullArgs {
			return nil, nil
		}
		vals[i] = v
	}
	out, err = e.s.eval(&call{ctx: ctx, fn: e.s.name, args: vals})
	if err != nil {
		return nil, sqlError(e.s.name, err)
	}
	return out, nil
}

// argErr describes a bad argument by its 1-based position.
func (c *call) argErr(i int, format string, a ...any) error {
	return fmt.Errorf("%w: argument %d %s", ErrArgument, i+1, fmt.Sprintf(format, a...))
}
