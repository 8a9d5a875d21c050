package sqlext_test

import "testing"

// TestDistinctUnderCollation: SELECT DISTINCT and COUNT(DISTINCT) see
// text equal under its column's collation as one value, as MySQL and
// GROUP BY do: case and accents fold under utf8mb4_0900_ai_ci, not under
// utf8mb4_0900_bin. DISTINCT keeps one row of each set.
func TestDistinctUnderCollation(t *testing.T) {
	_, _, db := serve(t)
	mustExecAll(t, db, "CREATE DATABASE d",
		"CREATE TABLE d.t (id INT PRIMARY KEY, ci VARCHAR(10) COLLATE utf8mb4_0900_ai_ci, "+
			"b VARCHAR(10) COLLATE utf8mb4_0900_bin, n INT, e ENUM('x','y') COLLATE utf8mb4_0900_ai_ci)",
		"INSERT INTO d.t VALUES (1, 'abc', 'abc', 1, 'x'), (2, 'ABC', 'ABC', 1, 'x'), (3, 'Ábc', 'abc', 2, 'y'), "+
			"(4, 'b', 'b', 2, 'y'), (5, NULL, NULL, 3, NULL), (6, NULL, NULL, 3, NULL)")
	wantAnswers(t, db, "distinct", map[string]string{
		"SELECT COUNT(*) FROM (SELECT DISTINCT ci FROM d.t) q":                    "3",
		"SELECT LOWER(ci) FROM (SELECT DISTINCT ci FROM d.t) q ORDER BY 1":        "NULL;abc;b",
		"SELECT COUNT(*) FROM (SELECT DISTINCT ci FROM d.t WHERE id IN (2, 3)) q": "1",
		"SELECT DISTINCT b FROM d.t ORDER BY b":                                   "NULL;ABC;abc;b",
		"SELECT n FROM (SELECT DISTINCT ci, n FROM d.t) q ORDER BY n":             "1;2;2;3",
		"SELECT COUNT(*) FROM (SELECT DISTINCT ci, b FROM d.t) q":                 "4",
		"SELECT DISTINCT UPPER(b) FROM d.t ORDER BY 1":                            "NULL;ABC;B",
		"SELECT COUNT(DISTINCT ci), COUNT(DISTINCT b) FROM d.t":                   "2,3",
		"SELECT COUNT(DISTINCT ci, n) FROM d.t":                                   "3",
		"SELECT n, COUNT(DISTINCT ci) FROM d.t GROUP BY n ORDER BY n":             "1,1;2,2;3,0",
		"SELECT COUNT(DISTINCT e) FROM d.t":                                       "2",
		"SELECT COUNT(*) FROM d.t GROUP BY ci ORDER BY 1":                         "1;2;3",
	})
}

