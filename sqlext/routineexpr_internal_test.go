package sqlext

import (
	"math"
	"testing"

	"github.com/dolthub/go-mysql-server/sql/types"
)

// TestQuickValueIsMySQLs: the expressions a procedure's loops are made of
// evaluate as MySQL evaluates them, NULLs included, and what leaves
// BIGINT's range, or is not an integer, is left to the engine.
func TestQuickValueIsMySQLs(t *testing.T) {
	f := newProcFrame(nil)
	for name, v := range map[string]any{"i": int32(7), "n": nil, "big": int64(math.MaxInt64), "small": int64(math.MinInt64), "u": uint64(math.MaxUint64), "s": "text", "flag": int8(1)} {
		f.vars[name] = &procVar{name: name, typ: types.Int64, val: v}
	}
	for _, c := range []struct {
		expr string
		want any
		ok   bool
	}{
		{"i + 1", int64(8), true},
		{"i < 10 AND flag", int64(1), true},
		{"n + 1", nil, true},
		{"i < n", nil, true},
		{"n AND 0", int64(0), true},
		{"n OR 1", int64(1), true},
		{"n OR 0", nil, true},
		{"NOT n", nil, true},
		{"NOT (i = 7)", int64(0), true},
		{"n <=> NULL", int64(1), true},
		{"i <=> n", int64(0), true},
		{"n IS NULL", int64(1), true},
		{"i IS NOT NULL", int64(1), true},
		{"-i * 3 % 4", int64(-1), true},
		{"i % 0", nil, true},
		{"(i - 10) * -2", int64(6), true},
		{"i != 7 OR TRUE", int64(1), true},
		{"big + 1", nil, false},
		{"small - 1", nil, false},
		{"-small", nil, false},
		{"big * 2", nil, false},
		{"u + 0", nil, false},
		{"s + 1", nil, false},
		{"nosuch + 1", nil, false},
		{"i / 2", nil, false},
		{"CONCAT(i, 'x')", nil, false},
	} {
		e := quickExpr(c.expr)
		var got any
		ok := e != nil
		if ok {
			got, ok = quickValue(f, e)
		}
		if ok != c.ok || (ok && got != c.want) {
			t.Errorf("%s: %v (%v), want %v (%v)", c.expr, got, ok, c.want, c.ok)
		}
	}
}
