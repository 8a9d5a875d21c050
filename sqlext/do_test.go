package sqlext_test

import "testing"

// TestDoStatement: DO evaluates its expressions in order and answers OK
// with no result set, as in MySQL; the parser refused it. A DO that is
// not one (DO with no expression, or with a FROM) is still a syntax error.
// DO and SET affect no rows, as MySQL says (the engine said 1).
func TestDoStatement(t *testing.T) {
	_, _, db := serve(t)
	db.SetMaxOpenConns(1) // one session: user variables and locks are per session
	conn := db
	mustExecAll(t, conn, "SET @n = 1", "DO SLEEP(0)", "do @n := @n + 1, @n := @n * 10", "DO (SELECT 1), GET_LOCK('d', 1)")
	wantAnswers(t, conn, "after DO", map[string]string{
		"SELECT @n, IS_USED_LOCK('d') IS NOT NULL": "20,1",
	})
	mustExecAll(t, conn, "DO RELEASE_LOCK('d');")
	wantAnswers(t, conn, "after DO RELEASE_LOCK", map[string]string{"SELECT IS_FREE_LOCK('d')": "1"})
	rows, err := conn.QueryContext(t.Context(), "DO 1 + 1")
	if err != nil {
		t.Fatal(err)
	}
	if cols, _ := rows.Columns(); len(cols) != 0 || rows.Next() {
		t.Errorf("DO answered a result set with columns %v", cols)
	}
	rows.Close()
	wantAffected(t, conn, []affectedStep{{"DO 1", 0}, {"SET @m = 2", 0}, {"SET sql_mode = DEFAULT", 0}, {"SET NAMES utf8mb4", 0}})
	for _, bad := range []string{"DO", "DO 1 FROM dual WHERE 1", "DO 1 AS x"} {
		_, err := conn.ExecContext(t.Context(), bad)
		wantMySQLError(t, err, 1064, "42000")
	}
}
