package sqlext_test

import (
	"strings"
	"testing"
)

// TestGroupByWithRollup adds subtotal and total rows as MySQL does, and
// no total of no rows (the total was a row of NULL and 0); the answers
// are MariaDB 10.11's (which refuses ORDER BY with ROLLUP, which MySQL
// 8.0 allows).
func TestGroupByWithRollup(t *testing.T) {
	_, db := openIn(t, t.TempDir())
	mustExecAll(t, db, "CREATE DATABASE r", "CREATE TABLE r.s (id INT PRIMARY KEY, region VARCHAR(9), product VARCHAR(9), amount INT)",
		"INSERT INTO r.s VALUES (1,'east','a',10),(2,'east','b',20),(3,'west','a',5),(4,'west','a',7),(5,'north','b',1)")
	wantAnswers(t, db, "WITH ROLLUP", map[string]string{
		"SELECT region, SUM(amount) FROM r.s GROUP BY region WITH ROLLUP":                                          "east,30;north,1;west,12;NULL,43",
		"SELECT region, product, SUM(amount) AS total, COUNT(*) FROM r.s GROUP BY region, product WITH ROLLUP":     "east,a,10,1;east,b,20,1;east,NULL,30,2;north,b,1,1;north,NULL,1,1;west,a,12,2;west,NULL,12,2;NULL,NULL,43,5",
		"SELECT region, SUM(amount) FROM r.s WHERE amount > 5 GROUP BY region WITH ROLLUP HAVING SUM(amount) > 10": "east,30;NULL,37",
		"SELECT region, SUM(amount) t FROM r.s GROUP BY region WITH ROLLUP ORDER BY t DESC LIMIT 2":                "NULL,43;east,30",
		// No rows, no groups, and no total either.
		"SELECT region, COUNT(*) FROM r.s WHERE amount > 100 GROUP BY region WITH ROLLUP":             "",
		"SELECT region, product, COUNT(*) FROM r.s WHERE id < 0 GROUP BY region, product WITH ROLLUP": "",
	})
	// A group of NULLs comes first and its subtotal last; both came
	// last, next to each other.
	mustExecAll(t, db, "CREATE TABLE r.n (id INT PRIMARY KEY, region VARCHAR(9), product VARCHAR(9), amount INT)",
		"INSERT INTO r.n VALUES (1,NULL,'a',3),(2,'east',NULL,1),(3,NULL,'b',4),(4,'east','a',2),(5,'west','b',4)")
	wantAnswers(t, db, "WITH ROLLUP over NULL groups", map[string]string{
		"SELECT region, SUM(amount) FROM r.n GROUP BY region WITH ROLLUP":                   "NULL,7;east,3;west,4;NULL,14",
		"SELECT region, product, SUM(amount) FROM r.n GROUP BY region, product WITH ROLLUP": "NULL,a,3;NULL,b,4;NULL,NULL,7;east,NULL,1;east,a,2;east,NULL,3;west,b,4;west,NULL,4;NULL,NULL,14",
	})
}

// TestRollupGrouping: GROUPING() tells a subtotal's NULL from a group of
// NULLs, as MySQL 8.0 computes it (1 where its column is rolled up; with
// several arguments a number whose lowest bit is the last one's), in the
// select list, HAVING and ORDER BY; and a GROUP BY column may be used
// inside an expression rather than selected (MariaDB, the peer of the
// other tests here, has no GROUPING()).
func TestRollupGrouping(t *testing.T) {
	_, db := openIn(t, t.TempDir())
	mustExecAll(t, db, "CREATE DATABASE g", "CREATE TABLE g.s (id INT PRIMARY KEY, region VARCHAR(9), product VARCHAR(9), amount INT)",
		"INSERT INTO g.s VALUES (1,'east','a',10),(2,'east','b',20),(3,NULL,'a',3),(4,'west','a',7)")
	wantAnswers(t, db, "GROUPING", map[string]string{
		"SELECT region, product, SUM(amount), GROUPING(region), GROUPING(product), GROUPING(region, product) FROM g.s GROUP BY region, product WITH ROLLUP": "NULL,a,3,0,0,0;NULL,NULL,3,0,1,1;east,a,10,0,0,0;east,b,20,0,0,0;east,NULL,30,0,1,1;west,a,7,0,0,0;west,NULL,7,0,1,1;NULL,NULL,40,1,1,3",
		"SELECT IF(GROUPING(region), 'all', COALESCE(region, 'none')) AS r, SUM(amount) FROM g.s GROUP BY region WITH ROLLUP":                               "none,3;east,30;west,7;all,40",
		"SELECT region, SUM(amount) FROM g.s GROUP BY region WITH ROLLUP HAVING GROUPING(region) = 0 AND SUM(amount) > 5":                                   "east,30;west,7",
		"SELECT region, SUM(amount) AS t FROM g.s GROUP BY region WITH ROLLUP ORDER BY GROUPING(region) DESC, t":                                            "NULL,40;NULL,3;west,7;east,30",
		// Columns only read in expressions: NULL outside aggregates in a
		// subtotal, the rows' values inside them.
		"SELECT CONCAT(region, '/', product) AS k, COUNT(region), MAX(product) FROM g.s GROUP BY region, product WITH ROLLUP": "NULL,0,a;NULL,0,a;east/a,1,a;east/b,1,b;NULL,2,b;west/a,1,a;NULL,1,a;NULL,3,b",
		"SELECT SUM(amount) FROM g.s GROUP BY region WITH ROLLUP":                                                             "3;30;7;40",
	})
	// An argument that is not a GROUP BY column is refused.
	if _, err := db.Exec("SELECT region, GROUPING(amount) FROM g.s GROUP BY region WITH ROLLUP"); err == nil {
		t.Error("GROUPING of a column outside GROUP BY answered")
	}
}

