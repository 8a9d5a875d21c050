package udf_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/go-sql-driver/mysql"

	"github.com/sqlearn/sqlearn/sqlext"
	"github.com/sqlearn/sqlearn/udf"
)

// startAt runs a server on dataDir (which may hold an earlier server's
// data) and returns it with a stop function for restart tests.
func startAt(t testing.TB, dataDir string) (*server, func()) {
	t.Helper()
	cfg := sqlext.DefaultConfig()
	cfg.Addr = "127.0.0.1:0"
	cfg.DataDir = dataDir
	cfg.Extensions = udf.Extensions
	cfg.Logger = nil
	srv, err := sqlext.Open(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve() }()
	dsn := fmt.Sprintf("root@tcp(%s)/", srv.Addr())
	db, err := sql.Open("mysql", dsn)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("CREATE DATABASE IF NOT EXISTS t"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if db, err = sql.Open("mysql", dsn+"t"); err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	stopped := false
	stop := func() {
		if stopped {
			return
		}
		stopped = true
		db.Close()
		srv.Close()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
	}
	t.Cleanup(stop)
	return &server{srv: srv, db: db, dsn: dsn + "t"}, stop
}

// fruit is a small two-feature table whose label follows x and colour.
func loadFruit(t testing.TB, s *server) {
	t.Helper()
	s.exec(t, "CREATE TABLE fruit (id INT PRIMARY KEY, x DOUBLE, colour VARCHAR(10), weight DECIMAL(6,2), picked DATE, label VARCHAR(10))")
	var b strings.Builder
	b.WriteString("INSERT INTO fruit VALUES ")
	for i := 0; i < 200; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		x := float64(i%20) / 2
		colour := []string{"red", "green", "yellow"}[i%3]
		label := "apple"
		if x > 5 || colour == "yellow" {
			label = "banana"
		}
		fmt.Fprintf(&b, "(%d, %g, '%s', %d.5, '2024-01-01', '%s')", i, x, colour, 100+i%7, label)
	}
	s.exec(t, b.String())
}

func jsonOf(t testing.TB, s string) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("%v: %s", err, s)
	}
	return v
}

