package sqlext_test

import "testing"

// TestDatesInsertedIntoText: a DATE written into a text column by
// INSERT ... SELECT (through a UNION, a LIMIT, with or without a column
// list), INSERT ... VALUES or UPDATE is stored as MySQL writes it,
// 2024-01-15. The answers are MariaDB 10.11's.
func TestDatesInsertedIntoText(t *testing.T) {
	db := inDatabase(t, "dt", "CREATE TABLE u (id INT PRIMARY KEY, d DATE)", "INSERT INTO u VALUES (1, '2024-01-15')",
		"CREATE TABLE tv (id INT PRIMARY KEY AUTO_INCREMENT, v VARCHAR(40))")
	mustExecAll(t, db,
		"INSERT INTO tv (v) SELECT d FROM u",
		"INSERT INTO tv (v) SELECT d FROM u UNION ALL SELECT d FROM u",
		"INSERT INTO tv (v) SELECT d AS x FROM u WHERE d > '2000-01-01' ORDER BY d LIMIT 1",
		"INSERT INTO tv SELECT NULL, d FROM u",
		"INSERT INTO tv (v) VALUES (DATE'2024-01-15')",
		"INSERT INTO tv (v) VALUES ('x')",
		"UPDATE tv SET v = (SELECT d FROM u) WHERE v = 'x'",
	)
	wantAnswers(t, db, "stored", map[string]string{
		"SELECT GROUP_CONCAT(v ORDER BY id SEPARATOR ' ') FROM tv": "2024-01-15 2024-01-15 2024-01-15 2024-01-15 2024-01-15 2024-01-15 2024-01-15",
	})
}
