package sqlext_test

import (
	"database/sql"
	"fmt"
	"testing"
)

// BenchmarkUpdateByRange updates 100 rows of a 20,000-row table by a
// range of its primary key written with BETWEEN:
//
//	go test -tags openblas -run '^$' -bench UpdateByRange -count 6 ./sqlext
func BenchmarkUpdateByRange(b *testing.B) {
	benchRanges(b, "UPDATE l SET x = x + 1 WHERE id BETWEEN ? AND ?", func(stmt *sql.Stmt, lo, hi int) error {
		res, err := stmt.Exec(lo, hi)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n != 100 {
			return fmt.Errorf("%d rows, %v", n, err)
		}
		return nil
	})
}
