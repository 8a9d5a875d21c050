package sqlext

import (
	"fmt"
	"sync"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/expression/function"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
)

// RAND(N) in MySQL starts a sequence from the seed N: a constant seed is
// taken once for the statement and each call gives the next value, so
// SELECT ... ORDER BY RAND(42) shuffles the rows, and shuffles them the
// same way every time: the reproducible sample or train/test split of
// many SQL scripts. The engine answered every call with the first value
// of its own generator for N, so ORDER BY RAND(42) kept the rows in
// their order and the values were not MySQL's. A seed that is not
// constant (a column) seeds each call anew, which then gives the first
// value of that seed's sequence, as in MySQL.
//
// seededRand computes MySQL's sequence (its my_rnd generator: two
// 30-bit state words, seeded from the seed's low 32 bits), so the values,
// and the order of rows sorted by them, are MySQL's and MariaDB's.
// RAND() without a seed stays the engine's.
var randFunction = sql.FunctionN{Name: "rand", Fn: func(args ...sql.Expression) (sql.Expression, error) {
	if len(args) != 1 {
		return function.NewRand(args...)
	}
	return newSeededRand(args[0]), nil
}}

// randMax is the modulus of MySQL's generator.
const randMax = 0x3FFFFFFF

// mysqlRand is the state of MySQL's generator.
type mysqlRand struct{ seed1, seed2 uint64 }

func newMySQLRand(seed int64) mysqlRand {
	s := uint64(uint32(seed))
	return mysqlRand{seed1: uint64(uint32(s*0x10001+55555555)) % randMax, seed2: uint64(uint32(s*0x10000001)) % randMax}
}

func (r *mysqlRand) next() float64 {
	r.seed1 = (r.seed1*3 + r.seed2) % randMax
	r.seed2 = (r.seed1 + r.seed2 + 33) % randMax
	return float64(r.seed1) / float64(randMax)
}

// seededRand is RAND(N).
type seededRand struct {
	seed sql.Expression
	// constant says the seed reads nothing of the row, so the sequence
	// runs across the statement's calls.
	constant bool

	mu    sync.Mutex
	pid   uint64
	state *mysqlRand
}

var (
	_ sql.FunctionExpression         = (*seededRand)(nil)
	_ sql.NonDeterministicExpression = (*seededRand)(nil)
	_ sql.CollationCoercible         = (*seededRand)(nil)
	_ statementScoped                = (*seededRand)(nil)
)

func newSeededRand(seed sql.Expression) *seededRand {
	return &seededRand{seed: seed, constant: readsNoRow(seed)}
}

// readsNoRow says whether e's value is the same for every row of a
// statement: it reads no column, subquery, variable or parameter, and
// calls nothing whose value changes by the call.
func readsNoRow(e sql.Expression) bool {
	return !transform.InspectExpr(e, func(e sql.Expression) bool {
		switch x := e.(type) {
		case *expression.GetField, *plan.Subquery, *expression.BindVar, *expression.ProcedureParam,
			*expression.UserVar, *expression.SystemVar:
			return true
		case sql.NonDeterministicExpression:
			return x.IsNonDeterministic()
		}
		return false
	})
}

func (r *seededRand) FunctionName() string { return "rand" }
func (r *seededRand) Description() string {
	return "returns a random floating-point value, from the sequence of the seed given"
}
func (r *seededRand) Resolved() bool             { return r.seed.Resolved() }
func (r *seededRand) IsNullable() bool           { return false }
func (r *seededRand) Type() sql.Type             { return types.Float64 }
func (r *seededRand) String() string             { return fmt.Sprintf("rand(%s)", r.seed) }
func (r *seededRand) Children() []sql.Expression { return []sql.Expression{r.seed} }

// IsNonDeterministic: each call of a constant seed gives the next value,
// so the value may not be computed once while planning.
func (r *seededRand) IsNonDeterministic() bool { return r.constant }

func (r *seededRand) CollationCoercibility(*sql.Context) (sql.CollationID, byte) {
	return sql.Collation_binary, 5
}

func (r *seededRand) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) != 1 {
		return nil, sql.ErrInvalidChildrenNumber.New(r, len(children), 1)
	}
	return newSeededRand(children[0]), nil
}

// resetStatement starts the sequence again for another run of a kept
// plan.
func (r *seededRand) resetStatement() {
	r.mu.Lock()
	r.state = nil
	r.mu.Unlock()
}

func (r *seededRand) Eval(ctx *sql.Context, row sql.Row) (any, error) {
	if !r.constant {
		seed, err := r.seedOf(ctx, row)
		if err != nil {
			return nil, err
		}
		g := newMySQLRand(seed)
		return g.next(), nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.state == nil || r.pid != ctx.Pid() {
		seed, err := r.seedOf(ctx, row)
		if err != nil {
			return nil, err
		}
		g := newMySQLRand(seed)
		r.state, r.pid = &g, ctx.Pid()
	}
	return r.state.next(), nil
}

// seedOf is the seed as MySQL reads it: an integer, rounded, NULL as 0.
func (r *seededRand) seedOf(ctx *sql.Context, row sql.Row) (int64, error) {
	v, err := r.seed.Eval(ctx, row)
	if err != nil || v == nil {
		return 0, err
	}
	switch x := v.(type) {
	case int8, int16, int32, int64, uint8, uint16, uint32, uint64, int, uint:
		return int64Of(x)
	}
	f, err := float64Of(v)
	if err != nil {
		return 0, nil
	}
	return roundHalfAway(f), nil
}

// roundHalfAway rounds f to the nearest integer, halves away from zero,
// clamped to int64.
func roundHalfAway(f float64) int64 {
	switch {
	case f >= 9.2e18:
		return 1<<63 - 1
	case f <= -9.2e18:
		return -1 << 63
	case f < 0:
		return -int64(-f + 0.5)
	}
	return int64(f + 0.5)
}
