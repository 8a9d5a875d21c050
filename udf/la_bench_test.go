package udf_test

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// laBenchTables writes lsx (rows x 47, 60% nonzeros) and lsy (rows x 1);
// rows from SQLEARN_LA_ROWS, default 200,000.
func laBenchTables(b *testing.B, s *server) {
	rows := 200000
	if v := os.Getenv("SQLEARN_LA_ROWS"); v != "" {
		var err error
		if rows, err = strconv.Atoi(v); err != nil {
			b.Fatal(err)
		}
	}
	start := time.Now()
	s.exec(b, fmt.Sprintf("CALL MAT_SAVE(MAT_RAND(%d, 47, 11, 0.6), 'lsx')", rows))
	s.exec(b, fmt.Sprintf("CALL MAT_SAVE(MAT_RAND(%d, 1, 12), 'lsy')", rows))
	b.Logf("tables of %d rows written in %v", rows, time.Since(start))
}

// timed runs f for each of the benchmark's iterations (-benchtime 3x for
// three) and reports the median, which a shared machine's noise moves less
// than the mean.
func timed(b *testing.B, f func()) {
	var runs []float64
	for b.Loop() {
		start := time.Now()
		f()
		runs = append(runs, time.Since(start).Seconds())
	}
	slices.Sort(runs)
	b.ReportMetric(runs[len(runs)/2], "median-s")
	b.Logf("runs (s): %v", runs)
}

// BenchmarkLARunDFP runs dfp.la (50 iterations) through CALL LA_RUN, its
// inputs read by query() from the tables, with elimination on and off.
func BenchmarkLARunDFP(b *testing.B) {
	s := startServer(b, "")
	laBenchTables(b, s)
	cols := make([]string, 47)
	for j := range cols {
		cols[j] = fmt.Sprintf("c%d", j+1)
	}
	src := script(b, "dfp.la")
	src = strings.Replace(src, "X = @X", `X = query("SELECT `+strings.Join(cols, ", ")+` FROM lsx ORDER BY i")`, 1)
	src = strings.Replace(src, "y = @y", `y = query("SELECT c1 FROM lsy ORDER BY i")`, 1)
	src = strings.Replace(src, "@iters", "50", 1)
	for _, on := range []bool{true, false} {
		b.Run(map[bool]string{true: "on", false: "off"}[on], func(b *testing.B) {
			setSwitch(b, s, on)
			timed(b, func() {
				if rows := laRun(b, s, src); len(rows) != 2 {
					b.Fatalf("rows %+v", rows)
				}
			})
		})
	}
}

// BenchmarkLASelectRule times the README example of the SELECT rule on
// 2000 x 2000 inputs; MAT_SUM keeps the 32 MB results off the wire.
func BenchmarkLASelectRule(b *testing.B) {
	s := startServer(b, "")
	s.exec(b, "SET @X = MAT_RAND(2000, 2000, 1), @a = MAT_RAND(2000, 2000, 2), @b = MAT_RAND(2000, 2000, 3)")
	q := "SELECT MAT_SUM(MAT_MUL(MAT_MUL(MAT_T(@X), @X), @a)), MAT_SUM(MAT_MUL(MAT_T(@X), MAT_MUL(@X, @b)))"
	for _, on := range []bool{true, false} {
		b.Run(map[bool]string{true: "on", false: "off"}[on], func(b *testing.B) {
			setSwitch(b, s, on)
			timed(b, func() {
				var p, r float64
				if err := s.db.QueryRow(q).Scan(&p, &r); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}
