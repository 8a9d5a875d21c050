package sqlext_test

import "testing"

// TestRankingPeers: RANK, DENSE_RANK, PERCENT_RANK and CUME_DIST give
// rows equal in the window's ORDER BY the same answer. The engine told
// equal DECIMALs apart (7.77 and 7.77 ranked 3 and 4), and text equal by
// its collation ('a' and 'A'), and failed on a binary value with a
// panic. The answers are MariaDB 10.11's; a window without ORDER BY,
// which MariaDB refuses for RANK, makes every row a peer, as in MySQL.
func TestRankingPeers(t *testing.T) {
	db := inDatabase(t, "peers",
		"CREATE TABLE o (id INT PRIMARY KEY, region CHAR(2), amount DECIMAL(10,2), b VARBINARY(4))",
		"INSERT INTO o VALUES (1, 'EU', 10.50, 'x'), (2, 'EU', 7.77, 'y'), (3, 'EU', 7.77, 'x'), (4, 'US', 5.00, NULL), (5, 'US', 250.00, NULL), (6, 'eu', 99.99, 'x')")
	wantAnswers(t, db, "ranking peers", map[string]string{
		"SELECT id, RANK() OVER w, DENSE_RANK() OVER w, ROUND(PERCENT_RANK() OVER w, 4), ROUND(CUME_DIST() OVER w, 4) FROM o WINDOW w AS (ORDER BY amount) ORDER BY id": "1,4,3,0.6,0.6667;2,2,2,0.2,0.5;3,2,2,0.2,0.5;4,1,1,0,0.1667;5,6,5,1,1;6,5,4,0.8,0.8333",
		"SELECT id, RANK() OVER (PARTITION BY region ORDER BY amount DESC) FROM o ORDER BY id":                                                                          "1,2;2,3;3,3;4,2;5,1;6,1",
		"SELECT id, RANK() OVER (ORDER BY region), DENSE_RANK() OVER (ORDER BY region) FROM o ORDER BY id":                                                              "1,1,1;2,1,1;3,1,1;4,5,2;5,5,2;6,1,1",
		"SELECT id, RANK() OVER (ORDER BY b), ROUND(CUME_DIST() OVER (ORDER BY b), 4) FROM o ORDER BY id":                                                               "1,3,0.8333;2,6,1;3,3,0.8333;4,1,0.3333;5,1,0.3333;6,3,0.8333",
		"SELECT RANK() OVER (ORDER BY amount, region), DENSE_RANK() OVER (ORDER BY CAST(amount AS DECIMAL(10,4))) FROM o WHERE id IN (2, 3)":                            "1,1;1,1",
		"SELECT RANK() OVER (), DENSE_RANK() OVER (), PERCENT_RANK() OVER (), CUME_DIST() OVER () FROM o WHERE id < 3":                                                  "1,1,0,1;1,1,0,1",
	})
}
