package sqlext_test

import "testing"

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
	db := partialBenchTables(b)
	stmt, err := db.Prepare("SELECT SUM(x) FROM l WHERE id BETWEEN ? AND ?")
	if err != nil {
		b.Fatal(err)
	}
	defer stmt.Close()
	i := 0
	for b.Loop() {
		lo := i*97%19800 + 1
		i++
		var sum int
		if err := stmt.QueryRow(lo, lo+99).Scan(&sum); err != nil || sum <= 0 {
			b.Fatalf("sum %d, %v", sum, err)
		}
	}
}