func TestMLTrainPredictRoundTrip(t *testing.T) {
	s, _ := startAt(t, t.TempDir())
	loadFruit(t, s)

	var handle, task, algo, metrics string
	var trainRows, validRows int64
	var secs float64
	err := s.db.QueryRow(`CALL sys.ML_TRAIN('t.fruit', 'label', JSON_OBJECT('task', 'classification',
		'algorithm', 'LogisticRegression', 'exclude_column_list', JSON_ARRAY('id'), 'validation_fraction', 0.25, 'seed', 7), @model)`).
		Scan(&handle, &task, &algo, &trainRows, &validRows, &secs, &metrics)
	if err != nil {
		t.Fatal(err)
	}
	if got := one[string](t, s, "SELECT @model"); got != handle || !strings.HasPrefix(handle, "t.fruit_root_") {
		t.Fatalf("@model = %q, result handle %q", got, handle)
	}
	if task != "classification" || algo != "LogisticRegression" || trainRows != 150 || validRows != 50 {
		t.Errorf("result: %s %s %d %d", task, algo, trainRows, validRows)
	}
	m := jsonOf(t, metrics)
	acc := m["validation"].(map[string]any)["accuracy"].(float64)
	if acc < 0.8 {
		t.Errorf("validation accuracy %v: %s", acc, metrics)
	}

	// The catalog row, HeatWave's columns, with the DATE column left out.
	var owner, target, train, cols, meta string
	var size int64
	err = s.db.QueryRow("SELECT model_owner, target_column_name, train_table_name, model_object_size, column_names, model_metadata FROM ML_SCHEMA_root.MODEL_CATALOG WHERE model_handle = @model").
		Scan(&owner, &target, &train, &size, &cols, &meta)
	if err != nil {
		t.Fatal(err)
	}
	if owner != "root" || target != "label" || train != "t.fruit" || size <= 0 {
		t.Errorf("catalog: %s %s %s %d", owner, target, train, size)
	}
	for _, want := range []string{`"x"`, `"colour"`, `"weight"`} {
		if !strings.Contains(cols, want) {
			t.Errorf("column_names %s lacks %s", cols, want)
		}
	}
	ign, _ := jsonOf(t, meta)["ignored_columns"].([]any)
	if strings.Contains(cols, "picked") || strings.Contains(cols, `"id"`) || len(ign) != 1 || ign[0] != "picked" {
		t.Errorf("column_names %s / metadata %s", cols, meta)
	}

	// Prediction binds by name: order and case of keys do not matter,
	// extra keys are kept but ignored.
	for _, q := range []string{
		"SELECT sys.ML_PREDICT_ROW(JSON_OBJECT('x', 8, 'colour', 'red', 'weight', 101.5), @model, NULL)",
		"SELECT ML_PREDICT_ROW(JSON_OBJECT('Weight', 101.5, 'extra', 'z', 'COLOUR', 'red', 'x', 8), @model)",
	} {
		out := jsonOf(t, one[string](t, s, q))
		if out["Prediction"] != "banana" {
			t.Errorf("%s: %v", q, out)
		}
		res := out["ml_results"].(map[string]any)
		pr := res["probabilities"].(map[string]any)
		if p := pr["banana"].(float64) + pr["apple"].(float64); math.Abs(p-1) > 1e-9 {
			t.Errorf("probabilities %v", pr)
		}
		if res["predictions"].(map[string]any)["class"] != "banana" {
			t.Errorf("ml_results %v", res)
		}
	}

	// Load and unload: after unloading, the next use reads the catalog.
	s.exec(t, "CALL sys.ML_MODEL_UNLOAD(@model)")
	if n := one[int64](t, s, "SELECT COUNT(*) FROM sys.ml_models WHERE model_handle = @model AND loaded = 0"); n != 1 {
		t.Errorf("after unload: %d", n)
	}
	s.exec(t, "CALL sys.ML_MODEL_LOAD(@model, NULL)")
	if n := one[int64](t, s, "SELECT COUNT(*) FROM sys.ml_models WHERE model_handle = @model AND loaded = 1"); n != 1 {
		t.Errorf("after load: %d", n)
	}

	var metric string
	var score float64
	if err := s.db.QueryRow("CALL sys.ML_SCORE('t.fruit', 'label', @model, 'accuracy', @score, NULL)").Scan(&metric, &score); err != nil {
		t.Fatal(err)
	}
	if got := one[float64](t, s, "SELECT @score"); got != score || score < 0.8 {
		t.Errorf("score %v, @score %v", score, got)
	}

	var outName string
	var written int64
	var ps, ws float64
	if err := s.db.QueryRow("CALL sys.ML_PREDICT_TABLE('t.fruit', @model, 't.fruit_pred', NULL)").Scan(&outName, &written, &ps, &ws); err != nil {
		t.Fatal(err)
	}
	if written != 200 {
		t.Errorf("wrote %d rows", written)
	}
	agree := one[float64](t, s, "SELECT AVG(Prediction = label) FROM t.fruit_pred")
	if math.Abs(agree-score) > 1e-9 {
		t.Errorf("table accuracy %v, ML_SCORE %v", agree, score)
	}
	if n := one[int64](t, s, "SELECT COUNT(*) FROM t.fruit_pred p JOIN t.fruit f ON p.id = f.id WHERE p.picked = f.picked AND p.weight = f.weight AND p.colour = f.colour"); n != 200 {
		t.Errorf("input columns copied for %d rows", n)
	}
	row := one[string](t, s, "SELECT ml_results FROM t.fruit_pred WHERE id = 16")
	if !strings.Contains(row, "probabilities") {
		t.Errorf("ml_results %s", row)
	}
	// Each row's document (written by storage from the numbers the log
	// carries) is the one ML_PREDICT_ROW gives, as text and as JSON.
	same := one[int64](t, s, "SELECT COUNT(*) FROM t.fruit_pred p JOIN t.fruit f ON p.id = f.id WHERE "+
		"CAST(p.ml_results AS CHAR) = CAST(JSON_EXTRACT(ML_PREDICT_ROW(JSON_OBJECT('weight', f.weight, 'colour', f.colour, 'x', f.x), @model), '$.ml_results') AS CHAR) AND "+
		"p.ml_results = JSON_EXTRACT(ML_PREDICT_ROW(JSON_OBJECT('weight', f.weight, 'colour', f.colour, 'x', f.x), @model), '$.ml_results')")
	if same != 200 {
		t.Errorf("ml_results is ML_PREDICT_ROW's in %d rows of 200", same)
	}
	// The output is stored as an INSERT would store it: statements that
	// read rows back and write them again see no conflict.
	s.exec(t, "UPDATE t.fruit_pred SET weight = weight + 1 WHERE id = 16")
	s.exec(t, "DELETE FROM t.fruit_pred WHERE id = 17")
	if n := one[int64](t, s, "SELECT COUNT(*) FROM t.fruit_pred"); n != 199 {
		t.Errorf("%d rows after deleting one", n)
	}

	s.exec(t, "CALL sys.ML_MODEL_DROP(@model)")
	if n := one[int64](t, s, "SELECT COUNT(*) FROM ML_SCHEMA_root.MODEL_CATALOG"); n != 0 {
		t.Errorf("%d catalog rows after drop", n)
	}
	wantError(t, s, "SELECT ML_PREDICT_ROW(JSON_OBJECT('x', 1), @model)", 1210, "ML_PREDICT_ROW", "not found")
}

