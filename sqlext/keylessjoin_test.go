package sqlext_test

import "testing"

// TestUpdateJoinOfKeylessTable: a multiple-table UPDATE sets columns of
// a table without a primary key (k) as MySQL does: each of its rows
// that the join matches is updated once, by the first row it joins,
// however many rows it joins, and so is each of several equal rows; the
// rows matched and changed are counted per row of each table updated.
// Rows an outer join made up are left out, a table joined to itself is
// updated once per row, and the transaction's own rows are updated
// with the committed ones. A bad value is refused, and leaves every row
// as it was, or under IGNORE is the column's implicit default. Text changed only to text its collation holds equal is
// written and counted, in a table with a primary key (p) too. The
// engine refused the statement (1105, "keyless tables unsupported for
// UPDATE JOIN"). The answers are MariaDB 10.11's.
func TestUpdateJoinOfKeylessTable(t *testing.T) {
	steps := []countStep{
		{"UPDATE a JOIN k ON a.g = k.g SET k.w = k.w + 1", 4, 4},
		{"UPDATE a JOIN k ON a.g = k.g SET k.w = 7, a.v = a.v + 1 WHERE k.g = 1", 4, 4},
		{"UPDATE a JOIN k ON a.g = k.g SET k.w = 7 WHERE k.g = 1", 0, 2},
		{"UPDATE a JOIN k ON a.g = k.g SET k.s = 'X' WHERE k.g = 1", 2, 2},
		{"UPDATE k JOIN a ON a.g = k.g SET k.s = UPPER(k.s)", 2, 4},
		{"UPDATE a, k SET k.w = k.w * 10 WHERE a.g = k.g AND a.id = 3", 2, 2},
		{"UPDATE a LEFT JOIN k ON a.g = k.g SET k.w = -1, a.v = 0", 8, 8},
		{"UPDATE k AS k1 JOIN k AS k2 ON k1.g = k2.g SET k1.w = k1.w + 100", 5, 5},
		{"UPDATE a JOIN k ON a.g = k.g SET a.v = a.v + k.w", 3, 3},
		{"UPDATE a JOIN p ON a.g = p.g SET p.s = UPPER(p.s)", 2, 2},
		{"UPDATE a JOIN p ON a.g = p.g SET a.v = a.v + 1, p.s = CONCAT(p.s, '!')", 5, 5},
		{"UPDATE p LEFT JOIN a ON a.g = p.g SET p.s = 'n', a.v = 5 WHERE a.id IS NULL", 1, 1},
		{"UPDATE IGNORE a JOIN k ON a.g = k.g SET k.w = NULL WHERE k.g = 2", 2, 2},
	}
	after := map[string]string{
		"SELECT id, g, v FROM a ORDER BY id":                       "1,1,100;2,1,100;3,2,100;4,9,0",
		"SELECT g, w, s FROM k ORDER BY g, w, s":                   "1,99,X;1,99,X;2,0,Y;2,0,Y;3,100,z",
		"SELECT id, g, s FROM p ORDER BY id":                       "1,1,X!;2,2,Y!;3,3,n",
		"SELECT COUNT(*) FROM k WHERE s COLLATE utf8mb4_bin = 'X'": "2",
	}
	for _, c := range countingConnections(t, "kj",
		"CREATE TABLE a (id INT PRIMARY KEY, g INT, v INT)",
		"CREATE TABLE k (g INT, w INT NOT NULL, s VARCHAR(5)) DEFAULT CHARSET utf8mb4 COLLATE utf8mb4_general_ci",
		"CREATE TABLE p (id INT PRIMARY KEY, g INT, s VARCHAR(5)) DEFAULT CHARSET utf8mb4 COLLATE utf8mb4_general_ci",
		"INSERT INTO a VALUES (1,1,10),(2,1,20),(3,2,30),(4,9,40)",
		"INSERT INTO k VALUES (1,0,'x'),(1,0,'x'),(2,0,'y'),(3,0,'z'),(2,5,'y')",
		"INSERT INTO p VALUES (1,1,'x'),(2,2,'y'),(3,3,'z')") {
		db, found := c.db, c.found
		c.wantCounts(t, []countStep{{"UPDATE a JOIN k ON a.g = k.g SET k.w = a.v", 4, 4}})
		wantAnswers(t, db, "after the first update", map[string]string{
			"SELECT g, w, s FROM k ORDER BY g, w, s": "1,10,x;1,10,x;2,30,y;2,30,y;3,0,z",
		})
		c.wantCounts(t, steps)
		wantAnswers(t, db, "after the updates", after)

		mustExecAll(t, db, "BEGIN", "INSERT INTO k VALUES (2,99,'Y'),(4,0,'q')")
		if n := affected(t, db, "UPDATE a JOIN k ON a.g = k.g SET k.w = k.w + a.id"); n != 5 {
			t.Errorf("update in a transaction (found rows %t): %d rows affected, want 5", found, n)
		}
		wantAnswers(t, db, "in the transaction", map[string]string{
			"SELECT g, w, s FROM k ORDER BY g, w, s": "1,100,X;1,100,X;2,3,Y;2,3,Y;2,102,Y;3,100,z;4,0,q",
		})
		mustExecAll(t, db, "ROLLBACK")

		for q, code := range map[string]uint16{
			"UPDATE a JOIN k ON a.g = k.g SET k.w = NULL":        1048,
			"UPDATE a JOIN k ON a.g = k.g SET k.w = 99999999999": 1264,
			"UPDATE a JOIN k ON a.g = k.g SET k.nosuch = 1":      1054,
		} {
			_, err := db.Exec(q)
			wantMySQLError(t, err, code, "")
		}
		wantAnswers(t, db, "after the refused updates", after)

		// Prepared, with the values as parameters, and in a procedure.
		if res, err := db.Exec("UPDATE a JOIN k ON a.g = k.g SET k.w = ? WHERE a.id = ?", 5, 3); err != nil {
			t.Fatal(err)
		} else if n, _ := res.RowsAffected(); n != 2 {
			t.Errorf("prepared update (found rows %t): %d rows affected, want 2", found, n)
		}
		mustExecAll(t, db, "CREATE PROCEDURE bump() UPDATE a JOIN k ON a.g = k.g SET k.w = k.w + 1", "CALL bump()")
		wantAnswers(t, db, "after the procedure", map[string]string{
			"SELECT g, w, s FROM k ORDER BY g, w, s": "1,100,X;1,100,X;2,6,Y;2,6,Y;3,100,z",
		})
	}
}
