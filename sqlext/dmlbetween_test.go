package sqlext_test

import "testing"

// BenchmarkUpdateByRange updates 100 rows of a 20,000-row table by a
// range of its primary key written with BETWEEN:
//
//	go test -tags openblas -run '^$' -bench UpdateByRange -count 6 ./sqlext
func BenchmarkUpdateByRange(b *testing.B) {
	db := partialBenchTables(b)
	stmt, err := db.Prepare("UPDATE l SET x = x + 1 WHERE id BETWEEN ? AND ?")
	if err != nil {
		b.Fatal(err)
	}
	defer stmt.Close()
	i := 0
	for b.Loop() {
		lo := i*97%19800 + 1
		i++
		res, err := stmt.Exec(lo, lo+99)
		if err != nil {
			b.Fatal(err)
		}
		if n, err := res.RowsAffected(); err != nil || n != 100 {
			b.Fatalf("%d rows, %v", n, err)
		}
	}
}
