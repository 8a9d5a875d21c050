package udf_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestMLKillQuery stops a long boosted-tree training with KILL QUERY from
// another connection: the CALL must end within a second, leave no catalog
// row, and show as killed in sys.ML_JOBS, while SHOW PROCESSLIST shows the
// CALL as it runs.
func TestMLKillQuery(t *testing.T) {
	s, _ := startAt(t, t.TempDir())
	s.db.SetMaxOpenConns(4)
	ctx := context.Background()
	setup, err := s.db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer setup.Close()
	mustExec := func(q string) {
		if _, err := setup.ExecContext(ctx, q); err != nil {
			t.Fatalf("%.80s: %v", q, err)
		}
	}
	mustExec("CREATE TABLE big (id INT PRIMARY KEY, a DOUBLE, b DOUBLE, c DOUBLE, y DOUBLE)")
	for chunk := 0; chunk < 10; chunk++ {
		var b strings.Builder
		b.WriteString("INSERT INTO big VALUES ")
		for i := 0; i < 2000; i++ {
			n := chunk*2000 + i
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, "(%d, %d, %d, %d, %d)", n, n%97, n%89, n%83, (n%97)*(n%89)%101)
		}
		mustExec(b.String())
	}

	trainer, err := s.db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer trainer.Close()
	var connID int64
	if err := trainer.QueryRowContext(ctx, "SELECT CONNECTION_ID()").Scan(&connID); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	var ended time.Time
	go func() {
		_, err := trainer.ExecContext(ctx, `CALL sys.ML_TRAIN('t.big', 'y', JSON_OBJECT('task', 'regression',
			'algorithm', 'GradientBoosting', 'n_estimators', 100000, 'max_depth', 6), @m)`)
		ended = time.Now()
		done <- err
	}()

	// Wait until boosting is under way and visible.
	deadline := time.Now().Add(30 * time.Second)
	var iter int64
	for iter == 0 {
		if time.Now().After(deadline) {
			t.Fatal("training never reported an iteration")
		}
		time.Sleep(20 * time.Millisecond)
		_ = setup.QueryRowContext(ctx, "SELECT iteration FROM sys.ML_JOBS WHERE state = 'running' AND phase = 'training'").Scan(&iter)
	}
	var info string
	if err := setup.QueryRowContext(ctx, "SELECT info FROM information_schema.processlist WHERE id = ?", connID).Scan(&info); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(info, "ML_TRAIN") {
		t.Errorf("processlist info %q", info)
	}
	var progress, left float64
	var rows int64
	var device string
	if err := setup.QueryRowContext(ctx, "SELECT progress, estimated_seconds_left, rows_processed, device FROM sys.ML_JOBS WHERE state = 'running'").
		Scan(&progress, &left, &rows, &device); err != nil {
		t.Fatal(err)
	}
	if progress <= 0 || progress >= 1 || left <= 0 || rows < 20000 || device != "cpu" {
		t.Errorf("running job: progress %v, left %v, rows %d, device %s", progress, left, rows, device)
	}
	if n := one[int64](t, s, "SELECT COUNT(*) FROM sys.ML_TRAINING_HISTORY WHERE loss IS NOT NULL"); n == 0 {
		t.Error("no loss history while training")
	}

	killed := time.Now()
	mustExec(fmt.Sprintf("KILL QUERY %d", connID))
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("the killed CALL succeeded")
		}
		if d := ended.Sub(killed); d > time.Second {
			t.Errorf("training stopped %v after KILL QUERY", d)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("training still running 10 s after KILL QUERY")
	}
	if n := one[int64](t, s, "SELECT COUNT(*) FROM sys.ML_JOBS WHERE state = 'killed'"); n != 1 {
		t.Errorf("%d killed jobs", n)
	}
	var catalogs int64
	_ = setup.QueryRowContext(ctx, "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = 'ML_SCHEMA_root'").Scan(&catalogs)
	if catalogs != 0 {
		if n := one[int64](t, s, "SELECT COUNT(*) FROM ML_SCHEMA_root.MODEL_CATALOG"); n != 0 {
			t.Errorf("%d catalog rows after the kill", n)
		}
	}
}
