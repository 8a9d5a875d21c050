package sqlext_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/sqlearn/sqlearn/sqlext"
)

// startServer runs a server in-process on a random loopback port over dir.
func startServer(t testing.TB, dir string) (*sqlext.Server, string) {
	t.Helper()
	return startServerWith(t, dir, nil)
}

// startServerWith is startServer with the configuration changed by tweak.
func startServerWith(t testing.TB, dir string, tweak func(*sqlext.Config)) (*sqlext.Server, string) {
	t.Helper()
	cfg := sqlext.DefaultConfig()
	cfg.DataDir = dir
	cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	if tweak != nil {
		tweak(&cfg)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Listener = l
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	srv, err := sqlext.Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve()
	return srv, l.Addr().String()
}

// serve starts a server over a fresh directory, stopped when the test
// ends, and connects to it with no current database.
func serve(t *testing.T) (*sqlext.Server, string, *sql.DB) {
	t.Helper()
	srv, addr := startServer(t, t.TempDir())
	t.Cleanup(func() { srv.Close() })
	return srv, addr, connect(t, addr, "")
}

func connect(t testing.TB, addr, db string) *sql.DB {
	t.Helper()
	c, err := sql.Open("mysql", fmt.Sprintf("root@tcp(%s)/%s?parseTime=true&multiStatements=true", addr, db))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// connectAs connects to addr as account, "user:password", in database db
// (none when empty); the pool is closed when the test ends.
func connectAs(t testing.TB, addr, account, db string) *sql.DB {
	t.Helper()
	c, err := sql.Open("mysql", fmt.Sprintf("%s@tcp(%s)/%s", account, addr, db))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func mustExec(t *testing.T, db interface {
	Exec(string, ...any) (sql.Result, error)
}, q string, args ...any) sql.Result {
	t.Helper()
	r, err := db.Exec(q, args...)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return r
}

// openIn starts a server over dir and connects to it with no current
// database; the caller closes the server (to restart it over dir).
func openIn(t testing.TB, dir string) (*sqlext.Server, *sql.DB) {
	t.Helper()
	srv, addr := startServer(t, dir)
	return srv, connect(t, addr, "")
}

// mustExecAll runs statements in order, failing the test at the first error.
func mustExecAll(t testing.TB, db *sql.DB, stmts ...string) {
	t.Helper()
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// queryStrings runs q on db, a pool or one connection, and returns its
// rows as text, NULL as "NULL".
func queryStrings(t *testing.T, db querier, q string, args ...any) [][]string {
	t.Helper()
	rows, err := db.QueryContext(context.Background(), q, args...)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	out, err := rowStrings(rows)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// rowStrings reads the rows of rows' current result set as text, NULL as
// "NULL".
func rowStrings(rows *sql.Rows) ([][]string, error) {
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	var out [][]string
	for rows.Next() {
		vals := make([]sql.NullString, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return out, err
		}
		row := make([]string, len(cols))
		for i, v := range vals {
			if v.Valid {
				row[i] = v.String
			} else {
				row[i] = "NULL"
			}
		}
		out = append(out, row)
	}
	return out, rows.Err()
}

// querier is a *sql.DB or a *sql.Conn.
type querier interface {
	QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error)
}

func flat(rows [][]string) string {
	parts := make([]string, len(rows))
	for i, r := range rows {
		parts[i] = strings.Join(r, ",")
	}
	return strings.Join(parts, ";")
}

// wantAnswers runs each query and compares its flattened rows with the
// answer given; what names the situation in a failure.
func wantAnswers(t *testing.T, db *sql.DB, what string, answers map[string]string) {
	t.Helper()
	for q, want := range answers {
		if got := flat(queryStrings(t, db, q)); got != want {
			t.Errorf("%s: %s = %q, want %q", what, q, got, want)
		}
	}
}

func wantMySQLError(t *testing.T, err error, code uint16, state string) {
	t.Helper()
	var me *mysql.MySQLError
	if !errors.As(err, &me) {
		t.Fatalf("want MySQL error %d, got %v", code, err)
	}
	if me.Number != code || (state != "" && string(me.SQLState[:]) != state) {
		t.Fatalf("want error %d (%s), got %d (%s): %s", code, state, me.Number, string(me.SQLState[:]), me.Message)
	}
}

// wantMySQLMessage is wantMySQLError that also wants the error's text to
// be msg; what names the statement in a failure.
func wantMySQLMessage(t *testing.T, what string, err error, code uint16, state, msg string) {
	t.Helper()
	wantMySQLError(t, err, code, state)
	if me := new(mysql.MySQLError); errors.As(err, &me) && me.Message != msg {
		t.Errorf("%s: %q, want %q", what, me.Message, msg)
	}
}

// oneSession is a connection of its own, for statements that change the
// session, and a function that runs a statement on it. It is closed when
// the test ends.
func oneSession(t testing.TB, db *sql.DB) (*sql.Conn, func(q string) error) {
	t.Helper()
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn, func(q string) error {
		_, err := conn.ExecContext(context.Background(), q)
		return err
	}
}

// errorCode runs q, which must fail with a MySQL error, and returns its code.
func errorCode(t testing.TB, db *sql.DB, q string) uint16 {
	t.Helper()
	_, err := db.Exec(q)
	var me *mysql.MySQLError
	if !errors.As(err, &me) {
		t.Fatalf("%s: %v, want a MySQL error", q, err)
	}
	return me.Number
}

// refusal is a statement and the MySQL error code it must fail with.
type refusal struct {
	q    string
	code uint16
}

// wantRefused runs each statement and reports those that fail with
// another code.
func wantRefused(t testing.TB, db *sql.DB, cases ...refusal) {
	t.Helper()
	for _, c := range cases {
		if got := errorCode(t, db, c.q); got != c.code {
			t.Errorf("%s: error %d, want %d", c.q, got, c.code)
		}
	}
}

func TestDDLAndDML(t *testing.T) {
	srv, addr := startServer(t, t.TempDir())
	defer srv.Close()
	db := connect(t, addr, "")
	mustExec(t, db, "CREATE DATABASE shop")
	db = connect(t, addr, "shop")
	mustExec(t, db, `CREATE TABLE items (
		id INT PRIMARY KEY AUTO_INCREMENT,
		sku VARCHAR(16) NOT NULL,
		price DECIMAL(10,2),
		qty INT DEFAULT 0,
		UNIQUE KEY sku_u (sku),
		KEY price_i (price))`)
	mustExec(t, db, "INSERT INTO items (sku, price, qty) VALUES ('a', 1.50, 3), ('b', 2.25, 4), ('c', NULL, 5)")
	if got := flat(queryStrings(t, db, "SELECT id, sku, price, qty FROM items ORDER BY id")); got != "1,a,1.50,3;2,b,2.25,4;3,c,NULL,5" {
		t.Fatalf("select: %s", got)
	}
	// Point and range lookups through the indexes.
	if got := flat(queryStrings(t, db, "SELECT sku FROM items WHERE id = 2")); got != "b" {
		t.Fatalf("pk lookup: %s", got)
	}
	if got := flat(queryStrings(t, db, "SELECT sku FROM items WHERE price > 1.5 ORDER BY sku")); got != "b" {
		t.Fatalf("range lookup: %s", got)
	}
	if got := flat(queryStrings(t, db, "SELECT sku FROM items WHERE price IS NULL")); got != "c" {
		t.Fatalf("null lookup: %s", got)
	}
	// Duplicate keys: 1062 with SQLSTATE 23000, and the whole statement has no effect.
	_, err := db.Exec("INSERT INTO items (id, sku) VALUES (10, 'x'), (1, 'y')")
	wantMySQLError(t, err, 1062, "23000")
	_, err = db.Exec("INSERT INTO items (sku) VALUES ('a')")
	wantMySQLError(t, err, 1062, "23000")
	if got := flat(queryStrings(t, db, "SELECT COUNT(*) FROM items")); got != "3" {
		t.Fatalf("failed insert left rows: %s", got)
	}
	mustExec(t, db, "INSERT IGNORE INTO items (id, sku) VALUES (1, 'dup'), (4, 'd')")
	mustExec(t, db, "INSERT INTO items (id, sku, qty) VALUES (2, 'b', 1) ON DUPLICATE KEY UPDATE qty = qty + VALUES(qty)")
	mustExec(t, db, "REPLACE INTO items (id, sku, qty) VALUES (3, 'c2', 9)")
	if got := flat(queryStrings(t, db, "SELECT id, sku, qty FROM items ORDER BY id")); got != "1,a,3;2,b,5;3,c2,9;4,d,0" {
		t.Fatalf("ignore/odku/replace: %s", got)
	}
	mustExec(t, db, "UPDATE items SET qty = qty * 2 WHERE qty > 4")
	mustExec(t, db, "UPDATE items SET id = 40 WHERE id = 4")
	mustExec(t, db, "DELETE FROM items WHERE sku = 'a'")
	if got := flat(queryStrings(t, db, "SELECT id, sku, qty FROM items ORDER BY id")); got != "2,b,10;3,c2,18;40,d,0" {
		t.Fatalf("update/delete: %s", got)
	}
	_, err = db.Exec("UPDATE items SET sku = 'b' WHERE id = 3")
	wantMySQLError(t, err, 1062, "23000")
	// Auto-increment continues after the explicit 40.
	mustExec(t, db, "INSERT INTO items (sku) VALUES ('e')")
	if got := flat(queryStrings(t, db, "SELECT id FROM items WHERE sku = 'e'")); got != "41" {
		t.Fatalf("auto-increment: %s", got)
	}
	// ALTER TABLE.
	mustExec(t, db, "ALTER TABLE items ADD COLUMN note VARCHAR(20) DEFAULT 'none' AFTER sku")
	mustExec(t, db, "ALTER TABLE items ADD INDEX qty_i (qty)")
	// A unique index over duplicate values is refused as MySQL refuses
	// it, and is not created.
	mustExec(t, db, "INSERT INTO items (sku, qty) VALUES ('f', 10)")
	_, err = db.Exec("ALTER TABLE items ADD UNIQUE INDEX qty_u (qty)")
	wantMySQLError(t, err, 1062, "23000")
	if got := flat(queryStrings(t, db, "SELECT COUNT(*) FROM information_schema.STATISTICS WHERE index_name = 'qty_u'")); got != "0" {
		t.Fatalf("refused unique index left %s index columns", got)
	}
	mustExec(t, db, "DELETE FROM items WHERE sku = 'f'")
	if got := flat(queryStrings(t, db, "SELECT id, note FROM items WHERE qty = 10")); got != "2,none" {
		t.Fatalf("add column/index: %s", got)
	}
	mustExec(t, db, "ALTER TABLE items DROP INDEX qty_i")
	mustExec(t, db, "ALTER TABLE items DROP COLUMN note")
	mustExec(t, db, "ALTER TABLE items MODIFY COLUMN qty BIGINT")
	mustExec(t, db, "RENAME TABLE items TO goods")
	if got := flat(queryStrings(t, db, "SELECT COUNT(*), SUM(qty) FROM goods")); got != "4,28" {
		t.Fatalf("after alter/rename: %s", got)
	}
	// TRUNCATE counts no rows affected, as in MySQL (it counted the rows).
	if res, err := db.Exec("TRUNCATE TABLE goods"); err != nil {
		t.Fatal(err)
	} else if n, _ := res.RowsAffected(); n != 0 {
		t.Errorf("TRUNCATE: %d rows affected, want 0", n)
	}
	if got := flat(queryStrings(t, db, "SELECT COUNT(*) FROM goods")); got != "0" {
		t.Fatalf("truncate: %s", got)
	}
	// Keyless tables keep duplicates and delete one copy at a time.
	mustExec(t, db, "CREATE TABLE bag (v INT)")
	mustExec(t, db, "INSERT INTO bag VALUES (1), (1), (2)")
	mustExec(t, db, "DELETE FROM bag WHERE v = 1 LIMIT 1")
	if got := flat(queryStrings(t, db, "SELECT v FROM bag ORDER BY v")); got != "1;2" {
		t.Fatalf("keyless: %s", got)
	}
	// Views persist in the database.
	mustExec(t, db, "CREATE VIEW twos AS SELECT v FROM bag WHERE v = 2")
	if got := flat(queryStrings(t, db, "SELECT * FROM twos")); got != "2" {
		t.Fatalf("view: %s", got)
	}
	// A DELETE of every row names its table's database from a session
	// with none; it reports the rows it deleted.
	outside := connect(t, addr, "")
	if n, err := mustExec(t, outside, "DELETE FROM shop.bag").RowsAffected(); n != 2 || err != nil {
		t.Errorf("DELETE FROM shop.bag deleted %d rows (%v), want 2", n, err)
	}
	mustExec(t, db, "DROP TABLE bag")
	mustExec(t, db, "DROP DATABASE shop")
	// A table of a database that is gone is looked for, as in MySQL.
	_, err = db.Exec("SELECT * FROM shop.goods")
	wantMySQLMessage(t, "gone", err, 1146, "42S02", "Table 'shop.goods' doesn't exist")
	_, err = db.Exec("USE shop")
	wantMySQLMessage(t, "gone", err, 1049, "42000", "Unknown database 'shop'")
}

func TestTypesRoundTrip(t *testing.T) {
	srv, addr := startServer(t, t.TempDir())
	defer srv.Close()
	db := connect(t, addr, "")
	mustExec(t, db, "CREATE DATABASE ty")
	db = connect(t, addr, "ty")
	mustExec(t, db, `CREATE TABLE t (
		id BIGINT PRIMARY KEY, i8 TINYINT, u8 TINYINT UNSIGNED, i16 SMALLINT, i24 MEDIUMINT, i32 INT,
		u64 BIGINT UNSIGNED, f FLOAT, d DOUBLE, dc DECIMAL(30,10), c CHAR(4), vc VARCHAR(100),
		tx TEXT, bin BINARY(3), vb VARBINARY(10), bl LONGBLOB, dt DATE, dtm DATETIME(6), ts TIMESTAMP,
		j JSON, e ENUM('x','y'), s SET('p','q'), yr YEAR, tm TIME, b BIT(8))`)
	big := strings.Repeat("\x00\xffblob", 200000)
	stmt, err := db.Prepare("INSERT INTO t VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)")
	if err != nil {
		t.Fatal(err)
	}
	defer stmt.Close()
	_, err = stmt.Exec(1, -128, 255, -32768, -8388608, -2147483648, uint64(18446744073709551615), 1.5, 2.25e300,
		"12345678901234567890.0123456789", "abcd", "héllo wörld", strings.Repeat("t", 5000), []byte{0, 1, 2},
		[]byte{9, 0, 9}, []byte(big), "2024-02-29", "2024-02-29 13:14:15.123456", "2024-02-29 13:14:15",
		`{"a": [1, 2, {"b": null}]}`, "y", "p,q", 2024, "-838:59:59", 255)
	if err != nil {
		t.Fatal(err)
	}
	mustExec(t, db, "INSERT INTO t (id) VALUES (2)")
	got := queryStrings(t, db, "SELECT * FROM t ORDER BY id")
	want := []string{"1", "-128", "255", "-32768", "-8388608", "-2147483648", "18446744073709551615", "1.5", "2.25e+300",
		"12345678901234567890.0123456789", "abcd", "héllo wörld", strings.Repeat("t", 5000), "\x00\x01\x02",
		"\x09\x00\x09", big, "2024-02-29T00:00:00Z", "2024-02-29T13:14:15.123456Z", "2024-02-29T13:14:15Z",
		`{"a": [1, 2, {"b": null}]}`, "y", "p,q", "2024", "-838:59:59", "\xff"}
	for i, w := range want {
		if got[0][i] != w {
			g := got[0][i]
			if len(g) > 60 {
				g = g[:60] + "..."
			}
			t.Errorf("column %d: got %q", i, g)
		}
	}
	for i, v := range got[1][1:] {
		if v != "NULL" {
			t.Errorf("column %d of the NULL row: got %q", i+1, v)
		}
	}
}

func TestTransactionsIsolateAndRollBack(t *testing.T) {
	srv, addr := startServer(t, t.TempDir())
	defer srv.Close()
	db := connect(t, addr, "")
	mustExec(t, db, "CREATE DATABASE bank")
	a := connect(t, addr, "bank")
	a.SetMaxOpenConns(1)
	b := connect(t, addr, "bank")
	b.SetMaxOpenConns(1)
	mustExec(t, a, "CREATE TABLE acct (id INT PRIMARY KEY, bal INT)")
	mustExec(t, a, "INSERT INTO acct VALUES (1, 100), (2, 100)")
	ctx := context.Background()
	ta, err := a.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	mustExec(t, ta, "UPDATE acct SET bal = bal - 30 WHERE id = 1")
	mustExec(t, ta, "UPDATE acct SET bal = bal + 30 WHERE id = 2")
	mustExec(t, ta, "INSERT INTO acct VALUES (3, 0)")
	// The transaction sees its own writes; others see only committed data.
	var n int
	if err := ta.QueryRow("SELECT bal FROM acct WHERE id = 1").Scan(&n); err != nil || n != 70 {
		t.Fatalf("own write: %d %v", n, err)
	}
	if got := flat(queryStrings(t, b, "SELECT id, bal FROM acct ORDER BY id")); got != "1,100;2,100" {
		t.Fatalf("uncommitted data visible: %s", got)
	}
	if err := ta.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := flat(queryStrings(t, b, "SELECT id, bal FROM acct ORDER BY id")); got != "1,70;2,130;3,0" {
		t.Fatalf("after commit: %s", got)
	}
	tb, _ := b.BeginTx(ctx, nil)
	mustExec(t, tb, "DELETE FROM acct")
	mustExec(t, tb, "SAVEPOINT s1")
	mustExec(t, tb, "INSERT INTO acct VALUES (9, 9)")
	mustExec(t, tb, "ROLLBACK TO SAVEPOINT s1")
	if err := tb.QueryRow("SELECT COUNT(*) FROM acct").Scan(&n); err != nil || n != 0 {
		t.Fatalf("savepoint: %d %v", n, err)
	}
	// One never set is MySQL's 1305 (it was 1146, an unknown table).
	for _, q := range []string{"ROLLBACK TO SAVEPOINT nope", "RELEASE SAVEPOINT nope"} {
		_, err := tb.Exec(q)
		wantMySQLError(t, err, 1305, "42000")
	}
	if err := tb.Rollback(); err != nil {
		t.Fatal(err)
	}
	if got := flat(queryStrings(t, a, "SELECT SUM(bal) FROM acct")); got != "200" {
		t.Fatalf("after rollback: %s", got)
	}
	// A conflicting insert committed by another session fails this commit.
	tc, _ := a.BeginTx(ctx, nil)
	mustExec(t, tc, "INSERT INTO acct VALUES (5, 1)")
	mustExec(t, b, "INSERT INTO acct VALUES (5, 2)")
	err = tc.Commit()
	wantMySQLError(t, err, 1062, "23000")
	if got := flat(queryStrings(t, a, "SELECT bal FROM acct WHERE id = 5")); got != "2" {
		t.Fatalf("conflict: %s", got)
	}
}

func TestBadInputGetsMySQLErrors(t *testing.T) {
	srv, addr := startServer(t, t.TempDir())
	defer srv.Close()
	db := connect(t, addr, "")
	mustExec(t, db, "CREATE DATABASE e")
	db = connect(t, addr, "e")
	mustExec(t, db, "CREATE TABLE t (id INT PRIMARY KEY, s VARCHAR(3) NOT NULL, n TINYINT)")
	mustExec(t, db, "CREATE TABLE k (id INT PRIMARY KEY, d DATE, j JSON, m DECIMAL(5,2), e ENUM('x','y'))")
	cases := []struct {
		q     string
		code  uint16
		state string
	}{
		{"SELEKT 1", 1064, "42000"},
		{"SELECT * FROM nope", 1146, "42S02"},
		{"SELECT nope FROM t", 1054, "42S22"},
		{"USE nodb", 1049, "42000"},
		{"INSERT INTO t VALUES (1, NULL, 1)", 1048, "23000"},
		{"INSERT INTO t (id) VALUES (1)", 1364, "HY000"},
		{"INSERT INTO t VALUES (1, 'abcdef', 1)", 1406, "22001"},
		{"INSERT INTO t VALUES (1, 'a', 1000)", 1264, "22003"},
		{"INSERT INTO t VALUES (1, 'a', 1e309)", 1367, "22007"},
		{"SELECT -1e400", 1367, "22007"},
		{"INSERT INTO k (id, d) VALUES (1, '2024-13-45')", 1292, "22007"},
		{"INSERT INTO k (id, j) VALUES (1, '{bad')", 3140, "22032"},
		{"INSERT INTO k (id, m) VALUES (1, 12345.678)", 1264, "22003"},
		{"INSERT INTO k (id, e) VALUES (1, 'z')", 1265, "01000"},
		{"SELECT s FROM t GROUP BY n", 1055, "42000"},
		{"SELECT nosuchfn(1)", 1305, "42000"},
		{"CREATE TABLE u (a INT, a INT)", 1060, "42S21"},
		{"ALTER TABLE t ADD COLUMN s INT", 1060, "42S21"},
		{"SELECT * FROM t AS x JOIN t AS x", 1066, "42000"},
		{"SET @@nosuchvar = 1", 1193, "HY000"},
		{"SET sql_mode = 'NOPE'", 1231, "42000"},
		{"KILL 999999", 1094, "HY000"},
		{"KILL QUERY 999999", 1094, "HY000"},
		{"INSERT INTO t VALUES (1, 'a')", 1136, "21S01"},
		{"CREATE TABLE t (x INT)", 1050, "42S01"},
		{"CREATE DATABASE e", 1007, ""},
	}
	for _, c := range cases {
		_, err := db.Exec(c.q)
		t.Run(c.q, func(t *testing.T) { wantMySQLError(t, err, c.code, c.state) })
	}
	if got := flat(queryStrings(t, db, "SELECT (SELECT COUNT(*) FROM t), (SELECT COUNT(*) FROM k)")); got != "0,0" {
		t.Fatalf("failed statements left rows: %s", got)
	}
}

// TestDuplicateAndNullMessages: a duplicate key and a NULL in a NOT NULL
// column get MySQL's text (the key's values as a client reads them, the
// table and the index), as errors and as the warnings of INSERT IGNORE,
// which MySQL gives at the Warning level.
func TestDuplicateAndNullMessages(t *testing.T) {
	_, addr, db := serve(t)
	mustExecAll(t, db, "CREATE DATABASE dm",
		"CREATE TABLE dm.u (id INT PRIMARY KEY, e VARCHAR(5) UNIQUE, n INT NOT NULL)",
		"CREATE TABLE dm.c (a INT, b DATE, x VARBINARY(4), PRIMARY KEY (a, b), UNIQUE KEY bx (x))",
		"INSERT INTO dm.u VALUES (1, 'a', 1)", "INSERT INTO dm.c VALUES (1, '2024-01-01', 0x4142)")
	// In order: after the ALTER, the second INSERT into dm.c would collide
	// on two keys.
	for _, c := range []struct{ q, want string }{
		{"INSERT INTO dm.u VALUES (1, 'b', 1)", "Duplicate entry '1' for key 'u.PRIMARY'"},
		{"INSERT INTO dm.u VALUES (2, 'a', 1)", "Duplicate entry 'a' for key 'u.e'"},
		{"INSERT INTO dm.c VALUES (1, '2024-01-01', 0x43)", "Duplicate entry '1-2024-01-01' for key 'c.PRIMARY'"},
		{"INSERT INTO dm.c VALUES (2, '2024-01-01', 'AB')", "Duplicate entry 'AB' for key 'c.bx'"},
		{"INSERT INTO dm.u VALUES (3, 'c', NULL)", "Column 'n' cannot be null"},
		{"ALTER TABLE dm.c ADD UNIQUE KEY ab (b)", ""}, // one row: no duplicate
	} {
		_, err := db.Exec(c.q)
		var me *mysql.MySQLError
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.q, err)
		case c.want != "" && (!errors.As(err, &me) || me.Message != c.want):
			t.Errorf("%s: %v, want %q", c.q, err, c.want)
		}
	}
	conn, exec := oneSession(t, connect(t, addr, ""))
	if err := exec("INSERT IGNORE INTO dm.u VALUES (2, 'a', 1), (3, 'c', NULL)"); err != nil {
		t.Fatal(err)
	}
	rows, err := conn.QueryContext(t.Context(), "SHOW WARNINGS")
	if err != nil {
		t.Fatal(err)
	}
	var warnings []string
	for rows.Next() {
		var level, msg string
		var code int
		if err := rows.Scan(&level, &code, &msg); err != nil {
			t.Fatal(err)
		}
		warnings = append(warnings, fmt.Sprintf("%s %d %s", level, code, msg))
	}
	rows.Close()
	if got, want := strings.Join(warnings, "; "), "Warning 1062 Duplicate entry 'a' for key 'u.e'; Warning 1048 Column 'n' cannot be null"; got != want {
		t.Errorf("warnings of INSERT IGNORE:\n %s\nwant\n %s", got, want)
	}
	if got := flat(queryStrings(t, db, "SELECT id, e, n FROM dm.u ORDER BY id")); got != "1,a,1;3,c,0" {
		t.Errorf("rows after INSERT IGNORE: %s", got)
	}
}

// TestBlankStringInNumberColumn: a blank string stored in an integer or
// DECIMAL column is MySQL's 1366 in strict mode, naming the column and
// the row, and 0 with that warning under IGNORE or outside strict mode;
// numbers written as text are stored as before.
func TestBlankStringInNumberColumn(t *testing.T) {
	_, addr, db := serve(t)
	mustExecAll(t, db, "CREATE DATABASE bn", "CREATE TABLE bn.x (id INT PRIMARY KEY, n INT, d DECIMAL(5,2), f DOUBLE)")
	// In order: the UPDATE needs the row the ON DUPLICATE KEY UPDATE
	// inserts.
	for _, c := range []struct{ q, want string }{
		{"INSERT INTO bn.x VALUES (1, 2, 1, 1), (2, '', 1, 1)", "Incorrect integer value: '' for column 'n' at row 2"},
		{"INSERT INTO bn.x VALUES (3, 1, ' ', 1)", "Incorrect decimal value: ' ' for column 'd' at row 1"},
		{"INSERT INTO bn.x SELECT 4, '', 1, 1", "Incorrect integer value: '' for column 'n' at row 1"},
		{"INSERT INTO bn.x VALUES (5, 1, 1, 1) ON DUPLICATE KEY UPDATE n = ''", ""},
		{"UPDATE bn.x SET n = '' WHERE id = 5", "Incorrect integer value: '' for column 'n' at row 1"},
		{"INSERT INTO bn.x VALUES (6, '12', '3.5', '2')", ""},
	} {
		_, err := db.Exec(c.q)
		var me *mysql.MySQLError
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.q, err)
		case c.want != "" && (!errors.As(err, &me) || me.Number != 1366 || me.Message != c.want):
			t.Errorf("%s: %v, want 1366 %q", c.q, err, c.want)
		}
	}
	conn, exec := oneSession(t, connect(t, addr, ""))
	for _, q := range []string{"INSERT IGNORE INTO bn.x VALUES (7, '', '', 1)", "SET SESSION sql_mode = ''", "UPDATE bn.x SET d = '' WHERE id = 6"} {
		if err := exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	var level, msg string
	var code int
	if err := conn.QueryRowContext(t.Context(), "SHOW WARNINGS").Scan(&level, &code, &msg); err != nil ||
		fmt.Sprintf("%s %d %s", level, code, msg) != "Warning 1366 Incorrect decimal value: '' for column 'd' at row 1" {
		t.Errorf("warning outside strict mode: %s %d %s (%v)", level, code, msg, err)
	}
	// The refused statements stored nothing (row 1 went with row 2).
	if got := flat(queryStrings(t, db, "SELECT id, n, d FROM bn.x ORDER BY id")); got != "5,1,1.00;6,12,0.00;7,0,0.00" {
		t.Errorf("rows: %s", got)
	}
}