func TestMLErrors(t *testing.T) {
	s, _ := startAt(t, t.TempDir())
	loadFruit(t, s)
	s.exec(t, "CREATE TABLE nothing (x DOUBLE, y DOUBLE)")
	s.exec(t, "CREATE TABLE nulls (x DOUBLE, z DOUBLE, y DOUBLE)")
	s.exec(t, "INSERT INTO nulls VALUES (1, NULL, 2), (2, NULL, 4), (3, NULL, 7)")
	s.exec(t, "CALL sys.ML_TRAIN('t.fruit', 'label', JSON_OBJECT('exclude_column_list', JSON_ARRAY('id')), @good)")
	train := func(table, target, opts string) string {
		return fmt.Sprintf("CALL sys.ML_TRAIN(%s, %s, %s, @m)", table, target, opts)
	}
	cases := []struct {
		q     string
		code  uint16
		parts []string
	}{
		{train("'t.nope'", "'label'", "NULL"), 1146, []string{"ML_TRAIN", "nope"}},
		{train("'nodb.fruit'", "'label'", "NULL"), 1049, []string{"ML_TRAIN", "nodb"}},
		{train("'t.fruit'", "'nope'", "NULL"), 1210, []string{"ML_TRAIN", "column 'nope' does not exist"}},
		{train("'t.fruit'", "NULL", "NULL"), 1210, []string{"ML_TRAIN", "needs a target column"}},
		{train("'t.fruit'", "'label'", "JSON_OBJECT('task', 'regression')"), 1210, []string{"ML_TRAIN", "target", "numeric"}},
		{train("'t.fruit'", "'picked'", "NULL"), 1210, []string{"ML_TRAIN", "target column 'picked'"}},
		{train("'t.fruit'", "'label'", "JSON_OBJECT('include_column_list', JSON_ARRAY('picked'))"), 1210, []string{"ML_TRAIN", "'picked'", "features"}},
		{train("'t.nothing'", "'y'", "JSON_OBJECT('task', 'regression')"), 1210, []string{"ML_TRAIN", "empty"}},
		{train("'t.nulls'", "'y'", "JSON_OBJECT('task', 'regression')"), 1210, []string{"ML_TRAIN", `"z"`}},
		{train("'t.fruit'", "'label'", "'{not json'"), 1210, []string{"ML_TRAIN", "options must be a JSON object"}},
		{train("'t.fruit'", "'label'", "JSON_OBJECT('max_depht', 3)"), 1210, []string{"ML_TRAIN", "unknown option 'max_depht'"}},
		{train("'t.fruit'", "'label'", "JSON_OBJECT('algorithm', 'Magic')"), 1210, []string{"ML_TRAIN", "unknown algorithm 'Magic'"}},
		{train("'t.fruit'", "'label'", "JSON_OBJECT('n_estimators', 'many')"), 1210, []string{"ML_TRAIN", "'n_estimators' must be an integer"}},
		{train("'t.fruit'", "'label'", "JSON_OBJECT('task', 'recommendation')"), 1210, []string{"ML_TRAIN", "'users' and 'items'"}},
		{"SELECT ML_PREDICT_ROW(JSON_OBJECT('x', 1), 'no_such_model')", 1210, []string{"ML_PREDICT_ROW", "no model 'no_such_model'"}},
		{"CALL sys.ML_MODEL_LOAD('no_such_model', NULL)", 1210, []string{"ML_MODEL_LOAD", "no_such_model"}},
		{"CALL sys.ML_MODEL_DROP('no_such_model')", 1210, []string{"ML_MODEL_DROP", "no_such_model"}},
		{"CALL sys.ML_SCORE('t.fruit', 'label', 'no_such_model', 'accuracy', @s, NULL)", 1210, []string{"ML_SCORE", "no_such_model"}},
		{"SELECT ML_PREDICT_ROW(JSON_OBJECT('x', 1, 'colour', 'red'), @good)", 1210, []string{"ML_PREDICT_ROW", "missing column", `"weight"`}},
		{"SELECT ML_PREDICT_ROW(JSON_OBJECT('x', 'big', 'colour', 'red', 'weight', 1), @good)", 1210, []string{"ML_PREDICT_ROW", "wrong value type", `"x"`}},
		{"SELECT ML_PREDICT_ROW('[1,2]', @good)", 1210, []string{"ML_PREDICT_ROW", "must be a JSON object"}},
		{"CALL sys.ML_SCORE('t.fruit', 'label', @good, 'r2', @s, NULL)", 1210, []string{"ML_SCORE", "r2"}},
		{"CALL sys.ML_SCORE('t.fruit', 'label', @good, 'nonsense', @s, NULL)", 1210, []string{"ML_SCORE", "unknown metric"}},
		{"CALL sys.ML_SCORE('t.nulls', 'y', @good, 'accuracy', @s, NULL)", 1210, []string{"ML_SCORE", "needs column"}},
		{"CALL sys.ML_PREDICT_TABLE('t.fruit', @good, 't.fruit', NULL)", 1050, []string{"ML_PREDICT_TABLE", "fruit"}},
	}
	for _, c := range cases {
		wantError(t, s, c.q, c.code, c.parts...)
	}
	if n := one[int64](t, s, "SELECT COUNT(*) FROM ML_SCHEMA_root.MODEL_CATALOG"); n != 1 {
		t.Errorf("%d catalog rows, want only the good model", n)
	}
	if n := one[int64](t, s, "SELECT COUNT(*) FROM sys.ML_JOBS WHERE state = 'failed' AND error LIKE '%\"z\"%'"); n != 1 {
		t.Errorf("the all-NULL failure is not in ML_JOBS with its reason (%d)", n)
	}
	if n := one[int64](t, s, "SELECT COUNT(*) FROM information_schema.tables WHERE table_name LIKE 'fruit%'"); n != 1 {
		t.Errorf("%d fruit tables", n)
	}
}

