package sqlext_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestOrderByCollatedText: ORDER BY text orders by the column's
// collation, equal text (case and accents under utf8mb4_0900_ai_ci) by
// the next field, NULLs first ascending and last descending.
func TestOrderByCollatedText(t *testing.T) {
	db := inDatabase(t, "ot",
		"CREATE TABLE t (id INT PRIMARY KEY, s VARCHAR(10) COLLATE utf8mb4_0900_ai_ci, b VARCHAR(10) COLLATE utf8mb4_bin)",
		"INSERT INTO t VALUES (1, 'b', 'b'), (2, 'A', 'A'), (3, 'a', 'a'), (4, 'B', 'B'), (5, NULL, NULL), (6, 'é', 'é'), (7, 'e ', 'e '), (8, 'd', 'd')")
	wantAnswers(t, db, "ORDER BY", map[string]string{
		"SELECT GROUP_CONCAT(id) FROM (SELECT id FROM t ORDER BY s, id) x":             "5,2,3,1,4,8,6,7",
		"SELECT GROUP_CONCAT(id) FROM (SELECT id FROM t ORDER BY s DESC, id) x":        "7,6,8,1,4,2,3,5",
		"SELECT GROUP_CONCAT(id) FROM (SELECT id FROM t ORDER BY b, id) x":             "5,2,4,3,1,8,7,6",
		"SELECT GROUP_CONCAT(id) FROM (SELECT id FROM t WHERE id > 1 ORDER BY s) x":    "5,2,3,4,8,6,7",
		"SELECT GROUP_CONCAT(id) FROM (SELECT id FROM t ORDER BY UPPER(s), id DESC) x": "5,3,2,4,1,8,6,7",
	})
}

// BenchmarkOrderByText sorts 100 rows of 119 characters by a text column
// under utf8mb4_0900_ai_ci, as sysbench's oltp_read_only orders its
// ranges:
//
//	go test -tags openblas -run '^$' -bench OrderByText -count 6 ./sqlext
func BenchmarkOrderByText(b *testing.B) {
	srv, addr := startServer(b, b.TempDir())
	b.Cleanup(func() { srv.Close() })
	db := connect(b, addr, "")
	db.SetMaxOpenConns(1)
	mustExecAll(b, db, "CREATE DATABASE obt", "USE obt",
		"CREATE TABLE t (id INT PRIMARY KEY, c CHAR(120) NOT NULL)")
	random := rand.New(rand.NewPCG(1, 2))
	var values []string
	for id := 1; id <= 2000; id++ {
		groups := make([]string, 10)
		for g := range groups {
			groups[g] = fmt.Sprintf("%011d", random.Int64N(1e11))
		}
		values = append(values, fmt.Sprintf("(%d, '%s')", id, strings.Join(groups, "-")))
	}
	mustExecAll(b, db, "INSERT INTO t VALUES "+strings.Join(values, ", "))
	stmt, err := db.Prepare("SELECT c FROM t WHERE id BETWEEN ? AND ? ORDER BY c")
	if err != nil {
		b.Fatal(err)
	}
	defer stmt.Close()
	i := 0
	for b.Loop() {
		lo := i*97%1900 + 1
		i++
		rows, err := stmt.Query(lo, lo+99)
		if err != nil {
			b.Fatal(err)
		}
		n, last := 0, ""
		for rows.Next() {
			var c string
			if err := rows.Scan(&c); err != nil {
				b.Fatal(err)
			}
			if c < last {
				b.Fatalf("%q after %q", c, last)
			}
			n, last = n+1, c
		}
		rows.Close()
		if n != 100 {
			b.Fatalf("%d rows", n)
		}
	}
}
