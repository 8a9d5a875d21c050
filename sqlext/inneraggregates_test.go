package sqlext_test

import "testing"

// TestSubqueryKeepsItsAggregates: a subquery's aggregate over its own
// table is the subquery's, also when the enclosing query has the same
// aggregate over the same table, as in BI's share of the total. The
// engine took the subquery's SUM(x) for the outer query's and failed
// with 1242. An aggregate of the enclosing query's columns alone stays
// the enclosing query's. The answers are MariaDB 10.11's.
func TestSubqueryKeepsItsAggregates(t *testing.T) {
	db := inDatabase(t, "inagg",
		"CREATE TABLE o (id INT PRIMARY KEY, c INT, region CHAR(2), amount DECIMAL(10,2), status VARCHAR(8))",
		"CREATE TABLE k (id INT PRIMARY KEY)",
		"INSERT INTO o VALUES (1, 1, 'EU', 10.50, 'paid'), (2, 1, 'EU', 99.99, 'open'), (3, 2, 'US', 5.00, 'paid'), (4, 3, 'US', 250.00, NULL)",
		"INSERT INTO k VALUES (1), (2)")
	wantAnswers(t, db, "aggregates of subqueries", map[string]string{
		"SELECT SUM(amount) / (SELECT SUM(amount) FROM o) FROM o":                                                                                  "1.000000",
		"SELECT region, ROUND(100 * SUM(amount) / (SELECT SUM(amount) FROM o), 1) FROM o GROUP BY region ORDER BY 1":                               "EU,30.2;US,69.8",
		"SELECT MAX(amount) - (SELECT MAX(amount) FROM o WHERE region = 'EU'), MIN(status), (SELECT MIN(status) FROM o WHERE status > 'p') FROM o": "150.01,open,paid",
		"SELECT c, SUM(amount) FROM o GROUP BY c HAVING SUM(amount) > (SELECT AVG(amount) FROM o) ORDER BY c":                                      "1,110.49;3,250.00",
		"SELECT (SELECT SUM(amount) FROM o) / SUM(amount), COUNT(*) / (SELECT COUNT(*) FROM o) FROM o":                                             "1.000000,1.0000",
		"SELECT SUM(amount), (SELECT SUM(amount) FROM k WHERE k.id = 1), (SELECT SUM(amount)) FROM o":                                              "365.49,365.49,365.49",
		"SELECT k.id, (SELECT SUM(o.amount) FROM o WHERE o.c = k.id) FROM k ORDER BY k.id":                                                         "1,110.49;2,5.00",
	})
}