// TestMLModelSurvivesRestart trains, restarts the server on the same data
// directory and predicts with the handle, which must load from the
// replicated catalog.
func TestMLModelSurvivesRestart(t *testing.T) {
	dir := t.TempDir()
	s, stop := startAt(t, dir)
	loadFruit(t, s)
	s.exec(t, "CALL sys.ML_TRAIN('t.fruit', 'label', JSON_OBJECT('algorithm', 'DecisionTree', 'max_depth', 4), @model)")
	handle := one[string](t, s, "SELECT @model")
	q := "SELECT ML_PREDICT_ROW(JSON_OBJECT('x', 3, 'colour', 'yellow', 'weight', 100, 'id', 1), ?)"
	before := one[string](t, s, q, handle)
	stop()

	s, _ = startAt(t, dir)
	if after := one[string](t, s, q, handle); after != before {
		t.Errorf("after restart %s, before %s", after, before)
	}
	if n := one[int64](t, s, "SELECT COUNT(*) FROM sys.ml_models WHERE model_handle = ?", handle); n != 1 {
		t.Errorf("sys.ml_models lists the model %d times", n)
	}
}

// TestMLTrainLASolvers trains LinearRegression by the normal equations and
// by the LA-program solvers (run through the optimizer) and gets the same
// scores.
func TestMLTrainLASolvers(t *testing.T) {
	s, _ := startAt(t, t.TempDir())
	loadFruit(t, s)
	score := func(solver string) float64 {
		s.exec(t, "SET @m = NULL")
		s.exec(t, fmt.Sprintf(`CALL sys.ML_TRAIN('t.fruit', 'weight', JSON_OBJECT('task', 'regression',
			'algorithm', 'LinearRegression', 'solver', '%s', 'include_column_list', JSON_ARRAY('x', 'colour')), @m)`, solver))
		s.exec(t, "CALL sys.ML_SCORE('t.fruit', 'weight', @m, 'r2', @r2, NULL)")
		return one[float64](t, s, "SELECT @r2")
	}
	want := score("normal")
	for _, solver := range []string{"dfp", "bfgs", "gd"} {
		if got := score(solver); math.Abs(got-want) > 1e-6 {
			t.Errorf("%s: r2 %v, normal equations %v", solver, got, want)
		}
	}
	if _, err := s.db.Exec(`CALL sys.ML_TRAIN('t.fruit', 'weight', JSON_OBJECT('task', 'regression',
		'algorithm', 'LinearRegression', 'solver', 'newton'), @bad)`); err == nil {
		t.Fatal("an unknown solver was accepted")
	}
}

