package sqlext_test

import (
	"database/sql"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestArithmeticMatchesMySQL evaluates random +, - and * over signed,
// unsigned and double columns and literals, and checks every row against
// MySQL's rules computed here: integers exactly, unsigned when either
// operand is, doubles in IEEE arithmetic, NULL through, and error 1690
// wherever a result leaves its type's range.
func TestArithmeticMatchesMySQL(t *testing.T) {
	_, addr, db := serve(t)
	mustExecAll(t, db,
		"CREATE DATABASE ar",
		"CREATE TABLE ar.t (id INT PRIMARY KEY, i INT, u BIGINT UNSIGNED, d DOUBLE, n BIGINT)",
		`INSERT INTO ar.t VALUES
			(1, 3, 7, 2.5, NULL),
			(2, -4, 0, -1e10, 9223372036854775807),
			(3, 2147483647, 18446744073709551615, 1e300, -9223372036854775808),
			(4, 0, 1, 0, 0)`)
	c := connect(t, addr, "ar")
	c.SetMaxOpenConns(1)
	rows := []map[string]arithValue{
		{"i": ival(3), "u": uval(7), "d": fval(2.5), "n": {null: true}},
		{"i": ival(-4), "u": uval(0), "d": fval(-1e10), "n": ival(math.MaxInt64)},
		{"i": ival(2147483647), "u": uval(math.MaxUint64), "d": fval(1e300), "n": ival(math.MinInt64)},
		{"i": ival(0), "u": uval(1), "d": fval(0), "n": ival(0)},
	}
	literals := map[string]arithValue{"1": ival(1), "-7": ival(-7), "9223372036854775807": ival(math.MaxInt64),
		"18446744073709551615": uval(math.MaxUint64), "2.5e0": fval(2.5), "-3e-2": fval(-3e-2), "1e300": fval(1e300)}
	var names []string
	for k := range literals {
		names = append(names, k)
	}
	slices.Sort(names)
	names = append(names, "i", "u", "d", "n")
	rng := rand.New(rand.NewPCG(3, 5))
	type node struct {
		op   string
		l, r *node
		leaf string
	}
	var gen func(depth int) *node
	gen = func(depth int) *node {
		if depth == 0 || rng.IntN(4) == 0 {
			return &node{leaf: names[rng.IntN(len(names))]}
		}
		return &node{op: []string{"+", "-", "*"}[rng.IntN(3)], l: gen(depth - 1), r: gen(depth - 1)}
	}
	var text func(n *node) string
	text = func(n *node) string {
		if n.op == "" {
			return n.leaf
		}
		return "(" + text(n.l) + " " + n.op + " " + text(n.r) + ")"
	}
	var eval func(n *node, row map[string]arithValue) arithValue
	eval = func(n *node, row map[string]arithValue) arithValue {
		if n.op == "" {
			if v, ok := literals[n.leaf]; ok {
				return v
			}
			return row[n.leaf]
		}
		l := eval(n.l, row)
		if l.err {
			return l
		}
		r := eval(n.r, row)
		if r.err || l.null || r.null {
			return arithValue{err: r.err, null: !r.err}
		}
		return l.apply(n.op, r)
	}
	checked := 0
	for k := 0; k < 400; k++ {
		e := gen(1 + rng.IntN(5))
		q := "SELECT " + text(e) + " FROM t ORDER BY id"
		var want []arithValue
		failing := false
		for _, row := range rows {
			v := eval(e, row)
			want = append(want, v)
			failing = failing || v.err
		}
		vals, err := columnValues(c, q)
		if failing {
			if err == nil || !strings.Contains(err.Error(), "Error 1690") {
				t.Errorf("%s: %v %v, want error 1690", q, vals, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", q, err)
			continue
		}
		for i, w := range want {
			if !w.matches(vals[i]) {
				t.Errorf("%s: row %d is %v, want %s", q, i+1, vals[i], w)
			}
		}
		checked++
	}
	if checked < 100 || checked > 350 {
		t.Fatalf("%d of 400 expressions had a value on every row: too few of one kind to test", checked)
	}
	// Bound parameters inside a chain (prepared statements rebind the
	// plan's literals).
	for _, p := range []struct {
		q    string
		args []any
		want string // "" for error 1690
	}{
		{"SELECT i + ? + d * ? FROM t WHERE id = 1", []any{int64(2), 2.0}, "10"},
		{"SELECT u - ? FROM t WHERE id = 3", []any{int64(2)}, "18446744073709551613"},
		{"SELECT i * ? FROM t WHERE id = 3", []any{int64(1) << 40}, ""}, // 2147483647 · 2^40
	} {
		vals, err := columnValues(c, p.q, p.args...)
		switch {
		case p.want == "" && (err == nil || !strings.Contains(err.Error(), "Error 1690")):
			t.Errorf("%s %v: %v %v, want error 1690", p.q, p.args, vals, err)
		case p.want != "" && (err != nil || len(vals) != 1 || vals[0].String != p.want):
			t.Errorf("%s %v: %v %v, want %s", p.q, p.args, vals, err, p.want)
		}
	}
}

// arithValue is a value under MySQL's arithmetic: an integer (signed or
// unsigned, exact), a double, NULL, or the error of a result out of range.
type arithValue struct {
	null, err, float, unsigned bool
	i                          *big.Int
	f                          float64
}

func ival(v int64) arithValue  { return arithValue{i: big.NewInt(v)} }
func uval(v uint64) arithValue { return arithValue{i: new(big.Int).SetUint64(v), unsigned: true} }
func fval(v float64) arithValue {
	return arithValue{float: true, f: v}
}

func (a arithValue) toFloat() float64 {
	if a.float {
		return a.f
	}
	f, _ := new(big.Float).SetInt(a.i).Float64()
	return f
}

func (a arithValue) apply(op string, b arithValue) arithValue {
	if a.float || b.float {
		x, y := a.toFloat(), b.toFloat()
		var v float64
		switch op {
		case "+":
			v = x + y
		case "-":
			v = x - y
		default:
			v = x * y
		}
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return arithValue{err: true}
		}
		return fval(v)
	}
	v := new(big.Int)
	switch op {
	case "+":
		v.Add(a.i, b.i)
	case "-":
		v.Sub(a.i, b.i)
	default:
		v.Mul(a.i, b.i)
	}
	unsigned := a.unsigned || b.unsigned
	lo, hi := big.NewInt(math.MinInt64), big.NewInt(math.MaxInt64)
	if unsigned {
		lo, hi = new(big.Int), new(big.Int).SetUint64(math.MaxUint64)
	}
	if v.Cmp(lo) < 0 || v.Cmp(hi) > 0 {
		return arithValue{err: true}
	}
	return arithValue{i: v, unsigned: unsigned}
}

// matches compares a value with what the server sent as text.
func (a arithValue) matches(got sql.NullString) bool {
	if a.null || !got.Valid {
		return a.null && !got.Valid
	}
	if !a.float {
		return got.String == a.i.String()
	}
	f, err := strconv.ParseFloat(got.String, 64)
	return err == nil && (f == a.f || math.Abs(f-a.f) <= 1e-15*math.Abs(a.f))
}

// columnValues returns the first column of every row of a query.
func columnValues(db *sql.DB, q string, args ...any) ([]sql.NullString, error) {
	rows, err := db.Query(q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []sql.NullString
	for rows.Next() {
		var v sql.NullString
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

func (a arithValue) String() string {
	switch {
	case a.null:
		return "NULL"
	case a.float:
		return strconv.FormatFloat(a.f, 'g', -1, 64)
	}
	return a.i.String()
}

// BenchmarkArithmeticChain sums a 100-term chain of a DOUBLE column, and
// one of an INT column, over 1,000 rows:
//
//	go test -run '^$' -bench ArithmeticChain -count 6 ./sqlext
func BenchmarkArithmeticChain(b *testing.B) {
	srv, addr := startServer(b, b.TempDir())
	defer srv.Close()
	mustExecAll(b, connect(b, addr, ""),
		"CREATE DATABASE ab",
		"CREATE TABLE ab.big (id INT PRIMARY KEY, a INT, f DOUBLE)",
		`INSERT INTO ab.big SELECT x, x, x FROM (WITH RECURSIVE s(x) AS
			(SELECT 1 UNION ALL SELECT x + 1 FROM s WHERE x < 1000) SELECT x FROM s) r`)
	for _, col := range []string{"f", "a"} {
		chain := strings.TrimSuffix(strings.Repeat(col+" + ", 100), " + ")
		b.Run(col, func(b *testing.B) {
			c := connect(b, addr, "ab")
			c.SetMaxOpenConns(1)
			for b.Loop() {
				var sum float64
				if err := c.QueryRow("SELECT SUM(" + chain + ") FROM big").Scan(&sum); err != nil {
					b.Fatal(err)
				}
				if sum != 100*500500 {
					b.Fatalf("sum %v", sum)
				}
			}
		})
	}
}