// TestRollupKeepsDecimalScale: a DECIMAL column of a WITH ROLLUP result,
// and of a union in a derived table, shows its type's scale (it showed
// the value's digits: 12.5 for a DECIMAL(10,2) 12.50 read back from
// storage). The answers are MariaDB 10.11's.
func TestRollupKeepsDecimalScale(t *testing.T) {
	db := numericTable(t)
	wantAnswers(t, db, "DECIMAL with ROLLUP", map[string]string{
		"SELECT d, COUNT(*) FROM nm.t WHERE id < 3 GROUP BY d WITH ROLLUP":        "-0.75,1;12.50,1;NULL,2",
		"SELECT i, SUM(d) FROM nm.t WHERE id < 3 GROUP BY i WITH ROLLUP":          "-3,-0.75;7,12.50;NULL,11.75",
		"SELECT * FROM (SELECT d FROM nm.t WHERE id = 1 UNION ALL SELECT NULL) q": "12.50;NULL",
	})
}

// TestRollupColumnNames: the columns of a ROLLUP are named as MySQL
// names them: a column as written, without quotes, where a column whose
// name is a keyword (status) came back quoted; MariaDB 10.11's names.
func TestRollupColumnNames(t *testing.T) {
	db := inDatabase(t, "rn", "CREATE TABLE o (id INT PRIMARY KEY, Status VARCHAR(9), cust VARCHAR(9), amount INT)",
		"INSERT INTO o VALUES (1, 'new', 'a', 1), (2, 'paid', 'b', 2)")
	rows, err := db.Query("SELECT Status, `cust`, COUNT(*), SUM(amount) + 1, status AS st FROM o GROUP BY Status, cust WITH ROLLUP")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	if got, want := strings.Join(cols, "|"), "Status|cust|COUNT(*)|SUM(amount) + 1|st"; got != want {
		t.Errorf("columns %s, want %s", got, want)
	}
}

// TestDistinctGroupConcatInDerivedTables: GROUP_CONCAT(DISTINCT ...) read
// through a derived table with a HAVING, as WITH ROLLUP's grand total
// reads it, is the concatenation; it was the HAVING's count. The
// answers are MariaDB 10.11's.
func TestDistinctGroupConcatInDerivedTables(t *testing.T) {
	db := inDatabase(t, "dgc",
		"CREATE TABLE o (id INT PRIMARY KEY, c INT, r CHAR(2))",
		"INSERT INTO o VALUES (1, 1, 'EU'), (2, 1, 'US'), (3, 2, 'US'), (4, 3, 'AP'), (5, 3, 'AP')")
	wantAnswers(t, db, "GROUP_CONCAT(DISTINCT)", map[string]string{
		"SELECT x FROM (SELECT GROUP_CONCAT(DISTINCT r ORDER BY r) x FROM o HAVING COUNT(*) > 0) q":                    "AP,EU,US",
		"SELECT c, GROUP_CONCAT(DISTINCT r ORDER BY r), COUNT(*) FROM o GROUP BY c WITH ROLLUP":                        "1,EU,US,2;2,US,1;3,AP,2;NULL,AP,EU,US,5",
		"SELECT c, GROUP_CONCAT(DISTINCT r ORDER BY r SEPARATOR '|') FROM o GROUP BY c HAVING COUNT(*) > 1 ORDER BY c": "1,EU|US;3,AP",
	})
}