// TestPredictTableResultsOfRegression: a regression's ml_results holds
// nothing but the prediction, so the output computes it from Prediction
// as it is read (a virtual column) rather than storing it. Every way of
// reading a row gives the document ML_PREDICT_ROW gives, a point select
// by key included (storage holds no value of the column), and it follows
// a change of Prediction.
func TestPredictTableResultsOfRegression(t *testing.T) {
	s, _ := startAt(t, t.TempDir())
	loadFruit(t, s)
	s.exec(t, "CALL sys.ML_TRAIN('t.fruit', 'x', JSON_OBJECT('task', 'regression', 'algorithm', 'LinearRegression', 'include_column_list', JSON_ARRAY('weight', 'colour')), @reg)")
	s.exec(t, "CALL sys.ML_PREDICT_TABLE('t.fruit', @reg, 't.fruit_reg', NULL)")
	if n := one[int64](t, s, "SELECT COUNT(*) FROM t.fruit_reg WHERE ml_results IS NULL OR Prediction IS NULL"); n != 0 {
		t.Errorf("%d rows without a prediction", n)
	}
	want := func(id int) string {
		return one[string](t, s, "SELECT JSON_EXTRACT(ML_PREDICT_ROW(JSON_OBJECT('weight', weight, 'colour', colour), @reg), '$.ml_results') FROM t.fruit WHERE id = ?", id)
	}
	for _, id := range []int{0, 16, 199} {
		w := want(id)
		if !strings.Contains(w, `"prediction"`) {
			t.Fatalf("ML_PREDICT_ROW's ml_results %s", w)
		}
		if got := one[string](t, s, fmt.Sprintf("SELECT ml_results FROM t.fruit_reg WHERE id = %d", id)); got != w {
			t.Errorf("row %d by key: %s, want %s", id, got, w)
		}
		if got := one[string](t, s, fmt.Sprintf("SELECT ml_results FROM t.fruit_reg WHERE id + 0 = %d", id)); got != w {
			t.Errorf("row %d by scan: %s, want %s", id, got, w)
		}
	}
	if n := one[int64](t, s, "SELECT COUNT(*) FROM t.fruit_reg WHERE JSON_EXTRACT(ml_results, '$.predictions.prediction') = Prediction"); n != 200 {
		t.Errorf("ml_results agrees with Prediction in %d rows of 200", n)
	}
	s.exec(t, "UPDATE t.fruit_reg SET Prediction = 2.5 WHERE id = 16")
	if got := one[string](t, s, "SELECT ml_results FROM t.fruit_reg WHERE id = 16"); got != `{"predictions": {"prediction": 2.5}}` {
		t.Errorf("after UPDATE: %s", got)
	}
	if ddl := one2(t, s, "SHOW CREATE TABLE t.fruit_reg"); !strings.Contains(ddl, "`ml_results` json GENERATED ALWAYS AS (json_object('predictions',json_object('prediction',`Prediction`))) VIRTUAL,") {
		t.Errorf("SHOW CREATE TABLE: %s", ddl)
	}
}

