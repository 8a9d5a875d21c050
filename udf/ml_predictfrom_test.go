package udf_test

import (
	"database/sql"
	"fmt"
	"strings"
	"testing"

	"github.com/sqlearn/sqlearn/udf"
)

// loadScores makes t.scores: rows in sealed batches (more than a
// partition's tail holds), some deleted, and recent rows still in the
// tails; its key is AUTO_INCREMENT when auto is set.
func loadScores(t *testing.T, s *server, auto bool) {
	t.Helper()
	key := "id BIGINT PRIMARY KEY"
	if auto {
		key += " AUTO_INCREMENT"
	}
	s.exec(t, "CREATE TABLE scores ("+key+", a DOUBLE, b DOUBLE, grp VARCHAR(8), y INT)")
	insert := func(from, to int) {
		var b strings.Builder
		b.WriteString("INSERT INTO scores VALUES ")
		for i := from; i < to; i++ {
			if i > from {
				b.WriteString(",")
			}
			a, bb := float64(i%37)/7, float64(i%11)-5
			y := 0
			if a+bb/3 > 2 {
				y = 1
			}
			fmt.Fprintf(&b, "(%d, %g, %g, 'g%d', %d)", i+1, a, bb, i%3, y)
		}
		s.exec(t, b.String())
	}
	for from := 0; from < 80000; from += 20000 {
		insert(from, from+20000)
	}
	s.exec(t, "DELETE FROM scores WHERE id % 13 = 0")
	insert(80000, 80050)
}

// ML_PREDICT_TABLE's output holds every input row as it is, with the
// prediction ML_PREDICT_ROW gives for it, whether the output copies the
// input by key (an integer key) or by value (an AUTO_INCREMENT key), and
// again after a restart has replayed the log.
func TestPredictTableCopiesEveryInputRow(t *testing.T) {
	for _, auto := range []bool{false, true} {
		t.Run(fmt.Sprintf("auto_increment=%v", auto), func(t *testing.T) {
			dir := t.TempDir()
			s, stop := startAt(t, dir)
			loadScores(t, s, auto)
			s.exec(t, "CALL sys.ML_TRAIN('t.scores', 'y', JSON_OBJECT('task', 'classification', 'algorithm', 'LogisticRegression', 'exclude_column_list', JSON_ARRAY('id')), @m)")
			s.exec(t, "CALL sys.ML_PREDICT_TABLE('t.scores', @m, 't.scored', NULL)")
			model := one[string](t, s, "SELECT @m")
			check := func(s *server) {
				t.Helper()
				n := one[int64](t, s, "SELECT COUNT(*) FROM scores")
				if n < 70000 {
					t.Fatalf("the input holds %d rows", n)
				}
				same := one[int64](t, s, "SELECT COUNT(*) FROM scores i JOIN scored o ON o.id = i.id AND o.a = i.a AND o.b = i.b AND o.grp = i.grp AND o.y = i.y")
				if got := one[int64](t, s, "SELECT COUNT(*) FROM scored"); got != n || same != n {
					t.Fatalf("the output holds %d rows, %d of them equal to an input row; the input holds %d", got, same, n)
				}
				agree := one[int64](t, s, "SELECT COUNT(*) FROM scored WHERE id % 97 = 1 AND JSON_EXTRACT(ML_PREDICT_ROW(JSON_OBJECT('a', a, 'b', b, 'grp', grp), ?), '$.Prediction') = Prediction AND JSON_EXTRACT(ml_results, '$.predictions.class') = Prediction", model)
				sampled := one[int64](t, s, "SELECT COUNT(*) FROM scored WHERE id % 97 = 1")
				if sampled < 700 || agree != sampled {
					t.Fatalf("%d of %d sampled rows carry ML_PREDICT_ROW's prediction", agree, sampled)
				}
			}
			check(s)
			stop()
			s, _ = startAt(t, dir)
			check(s)
		})
	}
}

// A write that reaches the input between the read and the copy fails the
// call with the retryable 1213, and no output table is left.
func TestPredictTableRefusesAnInputWrittenMeanwhile(t *testing.T) {
	s, _ := startAt(t, t.TempDir())
	loadScores(t, s, false)
	s.exec(t, "CALL sys.ML_TRAIN('t.scores', 'y', JSON_OBJECT('task', 'classification', 'algorithm', 'LogisticRegression', 'exclude_column_list', JSON_ARRAY('id')), @m)")
	other, err := sql.Open("mysql", s.dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	udf.AfterPredictScan(t, func() {
		if _, err := other.Exec("UPDATE scores SET a = a + 1 WHERE id = 2"); err != nil {
			t.Errorf("the concurrent write: %v", err)
		}
	})
	_, err = s.db.Exec("CALL sys.ML_PREDICT_TABLE('t.scores', @m, 't.scored', NULL)")
	if err == nil || !strings.Contains(err.Error(), "Error 1213") || !strings.Contains(err.Error(), "written while ML_PREDICT_TABLE read it") {
		t.Fatalf("got %v, want error 1213 naming the write", err)
	}
	if n := one[int64](t, s, "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = 't' AND table_name = 'scored'"); n != 0 {
		t.Fatal("the failed call left its output table")
	}
}
