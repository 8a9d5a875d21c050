package udf_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sqlearn/sqlearn/gpu"
	"github.com/sqlearn/sqlearn/matrix"
	"github.com/sqlearn/sqlearn/udf"
)

// laRow is one row of LA_RUN's result.
type laRow struct {
	kind        string
	name, value sql.NullString
	matrix      []byte
}

// laRun calls LA_RUN and returns its rows.
func laRun(t testing.TB, s *server, script string) []laRow {
	t.Helper()
	rows, err := s.db.Query("CALL LA_RUN(?)", script)
	if err != nil {
		t.Fatalf("LA_RUN: %v\n%s", err, script)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	if strings.Join(cols, ",") != "kind,name,value,matrix" {
		t.Fatalf("LA_RUN columns %v", cols)
	}
	var out []laRow
	for rows.Next() {
		var r laRow
		if err := rows.Scan(&r.kind, &r.name, &r.value, &r.matrix); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("LA_RUN: %v", err)
	}
	return out
}

func script(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", "la", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// setSwitch sets @@la_redundancy_elimination on the test's connection.
func setSwitch(t testing.TB, s *server, on bool) {
	t.Helper()
	v := "OFF"
	if on {
		v = "ON"
	}
	s.exec(t, "SET @@la_redundancy_elimination = "+v)
}

// relClose reports whether got and want agree within tol relative to the
// largest magnitude in want.
func relClose(t testing.TB, what string, got, want *matrix.Matrix, tol float64) {
	t.Helper()
	g, err := got.ToRows()
	if err != nil {
		t.Fatal(err)
	}
	w, err := want.ToRows()
	if err != nil {
		t.Fatal(err)
	}
	if got.Rows() != want.Rows() || got.Cols() != want.Cols() {
		t.Fatalf("%s: shape %dx%d, want %dx%d", what, got.Rows(), got.Cols(), want.Rows(), want.Cols())
	}
	scale, diff := 0.0, 0.0
	for i := range w {
		for j := range w[i] {
			scale = math.Max(scale, math.Abs(w[i][j]))
			diff = math.Max(diff, math.Abs(g[i][j]-w[i][j]))
		}
	}
	if diff > tol*scale || math.IsNaN(diff) {
		t.Errorf("%s: max difference %g against max magnitude %g", what, diff, scale)
	}
}

func decode(t testing.TB, b []byte) *matrix.Matrix {
	t.Helper()
	m, err := matrix.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestLARunScripts runs the least-squares scripts with redundancy
// elimination on and off: same weights, same printed loss.
func TestLARunScripts(t *testing.T) {
	s := startServer(t, "")
	s.exec(t, "SET @X = MAT_RAND(400, 12, 11), @y = MAT_RAND(400, 1, 12), @iters = 15")
	for _, name := range []string{"gd.la", "dfp.la", "bfgs.la"} {
		t.Run(name, func(t *testing.T) {
			src := script(t, name)
			var results [2][]laRow
			for k, on := range []bool{true, false} {
				setSwitch(t, s, on)
				results[k] = laRun(t, s, src)
			}
			on, off := results[0], results[1]
			if len(on) != 2 || len(off) != 2 || on[0].kind != "print" || on[1].kind != "result" {
				t.Fatalf("rows on %+v, off %+v", on, off)
			}
			relClose(t, name, decode(t, on[1].matrix), decode(t, off[1].matrix), 1e-9)
			var lossOn, lossOff float64
			fmt.Sscanf(strings.TrimPrefix(on[0].value.String, "loss "), "%g", &lossOn)
			fmt.Sscanf(strings.TrimPrefix(off[0].value.String, "loss "), "%g", &lossOff)
			if lossOn <= 0 || math.Abs(lossOn-lossOff) > 1e-9*lossOff {
				t.Errorf("loss on %q, off %q", on[0].value.String, off[0].value.String)
			}
			// The JSON value is the same matrix as the blob.
			var js [][]float64
			if err := json.Unmarshal([]byte(on[1].value.String), &js); err != nil || len(js) != 12 {
				t.Errorf("result JSON %q: %v", on[1].value.String, err)
			}
		})
	}
	setSwitch(t, s, true)
}

// TestLARunQueryAndSave reads a table through query(), writes one through
// save() and prints, all in one result set.
func TestLARunQueryAndSave(t *testing.T) {
	s := startServer(t, "")
	s.exec(t, "CALL MAT_SAVE(MAT_FROM_JSON('[[1,2],[3,4],[5,7]]'), 'xt')")
	s.exec(t, "SET @b = MAT_FROM_JSON('[[1],[1]]')")
	rows := laRun(t, s, `X = query("SELECT c1, c2 FROM xt ORDER BY i")
print("rows", nrow(X))
save(X %*% @b, "xb")
t(X) %*% X`)
	if len(rows) != 3 || rows[0].kind != "print" || rows[0].value.String != "rows 3" ||
		rows[1].kind != "save" || rows[1].name.String != "xb" || rows[1].value.String != "3 rows (dense, 3x1)" || rows[2].kind != "result" {
		t.Fatalf("rows %+v", rows)
	}
	if got := rows[2].value.String; got != "[[35,49],[49,69]]" {
		t.Errorf("result %s", got)
	}
	if got := one[float64](t, s, "SELECT SUM(c1) FROM xb"); got != 3+7+12 {
		t.Errorf("saved sum %v", got)
	}
	// A script without a final expression returns only its prints.
	if rows := laRun(t, s, `a = 1`); len(rows) != 0 {
		t.Errorf("rows %+v", rows)
	}
}

func TestLAErrors(t *testing.T) {
	s := startServer(t, "")
	wantError(t, s, "CALL LA_RUN('x = 1\ny = (2 + ')", 1064, "LA_RUN", "line 2, column")
	wantError(t, s, "CALL LA_RUN('x = 1\n  y = x ++ ')", 1064, "line 2, column")
	wantError(t, s, "CALL LA_EXPLAIN('while (')", 1064, "LA_EXPLAIN", "line 1, column")
	wantError(t, s, "CALL LA_RUN('x = y + 1')", 1210, "LA_RUN", "line 1", "undefined variable")
	wantError(t, s, "CALL LA_RUN('x = @nothing')", 1210, "@nothing")
	wantError(t, s, `CALL LA_RUN('x = query("SELECT a FROM missing")')`, 1146, "LA_RUN", "missing")
	wantError(t, s, "CALL LA_EXPLAIN('x = 1', 'SIDEWAYS')", 1210, "ANALYZE")
	s.exec(t, "SET @A = MAT_FROM_JSON('[[1,2]]')")
	wantError(t, s, "CALL LA_RUN('@A %*% @A')", 1210, "LA_RUN", "shape")
}

// TestLAKillQuery stops an endless loop from a second connection.
func TestLAKillQuery(t *testing.T) {
	s := startServer(t, "")
	ctx := context.Background()
	conn, err := s.db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var id int64
	if err := conn.QueryRowContext(ctx, "SELECT CONNECTION_ID()").Scan(&id); err != nil {
		t.Fatal(err)
	}
	other, err := sql.Open("mysql", s.dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	done := make(chan error, 1)
	go func() {
		_, err := conn.ExecContext(ctx, "CALL LA_RUN('i = 0\nwhile (TRUE) {\n  i = i + 1\n}')")
		done <- err
	}()
	// Wait until the loop is running.
	deadline := time.Now().Add(10 * time.Second)
	for {
		var n int
		if err := other.QueryRow("SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE ID = ? AND INFO LIKE 'CALL LA_RUN%'", id).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("LA_RUN never showed in the process list")
		}
		time.Sleep(10 * time.Millisecond)
	}
	killed := time.Now()
	if _, err := other.Exec(fmt.Sprintf("KILL QUERY %d", id)); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "interrupted") {
			t.Errorf("LA_RUN ended with %v, want an interruption", err)
		}
		if d := time.Since(killed); d > time.Second {
			t.Errorf("LA_RUN took %v to stop", d)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("LA_RUN still running 5s after KILL QUERY")
	}
	// The connection is still usable.
	var one int
	if err := conn.QueryRowContext(ctx, "SELECT 1").Scan(&one); err != nil || one != 1 {
		t.Errorf("after kill: %v", err)
	}
}

// explainRows runs an LA_EXPLAIN call and returns each row's section,
// operator, detail and device.
func explainRows(t testing.TB, s *server, q string, args ...any) [][4]string {
	t.Helper()
	rows, err := s.db.Query(q, args...)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	if strings.Join(cols, ",") != "step,unit,section,operator,detail,device,est_ms,measured_ms,calls" {
		t.Fatalf("columns %v", cols)
	}
	var out [][4]string
	for rows.Next() {
		var step, unit, calls int64
		var section, op, detail string
		var device sql.NullString
		var est, measured sql.NullFloat64
		if err := rows.Scan(&step, &unit, &section, &op, &detail, &device, &est, &measured, &calls); err != nil {
			t.Fatal(err)
		}
		out = append(out, [4]string{section, op, detail, device.String})
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func hoisted(rows [][4]string) []string {
	var out []string
	for _, r := range rows {
		if r[0] == "hoisted" {
			out = append(out, r[2])
		}
	}
	return out
}

// TestLAExplainDFP: the DFP loop computes t(X) %*% X once, before the
// loop, unless the session turns elimination off.
func TestLAExplainDFP(t *testing.T) {
	s := startServer(t, "")
	s.exec(t, "SET @X = MAT_RAND(2000, 47, 1), @y = MAT_RAND(2000, 1, 2), @iters = 50")
	src := script(t, "dfp.la")
	h := hoisted(explainRows(t, s, "CALL LA_EXPLAIN(?)", src))
	if len(h) == 0 || !strings.Contains(strings.Join(h, "\n"), "t(X) %*% X") {
		t.Errorf("hoisted rows %q, want t(X) %%*%% X", h)
	}
	analyzed := explainRows(t, s, "CALL LA_EXPLAIN(?, 'ANALYZE')", src)
	if len(hoisted(analyzed)) == 0 {
		t.Error("ANALYZE lost the hoisted rows")
	}
	if rows := explainRows(t, s, "CALL LA_EXPLAIN_ANALYZE('1 + 1')"); len(rows) == 0 {
		t.Error("LA_EXPLAIN_ANALYZE gave no rows")
	}
	setSwitch(t, s, false)
	if got := one[int](t, s, "SELECT @@la_redundancy_elimination"); got != 0 {
		t.Errorf("@@la_redundancy_elimination = %d", got)
	}
	if h := hoisted(explainRows(t, s, "CALL LA_EXPLAIN(?)", src)); len(h) != 0 {
		t.Errorf("elimination off, yet hoisted %q", h)
	}
}

// countingDevice counts the GEMMs the matrix package runs.
type countingDevice struct {
	gpu.Device
	gemms atomic.Int64
}

func (d *countingDevice) Gemm(transA, transB bool, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	d.gemms.Add(1)
	d.Device.Gemm(transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// selectMatrices runs q and decodes every column of its one row.
func selectMatrices(t testing.TB, s *server, q string) []*matrix.Matrix {
	t.Helper()
	rows, err := s.db.Query(q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	vals := make([][]byte, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	if !rows.Next() {
		t.Fatalf("%s: no row (%v)", q, rows.Err())
	}
	if err := rows.Scan(ptrs...); err != nil {
		t.Fatal(err)
	}
	out := make([]*matrix.Matrix, len(vals))
	for i, v := range vals {
		out[i] = decode(t, v)
	}
	return out
}

// TestLASelectRule: t(X) X is shared between two columns; results equal
// with the rule on and off, and the rule runs fewer multiplications.
func TestLASelectRule(t *testing.T) {
	s := startServer(t, "")
	s.exec(t, "SET @X = MAT_RAND(150, 150, 1), @a = MAT_RAND(150, 150, 2), @b = MAT_RAND(150, 150, 3)")
	q := "SELECT MAT_MUL(MAT_MUL(MAT_T(@X), @X), @a) AS p, MAT_MUL(MAT_T(@X), MAT_MUL(@X, @b)) AS q"
	dev := &countingDevice{Device: matrix.Device()}
	prev := matrix.SetDevice(dev)
	defer matrix.SetDevice(prev)
	var got [2][]*matrix.Matrix
	var gemms [2]int64
	for k, on := range []bool{true, false} {
		setSwitch(t, s, on)
		selectMatrices(t, s, q) // warm: the first ON run calibrates the cost model
		before, stats := dev.gemms.Load(), udf.LASelectStats()
		got[k] = selectMatrices(t, s, q)
		gemms[k] = dev.gemms.Load() - before
		if after := udf.LASelectStats(); on && after.Programs != stats.Programs+1 {
			t.Errorf("rule on: %d programs ran, want 1", after.Programs-stats.Programs)
		}
	}
	for i := range got[0] {
		relClose(t, fmt.Sprintf("column %d", i+1), got[0][i], got[1][i], 1e-9)
	}
	if gemms[0] >= gemms[1] {
		t.Errorf("GEMMs with the rule %d, without %d", gemms[0], gemms[1])
	}
	t.Logf("GEMMs: rule on %d, off %d", gemms[0], gemms[1])
}

// TestLASelectRuleRows: per-row programs over a table agree with the SQL
// as written, NULLs and bad shapes included, and repeated calls of other
// functions are computed once per row.
func TestLASelectRuleRows(t *testing.T) {
	s := startServer(t, "")
	s.exec(t, "CREATE TABLE m (id INT PRIMARY KEY, x LONGBLOB, k DOUBLE)")
	s.exec(t, "INSERT INTO m VALUES (1, MAT_RAND(6, 4, 1), 2), (2, MAT_RAND(5, 3, 2), 0.5), (3, NULL, 1)")
	q := "SELECT id, MAT_TO_JSON(MAT_MUL(MAT_T(x), MAT_SCALE(x, k))), MAT_TO_JSON(MAT_MUL(MAT_MUL(MAT_T(x), x), MAT_T(MAT_MUL(MAT_T(x), x)))) FROM m ORDER BY id"
	read := func(q string) [][3]any {
		rows, err := s.db.Query(q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		defer rows.Close()
		var out [][3]any
		for rows.Next() {
			var id int
			var a, b sql.NullString
			if err := rows.Scan(&id, &a, &b); err != nil {
				t.Fatal(err)
			}
			out = append(out, [3]any{id, a, b})
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		return out
	}
	before := udf.LASelectStats()
	on := read(q)
	mid := udf.LASelectStats()
	setSwitch(t, s, false)
	off := read(q)
	if mid.Programs-before.Programs != 2 || mid.Fallbacks-before.Fallbacks != 2 {
		t.Errorf("stats %+v then %+v: want 2 programs and 2 fallbacks (the NULL row)", before, mid)
	}
	if len(on) != 3 || len(off) != 3 {
		t.Fatalf("rows on %v off %v", on, off)
	}
	for i := range on {
		for c := 1; c < 3; c++ {
			a, b := on[i][c].(sql.NullString), off[i][c].(sql.NullString)
			if a.Valid != b.Valid {
				t.Errorf("row %d col %d: on %v off %v", i+1, c, a, b)
				continue
			}
			if !a.Valid {
				continue
			}
			var ma, mb [][]float64
			json.Unmarshal([]byte(a.String), &ma)
			json.Unmarshal([]byte(b.String), &mb)
			compareMatrix(t, fmt.Sprintf("row %d col %d", i+1, c), ma, mb, 1e-12)
		}
	}
	// A shape the SQL rejects is rejected the same way with the rule on.
	setSwitch(t, s, true)
	wantError(t, s, "SELECT MAT_MUL(MAT_MUL(x, x), MAT_MUL(x, x)) FROM m WHERE id = 1", 1210, "MAT_MUL")
	// Other repeated calls: computed once per row.
	s.exec(t, "SET @S = MAT_FROM_JSON('[[4,1],[1,3]]')")
	inv := func() (string, float64) {
		var js string
		var tr float64
		if err := s.db.QueryRow("SELECT MAT_TO_JSON(MAT_INV(@S)), MAT_TRACE(MAT_INV(@S))").Scan(&js, &tr); err != nil {
			t.Fatal(err)
		}
		return js, tr
	}
	before = udf.LASelectStats()
	js, tr := inv()
	if after := udf.LASelectStats(); after.Reused == before.Reused {
		t.Errorf("MAT_INV(@S) not shared: %+v", after)
	}
	setSwitch(t, s, false)
	if js2, tr2 := inv(); js != js2 || tr != tr2 {
		t.Errorf("on %q %v, off %q %v", js, tr, js2, tr2)
	}
}

// TestLAHybridLoop runs a loop over a constant sparse matrix through SQL in
// each @@la_iteration_mode: the results agree, the product is routed to the
// hybrid runtime as the mode says, and the iterations are visible in
// LA_EXPLAIN ANALYZE and sys.la_iteration_trace.
func TestLAHybridLoop(t *testing.T) {
	s := startServer(t, "")
	// About four nonzeros per column below 0.2: a contraction, so the loop
	// converges.
	s.exec(t, "SET @M = MAT_SCALE(MAT_RAND(400, 400, 3, 0.01), 0.2)")
	src := `
x = matrix(1, nrow(@M), 1)
change = 1
k = 0
while (change > 1e-12 && k < 200) {
  xn = @M %*% x + 1
  change = sum(abs(xn - x))
  x = xn
  k = k + 1
}
x`
	var results [][]byte
	for _, mode := range []string{"full", "incremental", "hybrid"} {
		s.exec(t, "SET @@la_iteration_mode = '"+mode+"'")
		rows := laRun(t, s, src)
		if len(rows) != 1 || rows[0].kind != "result" {
			t.Fatalf("%s: rows %+v", mode, rows)
		}
		results = append(results, rows[0].matrix)
		n := one[int64](t, s, "SELECT COUNT(*) FROM sys.la_iteration_trace WHERE run_id = (SELECT MAX(run_id) FROM sys.la_iteration_trace) AND routine LIKE 'LA_RUN @M %*% x [400x400 sparse%'")
		if n < 5 {
			t.Errorf("%s: %d traced iterations", mode, n)
		}
		inc := one[int64](t, s, "SELECT COUNT(*) FROM sys.la_iteration_trace WHERE run_id = (SELECT MAX(run_id) FROM sys.la_iteration_trace) AND mode = 'incremental'")
		switch {
		case mode == "full" && inc != 0:
			t.Errorf("full: %d incremental iterations", inc)
		case mode == "incremental" && inc != n-2: // the first two are full
			t.Errorf("incremental: %d of %d iterations incremental", inc, n)
		}
	}
	want := decode(t, results[0])
	for i, b := range results[1:] {
		relClose(t, []string{"incremental", "hybrid"}[i], decode(t, b), want, 1e-9)
	}
	iterations := 0
	for _, r := range explainRows(t, s, "CALL LA_EXPLAIN(?, 'ANALYZE')", src) {
		if r[0] == "iteration" {
			iterations++
		}
	}
	if iterations < 5 {
		t.Errorf("LA_EXPLAIN ANALYZE shows %d iterations", iterations)
	}
	flagged := 0
	for _, r := range explainRows(t, s, "CALL LA_EXPLAIN(?)", src) {
		if r[0] == "iterative" && strings.Contains(r[2], "@M %*% x") {
			flagged++
		}
	}
	if flagged != 1 {
		t.Errorf("LA_EXPLAIN flags %d routed products, want 1", flagged)
	}
}

// TestLASelectRulePlansOnce: rows of one shape share their program's plan;
// only the first row is planned.
func TestLASelectRulePlansOnce(t *testing.T) {
	s := startServer(t, "")
	s.exec(t, "CREATE TABLE p (id INT PRIMARY KEY, x LONGBLOB)")
	for i := 1; i <= 20; i++ {
		s.exec(t, fmt.Sprintf("INSERT INTO p VALUES (%d, MAT_RAND(8, 3, %d))", i, i))
	}
	before := udf.LASelectStats()
	rows, err := s.db.Query("SELECT MAT_SUM(MAT_MUL(MAT_T(x), x)), MAT_SUM(MAT_MUL(MAT_MUL(MAT_T(x), x), MAT_MUL(MAT_T(x), x))) FROM p")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for rows.Next() {
		n++
	}
	rows.Close()
	after := udf.LASelectStats()
	programs, planned := after.Programs-before.Programs, after.Planned-before.Planned
	if n != 20 || programs != 20 {
		t.Fatalf("%d rows, %d programs", n, programs)
	}
	if planned < 1 || planned > 2 {
		t.Errorf("20 rows of one shape planned %d units, want those of one row", planned)
	}
}