// one2 is the second column of a query's one row.
func one2(t testing.TB, s *server, q string) string {
	t.Helper()
	var a, b string
	if err := s.db.QueryRow(q).Scan(&a, &b); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return b
}

// Generated handles are db.table_user_<unix time>, with a counter for
// every training after the first in the same second: trainings in a tight
// loop get distinct handles, each base's counters rising from 2 in the
// order the trainings ran.
func TestGeneratedHandles(t *testing.T) {
	s, _ := startAt(t, t.TempDir())
	loadFruit(t, s)
	pattern := regexp.MustCompile(`^t\.fruit_root_(\d+)(?:_(\d+))?$`)
	last := map[string]int{}
	seen := map[string]bool{}
	for range 40 {
		s.exec(t, "SET @m = NULL")
		s.exec(t, "CALL sys.ML_TRAIN('t.fruit', 'x', JSON_OBJECT('task', 'regression', 'algorithm', 'LinearRegression', 'include_column_list', JSON_ARRAY('weight')), @m)")
		h := one[string](t, s, "SELECT @m")
		m := pattern.FindStringSubmatch(h)
		if m == nil || seen[h] {
			t.Fatalf("handle %q: not of the generated form, or given twice", h)
		}
		seen[h] = true
		n := 1
		if m[2] != "" {
			n, _ = strconv.Atoi(m[2])
		}
		if prev, ok := last[m[1]]; (ok && n != prev+1) || (!ok && n != 1) {
			t.Fatalf("handle %q after counter %d of its second", h, prev)
		}
		last[m[1]] = n
	}
	if n := one[int64](t, s, "SELECT COUNT(*) FROM ML_SCHEMA_root.MODEL_CATALOG"); n != 40 {
		t.Errorf("%d models in the catalog, want 40", n)
	}
}

