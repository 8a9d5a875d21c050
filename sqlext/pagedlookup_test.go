package sqlext_test

import (
	"database/sql"
	"fmt"
	"testing"
)

// BenchmarkExistsByIndex counts the rows of o with a row in l, found by
// l's index on k, whose first row for each key meets the condition.
func BenchmarkExistsByIndex(b *testing.B) {
	db := partialBenchTables(b)
	for b.Loop() {
		var n int
		if err := db.QueryRow("SELECT COUNT(*) FROM o WHERE EXISTS (SELECT 1 FROM l WHERE l.k = o.k AND l.x > 5)").Scan(&n); err != nil || n != 500 {
			b.Fatalf("%d rows, %v", n, err)
		}
	}
}

// BenchmarkRangeLookup sums 100 rows by a range of the primary key, as
// sysbench's range queries read them:
//
//	go test -tags openblas -run '^$' -bench RangeLookup -count 6 ./sqlext
func BenchmarkRangeLookup(b *testing.B) {
	benchRanges(b, "SELECT SUM(x) FROM l WHERE id BETWEEN ? AND ?", func(stmt *sql.Stmt, lo, hi int) error {
		var sum int
		if err := stmt.QueryRow(lo, hi).Scan(&sum); err != nil || sum <= 0 {
			return fmt.Errorf("sum %d, %v", sum, err)
		}
		return nil
	})
}

// benchRanges runs query, prepared, over partialBenchTables, once an
// iteration, by run with the bounds of a 100-row range of l's keys.
func benchRanges(b *testing.B, query string, run func(stmt *sql.Stmt, lo, hi int) error) {
	db := partialBenchTables(b)
	stmt, err := db.Prepare(query)
	if err != nil {
		b.Fatal(err)
	}
	defer stmt.Close()
	i := 0
	for b.Loop() {
		lo := i*97%19800 + 1
		i++
		if err := run(stmt, lo, lo+99); err != nil {
			b.Fatal(err)
		}
	}
}
