package sqlext_test

import (
	"context"
	"strconv"
	"testing"

	gms "github.com/dolthub/go-mysql-server/sql"

	"github.com/sqlearn/sqlearn/sqlext"
)

// TestBulkInsert writes several log chunks through BulkInsert, keyed and
// keyless, with trusted and checked JSON, and checks that a duplicate key
// in a later chunk stops it with everything before that chunk committed
// and nothing after.
func TestBulkInsert(t *testing.T) {
	srv, _, db := serve(t)
	mustExec(t, db, "CREATE DATABASE b")
	mustExec(t, db, "CREATE TABLE b.k (id BIGINT PRIMARY KEY, v DOUBLE, doc JSON)")
	mustExec(t, db, "CREATE TABLE b.nk (v DOUBLE NOT NULL)")
	ctx := srv.NewContext(context.Background())
	const n = 10000 // three chunks
	rows := func(dupAt int) func(emit func(gms.Row) error) error {
		return func(emit func(gms.Row) error) error {
			for i := range n {
				id := int64(i)
				if i == dupAt {
					id = 5
				}
				var doc any = sqlext.ValidJSON(`{"i":` + strconv.Itoa(i) + `}`)
				if i%2 == 1 {
					doc = `[` + strconv.Itoa(i) + `]`
				}
				if err := emit(gms.Row{id, float64(i) / 2, doc}); err != nil {
					return err
				}
			}
			return nil
		}
	}
	got, err := srv.Provider().BulkInsert(ctx, "b", "k", rows(-1))
	if err != nil || got != n {
		t.Fatalf("BulkInsert: %d rows, %v", got, err)
	}
	if c := queryStrings(t, db, "SELECT COUNT(*), SUM(v) = 24997500 FROM b.k"); c[0][0] != "10000" || c[0][1] != "1" {
		t.Errorf("table holds %v", c)
	}
	if c := queryStrings(t, db, "SELECT JSON_EXTRACT(doc, '$.i') FROM b.k WHERE id = 9998 UNION ALL SELECT JSON_EXTRACT(doc, '$[0]') FROM b.k WHERE id = 7"); len(c) != 2 || c[0][0] != "9998" || c[1][0] != "7" {
		t.Errorf("JSON read back as %v", c)
	}
	mustExec(t, db, "TRUNCATE TABLE b.k")
	got, err = srv.Provider().BulkInsert(ctx, "b", "k", rows(9000))
	if !gms.ErrPrimaryKeyViolation.Is(err) {
		t.Fatalf("duplicate key in the third chunk: %d rows, %v", got, err)
	}
	c := queryStrings(t, db, "SELECT COUNT(*) FROM b.k")
	if c[0][0] != strconv.FormatInt(got, 10) || got != 8192 {
		t.Errorf("after the failure: BulkInsert reports %d rows, the table holds %s, want the first two chunks (8192)", got, c[0][0])
	}
	_, err = srv.Provider().BulkInsert(ctx, "b", "k", func(emit func(gms.Row) error) error {
		return emit(gms.Row{int64(-1), 1.0, "{not json"})
	})
	if err == nil {
		t.Error("invalid JSON text was accepted")
	}
	got, err = srv.Provider().BulkInsert(ctx, "b", "nk", func(emit func(gms.Row) error) error {
		for i := range n {
			if err := emit(gms.Row{float64(i)}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil || got != n {
		t.Fatalf("keyless BulkInsert: %d rows, %v", got, err)
	}
	if c := queryStrings(t, db, "SELECT COUNT(*), SUM(v) = 49995000 FROM b.nk"); c[0][0] != "10000" || c[0][1] != "1" {
		t.Errorf("keyless table holds %v", c)
	}
}
