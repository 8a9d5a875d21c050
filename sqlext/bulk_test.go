package sqlext_test

import (
	"context"
	"database/sql"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	gms "github.com/dolthub/go-mysql-server/sql"

	"github.com/sqlearn/sqlearn/sqlext"
	"github.com/sqlearn/sqlearn/storage"
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
	// JSON given as text is stored as an INSERT stores it, so updating
	// the row finds it unchanged.
	_, err = srv.Provider().BulkInsert(ctx, "b", "k", func(emit func(gms.Row) error) error {
		return emit(gms.Row{int64(-2), 1.0, `{"b": [1, 2], "a": "x"}`})
	})
	if err != nil {
		t.Fatal(err)
	}
	mustExec(t, db, "UPDATE b.k SET v = 2 WHERE id = -2")
	if c := queryStrings(t, db, "SELECT v, JSON_EXTRACT(doc, '$.a') FROM b.k WHERE id = -2"); c[0][0] != "2" || c[0][1] != `"x"` {
		t.Errorf("after the update: %v", c)
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
	// A row without an AUTO_INCREMENT value takes one after the values
	// given before it, as when an INSERT's rows go in one by one.
	mustExec(t, db, "CREATE TABLE b.ai (id BIGINT AUTO_INCREMENT PRIMARY KEY, n INT)")
	_, err = srv.Provider().BulkInsert(ctx, "b", "ai", func(emit func(gms.Row) error) error {
		for i, id := range []any{int32(100), nil, nil, int64(50), nil} {
			if err := emit(gms.Row{id, int64(i)}); err != nil {
				return err
			}
		}
		return nil
	})
	if c := flat(queryStrings(t, db, "SELECT id FROM b.ai ORDER BY n")); err != nil || c != "100;101;102;50;103" {
		t.Errorf("auto-increment values %s (%v), want 100;101;102;50;103", c, err)
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

	// A table with a foreign key is refused: its parent would go unchecked.
	mustExec(t, db, "CREATE TABLE b.child (id BIGINT PRIMARY KEY, k BIGINT, FOREIGN KEY (k) REFERENCES b.k (id))")
	_, err = srv.Provider().BulkInsert(ctx, "b", "child", func(emit func(gms.Row) error) error {
		return emit(gms.Row{int64(1), int64(-1)})
	})
	if err == nil || !strings.Contains(err.Error(), "FOREIGN KEY") {
		t.Errorf("BulkInsert into a table with a foreign key: %v, want a refusal", err)
	}
	if c := flat(queryStrings(t, db, "SELECT COUNT(*) FROM b.child")); c != "0" {
		t.Errorf("the refused insert left %s rows", c)
	}
}

// appendBatch builds a batch of storage values for a table's layout.
func appendBatch(t *testing.T, srv *sqlext.Server, db, table string, rows [][]any) arrow.RecordBatch {
	t.Helper()
	info, err := srv.Store().Table(db, table)
	if err != nil {
		t.Fatal(err)
	}
	sch := storage.ArrowSchema(info.Schema)
	cols := make([]arrow.Array, len(info.Schema.Columns))
	for c, col := range info.Schema.Columns {
		b := storage.NewColumnBuilder(col.Kind)
		for _, r := range rows {
			storage.AppendValue(b, r[c])
		}
		cols[c] = b.NewArray()
	}
	return array.NewRecordBatch(sch, cols, int64(len(rows)))
}

// bulkTables serves database b with the tables ddl makes, and the
// context and provider to append to them with.
func bulkTables(t *testing.T, ddl ...string) (*sqlext.Server, *sql.DB, *gms.Context, *sqlext.Provider) {
	srv, _, db := serve(t)
	mustExec(t, db, "CREATE DATABASE b")
	for _, q := range ddl {
		mustExec(t, db, q)
	}
	return srv, db, srv.NewContext(context.Background()), srv.Provider()
}

// TestBulkAppend writes batches of columns, checks them as an INSERT
// would, fills AUTO_INCREMENT values, and leaves the table readable
// through its indexes; a failing batch stops the append with the batches
// before it committed.
func TestBulkAppend(t *testing.T) {
	srv, db, ctx, p := bulkTables(t,
		"CREATE TABLE b.a (id BIGINT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(5), n INT, v DOUBLE NOT NULL, doc JSON, d DECIMAL(6,2), KEY by_name (name))",
		"CREATE TABLE b.nk (v DOUBLE NOT NULL, name TEXT)")
	const per = 3000
	batch := func(from int) [][]any {
		var rows [][]any
		for i := from; i < from+per; i++ {
			var id any = int64(i + 1000000)
			if i%10 == 0 {
				id = nil // takes the next auto-increment value
			}
			rows = append(rows, []any{id, "n" + strconv.Itoa(i%100), int64(i), float64(i), `{"i":` + strconv.Itoa(i) + `}`, "1.5"})
		}
		return rows
	}
	emitAll := func(batches ...[][]any) func(emit func(arrow.RecordBatch) error) error {
		return func(emit func(arrow.RecordBatch) error) error {
			for _, rows := range batches {
				rec := appendBatch(t, srv, "b", "a", rows)
				err := emit(rec)
				rec.Release()
				if err != nil {
					return err
				}
			}
			return nil
		}
	}
	got, err := p.BulkAppend(ctx, "b", "a", sqlext.AppendOptions{}, emitAll(batch(0), batch(per)))
	if err != nil || got != 2*per {
		t.Fatalf("BulkAppend: %d rows, %v", got, err)
	}
	if c := queryStrings(t, db, "SELECT COUNT(*), SUM(n) = 17997000, COUNT(DISTINCT id), MAX(id) > 6000, SUM(d) = 9000 FROM b.a"); c[0][0] != "6000" || c[0][1] != "1" || c[0][2] != "6000" || c[0][3] != "1" || c[0][4] != "1" {
		t.Errorf("table holds %v", c)
	}
	// A row without a key takes the next value after the keys given before
	// it, as when an INSERT's rows go in one by one: the value its
	// neighbours' keys leave for it (the first row, before any key, takes
	// 1), whichever batch, still in flight or not, the earlier keys came in.
	if c := queryStrings(t, db, "SELECT COUNT(*) FROM b.a WHERE id = n + 1000000 OR (n = 0 AND id = 1)"); c[0][0] != "6000" {
		t.Errorf("%v rows hold the key their position gives, want 6000", c)
	}
	if c := queryStrings(t, db, "SELECT COUNT(*), MIN(n) FROM b.a WHERE name = 'n42'"); c[0][0] != "60" || c[0][1] != "42" {
		t.Errorf("index lookup gives %v", c)
	}
	if c := queryStrings(t, db, "SELECT JSON_EXTRACT(doc, '$.i') FROM b.a WHERE id = 1000002"); c[0][0] != "2" {
		t.Errorf("JSON read back as %v", c)
	}
	// Appended rows are stored as an INSERT stores them, so a statement
	// that reads them back and writes them again sees no conflict.
	mustExec(t, db, "UPDATE b.a SET n = n + 1 WHERE id = 1000002")
	mustExec(t, db, "DELETE FROM b.a WHERE id = 1000003")
	mustExec(t, db, "INSERT INTO b.a (id, name, v) VALUES (1000003, 'back', 3)")
	mustExec(t, db, "INSERT INTO b.a (name, v) VALUES ('last', 1)")
	if c := queryStrings(t, db, "SELECT id > 6000 FROM b.a WHERE name = 'last'"); c[0][0] != "1" {
		t.Errorf("auto-increment after the append: %v", c)
	}

	from := 100000
	bad := func(mutate func(r []any)) [][]any {
		from += per // fresh keys, so only the mutation can fail the batch
		rows := batch(from)
		for i, r := range rows {
			r[0] = int64(from + i + 1000000)
		}
		mutate(rows[per/2])
		return rows
	}
	cases := []struct {
		name string
		rows [][]any
	}{
		{"string too long", bad(func(r []any) { r[1] = "toolong" })},
		{"INT out of range", bad(func(r []any) { r[2] = int64(1) << 40 })},
		{"NULL in NOT NULL", bad(func(r []any) { r[3] = nil })},
		{"invalid JSON", bad(func(r []any) { r[4] = "{nope" })},
		{"JSON not in stored form", bad(func(r []any) { r[4] = `{"b": 1, "a": 2}` })},
		{"not a decimal", bad(func(r []any) { r[5] = "abc" })},
		{"decimal not in stored form", bad(func(r []any) { r[5] = "1.50" })},
		{"duplicate key", bad(func(r []any) { r[0] = int64(1000002) })},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := queryStrings(t, db, "SELECT COUNT(*) FROM b.a")[0][0]
			got, err := p.BulkAppend(ctx, "b", "a", sqlext.AppendOptions{}, emitAll(c.rows))
			if err == nil || got != 0 {
				t.Fatalf("accepted: %d rows, %v", got, err)
			}
			if after := queryStrings(t, db, "SELECT COUNT(*) FROM b.a")[0][0]; after != before {
				t.Fatalf("%s rows before, %s after", before, after)
			}
		})
	}
	// A failure in the second batch keeps the first, as BulkInsert does.
	got, err = p.BulkAppend(ctx, "b", "a", sqlext.AppendOptions{}, emitAll(batch(200000), bad(func(r []any) { r[0] = int64(1000002) })))
	if !gms.ErrPrimaryKeyViolation.Is(err) || got != per {
		t.Fatalf("failing second batch: %d rows, %v", got, err)
	}
	// A batch of the wrong layout is refused before anything is written.
	wrong := array.NewRecordBatch(storage.ArrowSchema(&storage.Schema{Columns: []storage.Column{{Name: "v", Kind: storage.KindString}}}), []arrow.Array{func() arrow.Array {
		b := storage.NewColumnBuilder(storage.KindString)
		storage.AppendValue(b, "x")
		return b.NewArray()
	}()}, 1)
	if _, err := p.BulkAppend(ctx, "b", "a", sqlext.AppendOptions{}, func(emit func(arrow.RecordBatch) error) error { return emit(wrong) }); err == nil {
		t.Error("a batch of the wrong layout was accepted")
	}

	got, err = p.BulkAppend(ctx, "b", "nk", sqlext.AppendOptions{}, func(emit func(arrow.RecordBatch) error) error {
		for k := 0; k < 3; k++ {
			var rows [][]any
			for i := 0; i < per; i++ {
				rows = append(rows, []any{float64(i), nil})
			}
			rec := appendBatch(t, srv, "b", "nk", rows)
			if err := emit(rec); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil || got != 3*per {
		t.Fatalf("keyless BulkAppend: %d rows, %v", got, err)
	}
	if c := queryStrings(t, db, "SELECT COUNT(*), SUM(v) = 13495500 FROM b.nk"); c[0][0] != "9000" || c[0][1] != "1" {
		t.Errorf("keyless table holds %v", c)
	}
}

// TestBulkAppendJSONStruct sends JSON columns as Arrow structs, which
// each node writes as text: the stored documents are those an INSERT of
// the same JSON stores (a copy through SQL compares equal as text), a
// NULL struct row is SQL NULL, and a NULL for a NOT NULL column, an
// infinity, or a struct for a column that is not JSON fail the append with nothing
// written.
func TestBulkAppendJSONStruct(t *testing.T) {
	_, db, ctx, p := bulkTables(t,
		"CREATE TABLE b.j (id BIGINT PRIMARY KEY, doc JSON, req JSON NOT NULL, s TEXT)",
		"CREATE TABLE b.j2 LIKE b.j")
	docType := arrow.StructOf(
		arrow.Field{Name: "p", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		arrow.Field{Name: "name", Type: arrow.BinaryTypes.LargeString, Nullable: true},
		arrow.Field{Name: "n", Type: arrow.StructOf(arrow.Field{Name: "k", Type: arrow.PrimitiveTypes.Int64}), Nullable: true},
	)
	// build makes rows [from, from+n) with docs in columns doc and req
	// (req's row `nullReq` NULL), s as text or, with sAsStruct, a struct.
	build := func(from, n int, p float64, nullReq int, sAsStruct bool) arrow.RecordBatch {
		ids := array.NewInt64Builder(memory.DefaultAllocator)
		defer ids.Release()
		var docs [2]arrow.Array
		for c := range docs {
			b := array.NewStructBuilder(memory.DefaultAllocator, docType)
			for i := from; i < from+n; i++ {
				if c == 0 {
					ids.Append(int64(i))
				}
				if (c == 0 && i%5 == 0) || (c == 1 && i == nullReq) {
					b.AppendNull()
					continue
				}
				b.Append(true)
				b.FieldBuilder(0).(*array.Float64Builder).Append(float64(i) / p)
				b.FieldBuilder(1).(*array.LargeStringBuilder).Append("n<" + strconv.Itoa(i) + `>"é`)
				nb := b.FieldBuilder(2).(*array.StructBuilder)
				nb.Append(true)
				nb.FieldBuilder(0).(*array.Int64Builder).Append(int64(i) * int64(i))
			}
			docs[c] = b.NewArray()
			b.Release()
		}
		s := docs[1]
		if !sAsStruct {
			sb := array.NewLargeStringBuilder(memory.DefaultAllocator)
			defer sb.Release()
			for i := from; i < from+n; i++ {
				sb.Append("t" + strconv.Itoa(i))
			}
			s = sb.NewArray()
		} else {
			s.Retain()
		}
		cols := []arrow.Array{ids.NewArray(), docs[0], docs[1], s}
		fields := make([]arrow.Field, len(cols))
		for i, name := range []string{"id", "doc", "req", "s"} {
			fields[i] = arrow.Field{Name: name, Type: cols[i].DataType(), Nullable: true}
		}
		rec := array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, int64(n))
		for _, c := range cols {
			c.Release()
		}
		return rec
	}
	appendOne := func(rec arrow.RecordBatch) (int64, error) {
		defer rec.Release()
		return p.BulkAppend(ctx, "b", "j", sqlext.AppendOptions{}, func(emit func(arrow.RecordBatch) error) error { return emit(rec) })
	}
	if got, err := appendOne(build(0, 5000, 7, -1, false)); err != nil || got != 5000 {
		t.Fatalf("BulkAppend: %d rows, %v", got, err)
	}
	want := "SELECT COUNT(*) FROM b.j WHERE doc IS NULL AND id % 5 = 0 OR " +
		`CAST(doc AS CHAR) = CAST(JSON_OBJECT('p', id / 7e0, 'name', CONCAT('n<', id, '>"é'), 'n', JSON_OBJECT('k', id * id)) AS CHAR)`
	if c := queryStrings(t, db, want); c[0][0] != "5000" {
		t.Errorf("%s rows of 5000 hold the documents JSON_OBJECT makes", c[0][0])
	}
	mustExec(t, db, "INSERT INTO b.j2 SELECT * FROM b.j")
	if c := queryStrings(t, db, "SELECT COUNT(*) FROM b.j JOIN b.j2 c USING (id) WHERE CAST(b.j.req AS CHAR) = CAST(c.req AS CHAR) AND (b.j.doc IS NULL AND c.doc IS NULL OR CAST(b.j.doc AS CHAR) = CAST(c.doc AS CHAR))"); c[0][0] != "5000" {
		t.Errorf("%s rows of 5000 read back and stored again as the same text", c[0][0])
	}
	for name, rec := range map[string]arrow.RecordBatch{
		"NULL in NOT NULL": build(10000, 100, 7, 10050, false),
		"infinity":         build(20000, 100, 0, -1, false), // i/0
		"struct for TEXT":  build(30000, 100, 7, -1, true),
	} {
		t.Run(name, func(t *testing.T) {
			got, err := appendOne(rec)
			if err == nil || got != 0 {
				t.Fatalf("accepted: %d rows, %v", got, err)
			}
			t.Log(err)
			if c := queryStrings(t, db, "SELECT COUNT(*) FROM b.j"); c[0][0] != "5000" {
				t.Fatalf("%s rows after a refused append", c[0][0])
			}
		})
	}
}
