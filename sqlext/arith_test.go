package sqlext_test

import (
	"database/sql"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestTypedArithmeticMatchesEngine evaluates random arithmetic over
// columns and literals of many types with typed arithmetic on and off,
// and requires the same values, the same column types and the same
// errors. BenchmarkArithmeticChain measures what it saves.
func TestTypedArithmeticMatchesEngine(t *testing.T) {
	_, addr, db := serve(t)
	mustExecAll(t, db,
		"CREATE DATABASE ar",
		`CREATE TABLE ar.t (id INT PRIMARY KEY, i INT, u BIGINT UNSIGNED, d DOUBLE, f FLOAT,
			m DECIMAL(10,3), dt DATE, s VARCHAR(20), n INT, b BIT(8), y YEAR)`,
		`INSERT INTO ar.t VALUES
			(1, 3, 7, 2.5, 0.25, 12.345, '2024-02-28', '4.5', NULL, b'101', 2020),
			(2, -4, 0, -1e10, 3.5, -0.001, '2000-01-01', 'x', 9, b'0', 1999),
			(3, 2147483647, 18446744073709551615, 1e-300, -2, 999999.999, '1999-12-31', '12', -3, b'11111111', 2155),
			(4, 0, 1, 0, 0, 0, NULL, NULL, 0, NULL, NULL)`)
	on, off := connect(t, addr, "ar"), connect(t, addr, "ar")
	on.SetMaxOpenConns(1)
	off.SetMaxOpenConns(1)
	mustExec(t, off, "SET sqlearn_typed_arithmetic = OFF")

	rng := rand.New(rand.NewPCG(3, 5))
	operands := []string{"i", "u", "d", "f", "m", "dt", "s", "n", "b", "y", "id",
		"1", "-7", "2.5", "0.125", "1e3", "-2.5e-3", "NULL", "'3'", "(dt + INTERVAL 1 DAY)", "(i DIV 2)", "(m / 3)", "(d % 4)"}
	ops := []string{"+", "-", "*", "+", "-", "*", "/", "DIV", "%"}
	var gen func(depth int) string
	gen = func(depth int) string {
		if depth == 0 || rng.IntN(4) == 0 {
			return operands[rng.IntN(len(operands))]
		}
		l, r := gen(depth-1), gen(depth-1)
		e := l + " " + ops[rng.IntN(len(ops))] + " " + r
		if rng.IntN(3) == 0 {
			e = "(" + e + ")"
		}
		return e
	}
	var exprs []string
	for k := 0; k < 300; k++ {
		exprs = append(exprs, gen(1+rng.IntN(6)))
	}
	// Long chains, the case the rewrite is for.
	for _, ops := range [][]string{{"+"}, {"+", "-"}, {"+", "*"}} {
		for _, cols := range [][]string{{"i"}, {"d", "i"}, {"m", "i"}, {"u"}, {"f", "2.5"}} {
			var b strings.Builder
			for k := 0; k < 60; k++ {
				if k > 0 {
					b.WriteString(" " + ops[k%len(ops)] + " ")
				}
				b.WriteString(cols[k%len(cols)])
			}
			exprs = append(exprs, b.String())
		}
	}
	same := 0
	for _, e := range exprs {
		q := "SELECT " + e + " FROM t ORDER BY id"
		gotT, gotV, gotErr := arithRun(on, q)
		wantT, wantV, wantErr := arithRun(off, q)
		if gotErr != wantErr || gotT != wantT || gotV != wantV {
			t.Errorf("%s:\n typed:  %s %s %s\n engine: %s %s %s", e, gotT, gotV, gotErr, wantT, wantV, wantErr)
			continue
		}
		same++
	}
	if same < len(exprs)/2 {
		t.Fatalf("only %d of %d expressions agreed", same, len(exprs))
	}

	// Bound parameters inside a chain (prepared statements rebind the
	// plan's literals).
	for _, args := range [][]any{{1, 2.5}, {int64(-3), "4"}, {nil, 1}} {
		q := "SELECT i + ? + d * ? + m + i FROM t ORDER BY id"
		g1, g2, g3 := arithRun(on, q, args...)
		w1, w2, w3 := arithRun(off, q, args...)
		if g1 != w1 || g2 != w2 || g3 != w3 {
			t.Errorf("%s %v:\n typed:  %s %s %s\n engine: %s %s %s", q, args, g1, g2, g3, w1, w2, w3)
		}
	}

}

// arithRun returns a query's column types, its rows as text and its error.
func arithRun(db *sql.DB, q string, args ...any) (string, string, string) {
	rows, err := db.Query(q, args...)
	if err != nil {
		return "", "", err.Error()
	}
	defer rows.Close()
	cts, _ := rows.ColumnTypes()
	var types []string
	for _, c := range cts {
		p, s, _ := c.DecimalSize()
		types = append(types, fmt.Sprintf("%s(%d,%d)", c.DatabaseTypeName(), p, s))
	}
	var out []string
	for rows.Next() {
		var v sql.NullString
		if err := rows.Scan(&v); err != nil {
			return "", "", err.Error()
		}
		out = append(out, fmt.Sprint(v))
	}
	if err := rows.Err(); err != nil {
		return "", "", err.Error()
	}
	return strings.Join(types, ","), strings.Join(out, " "), ""
}

// BenchmarkArithmeticChain sums a 100-term chain of a DOUBLE column, and
// one of an INT column, over 1,000 rows with typed arithmetic on and off:
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
	// An integer chain is evaluated exactly (intExact) whatever the
	// setting; a float chain shows what the typed links save.
	for _, col := range []string{"f", "a"} {
		chain := strings.TrimSuffix(strings.Repeat(col+" + ", 100), " + ")
		for _, mode := range []string{"ON", "OFF"} {
			b.Run(col+"/typed="+mode, func(b *testing.B) {
				c := connect(b, addr, "ab")
				c.SetMaxOpenConns(1)
				if _, err := c.Exec("SET sqlearn_typed_arithmetic = " + mode); err != nil {
					b.Fatal(err)
				}
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
}