// A user may train on, score and predict from a table only with SELECT on
// it, as a query of it would need: without it each procedure fails with
// MySQL's 1142 and writes nothing; with it they work.
func TestMLNeedsSelectOnTheTable(t *testing.T) {
	s, _ := startAt(t, t.TempDir())
	loadFruit(t, s)
	for _, q := range []string{
		"CREATE TABLE secret (id INT PRIMARY KEY, x DOUBLE, y DOUBLE)",
		"INSERT INTO secret VALUES (1, 1, 2), (2, 2, 4), (3, 3, 6.5)",
		"CREATE USER analyst IDENTIFIED BY 'pw'",
		"GRANT EXECUTE ON sys.* TO analyst",
		"GRANT SELECT, CREATE, INSERT, DROP, ALTER ON t.fruit TO analyst",
		// The catalog's database, made beforehand: creating it on first
		// use would take the global CREATE privilege.
		"CREATE DATABASE ML_SCHEMA_analyst",
		"GRANT ALL ON ML_SCHEMA_analyst.* TO analyst",
		"GRANT CREATE, INSERT, DROP, ALTER, SELECT ON t.pred TO analyst",
	} {
		s.exec(t, q)
	}
	db, err := sql.Open("mysql", strings.Replace(s.dsn, "root@", "analyst:pw@", 1))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	if _, err := db.Exec("CALL sys.ML_TRAIN('t.fruit', 'x', JSON_OBJECT('task', 'regression', 'algorithm', 'LinearRegression', 'include_column_list', JSON_ARRAY('weight')), @m)"); err != nil {
		t.Fatalf("training on a table the user may read: %v", err)
	}
	for _, q := range []string{
		"CALL sys.ML_TRAIN('t.secret', 'y', JSON_OBJECT('task', 'regression'), @n)",
		"CALL sys.ML_SCORE('t.secret', 'y', @m, 'r2', @s, NULL)",
		"CALL sys.ML_PREDICT_TABLE('t.secret', @m, 't.pred', NULL)",
	} {
		_, err := db.Exec(q)
		var me *mysql.MySQLError
		if !errors.As(err, &me) || me.Number != 1142 {
			t.Errorf("%s: %v, want error 1142", q, err)
		}
	}
	if n := one[int64](t, s, "SELECT COUNT(*) FROM ML_SCHEMA_analyst.MODEL_CATALOG"); n != 1 {
		t.Errorf("%d models in the catalog, want only the one trained on t.fruit", n)
	}
	if n := one[int64](t, s, "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = 't' AND TABLE_NAME = 'pred'"); n != 0 {
		t.Errorf("ML_PREDICT_TABLE left its output behind")
	}
	s.exec(t, "GRANT SELECT ON t.secret TO analyst")
	if _, err := db.Exec("SET @n = NULL"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("CALL sys.ML_TRAIN('t.secret', 'y', JSON_OBJECT('task', 'regression', 'algorithm', 'LinearRegression'), @n)"); err != nil {
		t.Errorf("after GRANT SELECT: %v", err)
	}

	// Every user reads sys's tables and sees their own jobs and models
	// there; a user with PROCESS (root here) sees every user's jobs.
	s.exec(t, "CALL sys.ML_TRAIN('t.fruit', 'label', JSON_OBJECT('task', 'classification', 'algorithm', 'LogisticRegression'), @r)")
	s.exec(t, "REVOKE EXECUTE ON sys.* FROM analyst")
	count := func(q string) (n int64) {
		t.Helper()
		if err := db.QueryRow(q).Scan(&n); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return n
	}
	if mine, others := count("SELECT COUNT(*) FROM sys.ML_JOBS WHERE user = 'analyst'"), count("SELECT COUNT(*) FROM sys.ML_JOBS WHERE user <> 'analyst'"); mine != 2 || others != 0 {
		t.Errorf("analyst sees %d jobs of theirs and %d of others, want 2 and 0", mine, others)
	}
	rootJob := one[int64](t, s, "SELECT job_id FROM sys.ML_JOBS WHERE user = 'root'")
	if n := one[int64](t, s, fmt.Sprintf("SELECT COUNT(*) FROM sys.ML_TRAINING_HISTORY WHERE job_id = %d", rootJob)); n == 0 {
		t.Fatal("root's logistic regression left no training history")
	}
	if n := count(fmt.Sprintf("SELECT COUNT(*) FROM sys.ML_TRAINING_HISTORY WHERE job_id = %d", rootJob)); n != 0 {
		t.Errorf("analyst sees %d points of root's training history", n)
	}
	if n := count("SELECT COUNT(*) FROM sys.ml_models"); n != 2 {
		t.Errorf("analyst sees %d models in sys.ml_models, want their 2", n)
	}
	if n := one[int64](t, s, "SELECT COUNT(DISTINCT user) FROM sys.ML_JOBS"); n != 2 {
		t.Errorf("root sees the jobs of %d users, want 2", n)
	}
}
