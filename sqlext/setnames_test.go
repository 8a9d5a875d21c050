package sqlext_test

import "testing"

// TestSetNamesCollation: SET NAMES sets collation_connection, to the
// collation its COLLATE clause names or the character set's default, so
// that the connection's strings compare in it; the parser dropped the
// clause and the engine left the collation as it was. A collation of
// another character set is 1253, an unknown one 1273, as in MySQL.
func TestSetNamesCollation(t *testing.T) {
	_, _, db := serve(t)
	db.SetMaxOpenConns(1)
	mustExecAll(t, db, "SET NAMES utf8mb4 COLLATE utf8mb4_bin")
	wantAnswers(t, db, "utf8mb4_bin", map[string]string{"SELECT @@collation_connection, 'a' = 'A'": "utf8mb4_bin,0"})
	mustExecAll(t, db, "SET NAMES 'utf8mb4' COLLATE 'utf8mb4_unicode_ci'")
	wantAnswers(t, db, "utf8mb4_unicode_ci", map[string]string{"SELECT @@collation_connection, 'a' = 'A'": "utf8mb4_unicode_ci,1"})
	mustExecAll(t, db, "SET NAMES latin1")
	wantAnswers(t, db, "latin1", map[string]string{"SELECT @@collation_connection, @@character_set_connection": "latin1_swedish_ci,latin1"})
	mustExecAll(t, db, "/*!40101 SET NAMES utf8mb4 */")
	wantAnswers(t, db, "utf8mb4", map[string]string{"SELECT @@collation_connection": "utf8mb4_0900_ai_ci"})
	_, err := db.Exec("SET NAMES utf8mb4 COLLATE latin1_bin")
	wantMySQLMessage(t, "another character set's", err, 1253, "42000", "COLLATION 'latin1_bin' is not valid for CHARACTER SET 'utf8mb4'")
	_, err = db.Exec("SET NAMES utf8mb4 COLLATE nope_ci")
	wantMySQLMessage(t, "unknown", err, 1273, "HY000", "Unknown collation: 'nope_ci'")
	wantAnswers(t, db, "unchanged by the refusals", map[string]string{"SELECT @@collation_connection": "utf8mb4_0900_ai_ci"})
}