// TestUnionUnderCollation: UNION, INTERSECT and EXCEPT (DISTINCT) see
// text equal under its column's collation as one value, as MySQL does
// ('abc' UNION 'ABC' is one row under utf8mb4_0900_ai_ci, two under
// utf8mb4_0900_bin), keeping the first row of each set, and then order,
// skip and limit; INTERSECT ALL and EXCEPT ALL pair each right row with
// one left row equal to it.
func TestUnionUnderCollation(t *testing.T) {
	_, _, db := serve(t)
	mustExecAll(t, db, "CREATE DATABASE u",
		"CREATE TABLE u.a (id INT PRIMARY KEY, ci VARCHAR(10) COLLATE utf8mb4_0900_ai_ci, b VARCHAR(10) COLLATE utf8mb4_0900_bin)",
		"CREATE TABLE u.c (id INT PRIMARY KEY, ci VARCHAR(10) COLLATE utf8mb4_0900_ai_ci, b VARCHAR(10) COLLATE utf8mb4_0900_bin)",
		"INSERT INTO u.a VALUES (1, 'abc', 'abc'), (2, 'b', 'b')",
		"INSERT INTO u.c VALUES (1, 'ABC', 'ABC'), (2, 'Ábc', 'abc'), (3, 'd', 'd'), (4, 'B', 'B')")
	wantAnswers(t, db, "union", map[string]string{
		"SELECT ci FROM u.a UNION SELECT ci FROM u.c":                              "abc;b;d",
		"SELECT ci FROM u.a UNION DISTINCT SELECT ci FROM u.c ORDER BY ci DESC":    "d;b;abc",
		"SELECT ci FROM u.a UNION SELECT ci FROM u.c ORDER BY ci LIMIT 1, 1":       "b",
		"SELECT ci FROM u.a UNION SELECT ci FROM u.c LIMIT 2":                      "abc;b",
		"SELECT b FROM u.a UNION SELECT b FROM u.c ORDER BY b":                     "ABC;B;abc;b;d",
		"SELECT COUNT(*) FROM (SELECT ci FROM u.a UNION ALL SELECT ci FROM u.c) q": "6",
		// ALL: each right row pairs with one equal left row.
		"SELECT COUNT(*) FROM (SELECT ci FROM u.a INTERSECT ALL SELECT ci FROM u.c) q":                  "2",
		"SELECT GROUP_CONCAT(ci ORDER BY ci) FROM (SELECT ci FROM u.c EXCEPT ALL SELECT ci FROM u.a) q": "Ábc,d",
		"SELECT GROUP_CONCAT(b ORDER BY b) FROM (SELECT b FROM u.c EXCEPT ALL SELECT b FROM u.a) q":     "ABC,B,d",
		"SELECT COUNT(*) FROM (SELECT b FROM u.a INTERSECT ALL SELECT b FROM u.c) q":                    "1",
		"SELECT COUNT(*) FROM (SELECT ci, b FROM u.a UNION SELECT ci, b FROM u.c) q":                    "5",
		"SELECT ci FROM u.a INTERSECT SELECT ci FROM u.c ORDER BY ci":                                   "abc;b",
		"SELECT ci FROM u.c EXCEPT SELECT ci FROM u.a":                                                  "d",
		"SELECT b FROM u.c EXCEPT SELECT b FROM u.a ORDER BY b":                                         "ABC;B;d",
		"SELECT b FROM u.a INTERSECT SELECT b FROM u.c":                                                 "abc",
		"SELECT 'abc' INTERSECT SELECT 'ABC'":                                                           "abc",
		"SELECT 'abc' UNION SELECT 'ABC'":                                                               "abc",
	})
}

// TestGroupConcatDistinctUnderCollation: GROUP_CONCAT(DISTINCT ...) takes
// one of each set of values equal under their collation, the first met,
// then orders and joins them as without DISTINCT; a binary collation keeps
// every spelling, and NULLs are skipped. GROUP_CONCAT of several values
// concatenates them per row.
func TestGroupConcatDistinctUnderCollation(t *testing.T) {
	_, _, db := serve(t)
	mustExecAll(t, db, "CREATE DATABASE g",
		"CREATE TABLE g.t (id INT PRIMARY KEY, s VARCHAR(10), b VARCHAR(10) COLLATE utf8mb4_0900_bin, k INT)",
		"INSERT INTO g.t VALUES (1, 'apple', 'x', 1), (2, 'Apple', 'X', 1), (3, 'APPLE', 'x', 2), "+
			"(4, 'pear', NULL, 1), (5, 'Pear', 'y', 2), (6, 'äpple', 'y', 1), (7, NULL, 'z', 1)")
	wantAnswers(t, db, "group_concat distinct", map[string]string{
		"SELECT GROUP_CONCAT(DISTINCT s ORDER BY s) FROM g.t":                                                    "apple,pear",
		"SELECT k, GROUP_CONCAT(DISTINCT s) FROM g.t GROUP BY k ORDER BY k":                                      "1,apple,pear;2,APPLE,Pear",
		"SELECT GROUP_CONCAT(DISTINCT b ORDER BY b) FROM g.t":                                                    "X,x,y,z",
		"SELECT GROUP_CONCAT(s ORDER BY id) FROM g.t":                                                            "apple,Apple,APPLE,pear,Pear,äpple",
		"SELECT k, GROUP_CONCAT(DISTINCT UPPER(s) ORDER BY s DESC SEPARATOR '/') FROM g.t GROUP BY k ORDER BY k": "1,PEAR/APPLE;2,PEAR/APPLE",
		"SELECT GROUP_CONCAT(DISTINCT id) FROM g.t WHERE k = 2":                                                  "3,5",
		// Several values are concatenated per row, and a row with a NULL
		// among them is skipped.
		"SELECT GROUP_CONCAT(s, b ORDER BY id) FROM g.t":                          "applex,AppleX,APPLEx,Peary,äppley",
		"SELECT GROUP_CONCAT(id, '-', k ORDER BY id DESC SEPARATOR ';') FROM g.t": "7-1;6-1;5-2;4-1;3-2;2-1;1-1",
		"SELECT GROUP_CONCAT(DISTINCT s, b ORDER BY id) FROM g.t":                 "applex,AppleX,Peary,äppley",
		// DISTINCT takes the values together, not their concatenation.
		"SELECT GROUP_CONCAT(DISTINCT a, c ORDER BY a DESC SEPARATOR '/') FROM (SELECT 1 AS a, 23 AS c UNION ALL SELECT 12, 3 UNION ALL SELECT 1, 23) x":                 "123/123",
		"SELECT GROUP_CONCAT(DISTINCT b, s ORDER BY b) FROM (SELECT 'ab' COLLATE utf8mb4_0900_bin AS b, 'c' COLLATE utf8mb4_0900_bin AS s UNION ALL SELECT 'a', 'bc') x": "abc,abc",
		"SELECT GROUP_CONCAT(DISTINCT k, '-', LOWER(s) ORDER BY id) FROM g.t":                                                                                            "1-apple,2-apple,1-pear,2-pear",
	})
}

// TestGroupConcatOrdersByType: GROUP_CONCAT's ORDER BY orders DECIMALs
// and dates by their values, as MySQL does; the rules that read
// GROUP_CONCAT's values as text read its ORDER BY terms so too, and put
// 10.50 before 5.25. The answers are MariaDB 10.11's.
func TestGroupConcatOrdersByType(t *testing.T) {
	db := inDatabase(t, "gco",
		"CREATE TABLE o (id INT PRIMARY KEY, amount DECIMAL(10,2), d DATE, status VARCHAR(9))",
		"INSERT INTO o VALUES (1, 10.50, '2024-03-01', 'paid'), (2, 20.00, '2023-12-31', 'new'), (3, 5.25, '2024-01-15', 'paid'), (4, 9, NULL, 'x')")
	wantAnswers(t, db, "ordered", map[string]string{
		"SELECT GROUP_CONCAT(id ORDER BY amount), GROUP_CONCAT(id ORDER BY -amount), GROUP_CONCAT(amount ORDER BY amount DESC) FROM o": "3,4,1,2,2,1,4,3,20.00,10.50,9.00,5.25",
		"SELECT GROUP_CONCAT(id, ':', amount ORDER BY amount SEPARATOR ';'), GROUP_CONCAT(DISTINCT amount ORDER BY amount) FROM o":     "3:5.25;4:9.00;1:10.50;2:20.00,5.25,9.00,10.50,20.00",
		"SELECT GROUP_CONCAT(id ORDER BY d), GROUP_CONCAT(d ORDER BY d DESC), GROUP_CONCAT(id ORDER BY status, amount DESC) FROM o":    "4,2,3,1,2024-03-01,2024-01-15,2023-12-31,2,1,3,4",
		"SELECT status, GROUP_CONCAT(amount ORDER BY amount) FROM o GROUP BY status ORDER BY status":                                   "new,20.00;paid,5.25,10.50;x,9.00",
	})
}
