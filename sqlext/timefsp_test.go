package sqlext_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/sqlearn/sqlearn/sqlext"
)

// TestTimeColumnsRoundToTheirDigits: a TIME(n) column stores a value
// rounded to n fractional digits, half away from zero, negative times and
// hours past 24 included, and writes it with exactly n digits, as MySQL
// does, whichever statement writes it. The engine refused TIME(n) and
// kept every TIME to six digits.
func TestTimeColumnsRoundToTheirDigits(t *testing.T) {
	_, _, db := serve(t)
	mustExecAll(t, db,
		"CREATE DATABASE tf",
		"CREATE TABLE tf.t (id INT PRIMARY KEY, a TIME, b TIME(2), c TIME(6), d TIME(0))",
		"INSERT INTO tf.t VALUES (1, '12:34:56.789', '12:34:56.789', '12:34:56.789', '12:34:56.5')",
		"INSERT INTO tf.t VALUES (2, '-12:34:56.5', '-12:34:56.555', '-1:2:3.1234567', '-0:0:0.4')",
		"INSERT INTO tf.t VALUES (3, '838:59:59.4', '100:00:00.005', '0:0:0.0000004', '23:59:59.999')",
		"INSERT INTO tf.t VALUES (4, 123456.789, 123456.789, 123456.789, -123456.5)",
		"INSERT INTO tf.t VALUES (5, '838:59:59.5', '-838:59:59.999', '1 02:03:04.5', '59.5')",
		"INSERT INTO tf.t VALUES (6, NULL, '12:00', '12', 1234.6)")
	wantAnswers(t, db, "inserted", map[string]string{
		"SELECT id, a, b, c, d FROM tf.t ORDER BY id": "1,12:34:57,12:34:56.79,12:34:56.789000,12:34:57;" +
			"2,-12:34:57,-12:34:56.56,-01:02:03.123457,00:00:00;" +
			"3,838:59:59,100:00:00.01,00:00:00.000000,24:00:00;" +
			"4,12:34:57,12:34:56.79,12:34:56.789000,-12:34:57;" +
			"5,838:59:59,-838:59:59.00,26:03:04.500000,00:01:00;" +
			"6,NULL,12:00:00.00,00:00:12.000000,00:12:35",
		// As text, a TIME(n) has its n digits.
		"SELECT CONCAT(a, '|', b, '|', c) FROM tf.t WHERE id = 1": "12:34:57|12:34:56.79|12:34:56.789000",
		// And as a number, n decimals.
		"SELECT a + 0, b + 0, c + 0 FROM tf.t WHERE id = 2": "-123457,-123456.56,-10203.123457",
		// Date arithmetic keeps a TIME(n) a TIME, with the digits of the
		// time and of the interval.
		"SELECT b + INTERVAL 1 HOUR, DATE_SUB(b, INTERVAL 1 MICROSECOND), a - INTERVAL 1 SECOND FROM tf.t WHERE id = 1": "13:34:56.79,12:34:56.789999,12:34:56",
	})
	// JSON_TABLE's columns take TIME(n) too.
	wantAnswers(t, db, "json_table", map[string]string{
		`SELECT t, u FROM JSON_TABLE('[{"t": "12:34:56.789"}]', '$[*]' COLUMNS (t TIME(2) PATH '$.t', u TIME PATH '$.t')) AS jt`: "12:34:56.79,12:34:57",
	})
	// A value given as a prepared statement's argument.
	mustExec(t, db, "INSERT INTO tf.t (id, a, b) VALUES (?, ?, ?)", 7, "01:02:03.5", "-01:02:03.456")
	wantAnswers(t, db, "bound", map[string]string{
		"SELECT a, b FROM tf.t WHERE id = 7": "01:02:04,-01:02:03.46",
	})
	mustExec(t, db, "DELETE FROM tf.t WHERE id = 7")

	mustExecAll(t, db,
		"UPDATE tf.t SET a = '01:02:03.5', b = '-00:00:01.995' WHERE id = 6",
		"CREATE TABLE tf.u (id INT PRIMARY KEY, a TIME, b TIME(1))",
		"INSERT INTO tf.u SELECT id, c, c FROM tf.t WHERE id IN (1, 2, 5)",
		"INSERT INTO tf.u VALUES (1, '00:00:00', '00:00:00') ON DUPLICATE KEY UPDATE b = '10:00:00.25'")
	wantAnswers(t, db, "updated and copied", map[string]string{
		"SELECT a, b FROM tf.t WHERE id = 6": "01:02:04,-00:00:02.00",
		"SELECT id, a, b FROM tf.u ORDER BY id": "1,12:34:57,10:00:00.3;" +
			"2,-01:02:03,-01:02:03.1;" +
			"5,26:03:05,26:03:04.5",
	})

	// A column added or changed takes its digits; values already there
	// are rounded to them.
	mustExecAll(t, db,
		"ALTER TABLE tf.u ADD COLUMN e TIME(3) DEFAULT '01:02:03.45678'",
		"ALTER TABLE tf.u MODIFY COLUMN b TIME",
		"INSERT INTO tf.u (id, a) VALUES (7, '00:00:00.5')")
	wantAnswers(t, db, "altered", map[string]string{
		"SELECT id, a, b, e FROM tf.u ORDER BY id": "1,12:34:57,10:00:00,01:02:03.457;" +
			"2,-01:02:03,-01:02:03,01:02:03.457;" +
			"5,26:03:05,26:03:05,01:02:03.457;" +
			"7,00:00:01,NULL,01:02:03.457",
		// Compared as the values they hold.
		"SELECT id FROM tf.t WHERE b = '12:34:56.79' ORDER BY id":      "1;4",
		"SELECT id FROM tf.t WHERE b > '100:00:00' ORDER BY id":        "3",
		"SELECT COUNT(*) FROM tf.t WHERE c BETWEEN '-2:00' AND '1:00'": "3",
		"SELECT MAX(b), MIN(c) FROM tf.t":                              "100:00:00.01,-01:02:03.123457",
	})
}

// TestTimeComparisons: a TIME(n) column compared with a time of more
// digits is compared with that time, whether an index serves the
// lookup or not; text that is no time compares as 00:00:00 with warning
// 1292, as in MySQL (the engine failed the statement).
func TestTimeComparisons(t *testing.T) {
	_, _, db := serve(t)
	mustExecAll(t, db,
		"CREATE DATABASE tk",
		"CREATE TABLE tk.t (id INT PRIMARY KEY, b TIME(2), KEY (b))",
		"CREATE TABLE tk.u (id INT PRIMARY KEY, b TIME(2))",
		"INSERT INTO tk.t VALUES (1, '01:00:00'), (2, '00:00:00'), (3, '00:00:00.01'), (4, '-00:00:00.01')",
		"INSERT INTO tk.u SELECT * FROM tk.t")
	for _, table := range []string{"tk.t", "tk.u"} {
		for cond, want := range map[string]string{
			"b = '1:00'":                                   "1",
			"b = '00:00:00.004'":                           "NULL",
			"b < '00:00:00.004'":                           "2,4",
			"b <= '-00:00:00.006'":                         "4",
			"b > '00:00:00.006'":                           "1,3",
			"b >= '00:00:00.004'":                          "1,3",
			"b BETWEEN '-00:00:00.005' AND '00:00:00.005'": "2",
			"b IN ('00:00:00.01', '1:00:00')":              "1,3",
			"b = 'zz'":                                     "2",
			"b > 'zz'":                                     "1,3",
		} {
			q := "SELECT GROUP_CONCAT(id ORDER BY id) FROM " + table + " WHERE " + cond
			if got := flat(queryStrings(t, db, q)); got != want {
				t.Errorf("%s = %s, want %s", q, got, want)
			}
		}
	}
	conn, _ := oneSession(t, db)
	queryStrings(t, conn, "SELECT id FROM tk.t WHERE b = 'zz'")
	if got := flat(queryStrings(t, conn, "SHOW WARNINGS")); !strings.Contains(got, "1292,Truncated incorrect time value: 'zz'") {
		t.Errorf("warnings = %s", got)
	}
}

// TestTimeFractionsLoadData: LOAD DATA rounds a TIME(n) column's values
// as INSERT does.
func TestTimeFractionsLoadData(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "times.tsv")
	if err := os.WriteFile(in, []byte("1\t12:34:56.789\t12:34:56.789\n2\t-100:00:00.5\t-100:00:00.555\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv, addr := startServerWith(t, t.TempDir(), func(c *sqlext.Config) { c.ImportDir = dir })
	t.Cleanup(func() { srv.Close() })
	db := connect(t, addr, "")
	mustExecAll(t, db,
		"CREATE DATABASE tl",
		"CREATE TABLE tl.t (id INT PRIMARY KEY, a TIME, b TIME(2))",
		"LOAD DATA INFILE '"+in+"' INTO TABLE tl.t")
	wantAnswers(t, db, "loaded", map[string]string{
		"SELECT id, a, b FROM tl.t ORDER BY id": "1,12:34:57,12:34:56.79;2,-100:00:01,-100:00:00.56",
	})
}

// TestTimeFractionsInPreparedStatements: the binary protocol gives a
// TIME(n) column n decimals, from which the Go driver writes exactly n
// digits; with the engine's none it dropped a TIME(2)'s fraction.
func TestTimeFractionsInPreparedStatements(t *testing.T) {
	_, _, db := serve(t)
	mustExecAll(t, db,
		"CREATE DATABASE tp",
		"CREATE TABLE tp.t (id INT PRIMARY KEY, a TIME, b TIME(2), c TIME(6))",
		"INSERT INTO tp.t VALUES (1, '12:34:56.789', '-12:34:56.789', '100:00:00.5'), (2, '00:00:00', '00:00:00', '00:00:00')")
	// With arguments, the driver prepares the statement and reads binary
	// rows.
	for _, c := range []struct {
		q    string
		args []any
		want string
	}{
		{"SELECT a, b, c FROM tp.t WHERE id = ?", []any{1}, "12:34:57,-12:34:56.79,100:00:00.500000"},
		{"SELECT a, b, c FROM tp.t WHERE id = ?", []any{2}, "00:00:00,00:00:00.00,00:00:00.000000"},
		// The engine's TIME of a function keeps no digits for a whole
		// second (MySQL's TIMEDIFF of these has none).
		{"SELECT CAST(? AS TIME(2)), CAST(? AS TIME), TIMEDIFF(?, '00:00:01')", []any{"12:34:56.789", "12:34:56.789", "00:01:00"}, "12:34:56.79,12:34:57,00:00:59"},
	} {
		if got := flat(queryStrings(t, db, c.q, c.args...)); got != c.want {
			t.Errorf("%s %v = %q, want %q", c.q, c.args, got, c.want)
		}
	}
	// The same query as text.
	wantAnswers(t, db, "text rows", map[string]string{
		"SELECT a, b, c FROM tp.t WHERE id = 1": "12:34:57,-12:34:56.79,100:00:00.500000",
	})
}

// TestComputedTimeDigits: TIMEDIFF, TIME(), SEC_TO_TIME and MAKETIME
// give a TIME with MySQL's fractional digits: those of their temporal
// arguments (of a string literal as written, six for other text), of an
// exact number's scale, six for a float; in text and in binary results,
// which the driver writes by the column's decimals. The engine gave six
// digits when a value had a fraction and none otherwise, and reported no
// decimals, so binary results dropped the fraction.
func TestComputedTimeDigits(t *testing.T) {
	_, _, db := serve(t)
	mustExecAll(t, db,
		"CREATE DATABASE td",
		"CREATE TABLE td.t (id INT PRIMARY KEY, a TIME(2), b TIME, d DATETIME(3), s VARCHAR(20))",
		"INSERT INTO td.t VALUES (1, '10:00:00.25', '09:00:00', '2024-01-01 10:00:00.125', '11:00:00.5')")
	want := map[string]string{
		"SELECT TIMEDIFF('00:00:01.5', '00:00:01'), TIMEDIFF('10:00:00', '09:00:00'), TIMEDIFF('2024-01-02 00:00:00.25', '2024-01-01 00:00:00')": "00:00:00.5,01:00:00,24:00:00.25",
		"SELECT SEC_TO_TIME(1.25), SEC_TO_TIME(3661), SEC_TO_TIME(1.5e0), MAKETIME(1, 2, 3.5), MAKETIME(1, 2, 3)":                                "00:00:01.25,01:01:01,00:00:01.500000,01:02:03.5,01:02:03",
		"SELECT TIME('2024-01-01 10:00:00.5'), TIME('10:00'), ADDTIME(TIMEDIFF('00:00:01.5', '00:00:01'), '00:00:01')":                           "10:00:00.5,10:00:00,00:00:01.5",
		"SELECT TIMEDIFF(a, b), TIMEDIFF(b, a), TIME(d), TIMEDIFF(s, b), TIME(a), TIME(s), TIMEDIFF(NULL, b) FROM td.t":                          "01:00:00.25,-01:00:00.25,10:00:00.125,02:00:00.500000,10:00:00.25,11:00:00.500000,NULL",
	}
	wantAnswers(t, db, "text rows", want)
	// Binary rows (the driver prepares a statement with arguments).
	for q, w := range want {
		if got := flat(queryStrings(t, db, q+" LIMIT ?", 1)); got != w {
			t.Errorf("binary %s = %q, want %q", q, got, w)
		}
	}
	// CURTIME(n) has n digits (the engine gave none), and is the
	// session's time of day, as NOW() is.
	conn, exec := oneSession(t, db)
	if err := exec("SET time_zone = '+05:00'"); err != nil {
		t.Fatal(err)
	}
	var c0, c3, c6, u2 string
	var same, utcSame int
	if err := conn.QueryRowContext(t.Context(), "SELECT CURTIME(), CURTIME(3), CURRENT_TIME(6), CURTIME() = TIME(NOW()), UTC_TIME(2), MOD(TIME_TO_SEC(UTC_TIME()) - TIME_TO_SEC(TIME(UTC_TIMESTAMP())) + 86401, 86400) < 3").Scan(&c0, &c3, &c6, &same, &u2, &utcSame); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		v      string
		digits int
	}{{c0, 0}, {c3, 3}, {c6, 6}, {u2, 2}} {
		layout := `^\d\d:\d\d:\d\d$`
		if c.digits > 0 {
			layout = `^\d\d:\d\d:\d\d\.\d{` + strconv.Itoa(c.digits) + `}$`
		}
		if !regexp.MustCompile(layout).MatchString(c.v) {
			t.Errorf("%q has not %d digits", c.v, c.digits)
		}
	}
	if same != 1 || utcSame != 1 {
		t.Errorf("CURTIME() = TIME(NOW()): %d, UTC_TIME() within a second of UTC_TIMESTAMP(): %d", same, utcSame)
	}
	for _, q := range []string{"SELECT CURTIME(7)", "SELECT UTC_TIME(7)"} {
		_, err := db.Exec(q)
		wantMySQLError(t, err, 1426, "42000")
	}
}

// TestTimeTypesInSchema: SHOW CREATE TABLE, SHOW COLUMNS, DESCRIBE and
// information_schema.COLUMNS name a TIME column time and a TIME(n)
// time(n), with n as its DATETIME_PRECISION; the engine named every TIME
// time(6).
func TestTimeTypesInSchema(t *testing.T) {
	_, _, db := serve(t)
	mustExecAll(t, db,
		"CREATE DATABASE ts",
		"CREATE TABLE ts.t (a TIME, b TIME(0), c TIME(3) NOT NULL DEFAULT '01:02:03.4567', d TIME(6), e DATETIME(2))")
	rows := queryStrings(t, db, "SHOW CREATE TABLE ts.t")
	want := "CREATE TABLE `t` (\n" +
		"  `a` time DEFAULT NULL,\n" +
		"  `b` time DEFAULT NULL,\n" +
		"  `c` time(3) NOT NULL DEFAULT '01:02:03.457',\n" +
		"  `d` time(6) DEFAULT NULL,\n" +
		"  `e` datetime(2) DEFAULT NULL\n"
	if len(rows) != 1 || len(rows[0][1]) < len(want) || rows[0][1][:len(want)] != want {
		t.Errorf("SHOW CREATE TABLE = %q, want it to start %q", rows, want)
	}
	wantAnswers(t, db, "schema", map[string]string{
		"SELECT COLUMN_NAME, DATA_TYPE, COLUMN_TYPE, IFNULL(DATETIME_PRECISION, 'NULL') FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'ts' ORDER BY ORDINAL_POSITION": "a,time,time,0;b,time,time,0;c,time,time(3),3;d,time,time(6),6;e,datetime,datetime(2),2",
		"SHOW COLUMNS FROM ts.t": "a,time,YES,,NULL,;b,time,YES,,NULL,;c,time(3),NO,,01:02:03.457,;d,time(6),YES,,NULL,;e,datetime(2),YES,,NULL,",
	})
	// The table the statement shows is made again by it.
	mustExecAll(t, db, "USE ts", "DROP TABLE t", rows[0][1])
	wantAnswers(t, db, "made again", map[string]string{
		"SELECT GROUP_CONCAT(COLUMN_TYPE ORDER BY ORDINAL_POSITION) FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'ts'": "time,time,time(3),time(6),datetime(2)",
	})
}

// TestCastToTimeDigits: CAST(x AS TIME(n)) rounds to n digits and CAST(x
// AS TIME) to none, as MySQL does; the engine kept six.
func TestCastToTimeDigits(t *testing.T) {
	_, _, db := serve(t)
	wantAnswers(t, db, "casts", map[string]string{
		"SELECT CAST('12:34:56.789' AS TIME), CAST('12:34:56.789' AS TIME(2)), CAST('12:34:56.789' AS TIME(6))":  "12:34:57,12:34:56.79,12:34:56.789000",
		"SELECT CAST('-12:34:56.789' AS TIME(1)), CONVERT('100:00:00.25', TIME(1)), CAST(123456.789 AS TIME(2))": "-12:34:56.8,100:00:00.3,12:34:56.79",
		"SELECT CAST(CAST('12:34:56.789' AS TIME(6)) AS TIME(2)), CAST(SEC_TO_TIME(3600.789) AS TIME(1))":        "12:34:56.79,01:00:00.8",
		// A typed literal is a TIME with the digits written.
		"SELECT TIME'10:20:30.5', TIME'10:20:30', TIME'-1:02:03.125'":                                                  "10:20:30.5,10:20:30,-01:02:03.125",
		"SELECT CAST('2024-01-15 10:20:30.45' AS TIME(1)), CAST(NULL AS TIME(3)), CAST('x' AS TIME(3))":                "10:20:30.5,NULL,NULL",
		"SELECT CAST('12:34:56.789' AS TIME(2)) < CAST('12:34:56.795' AS TIME(3)), CONCAT(CAST('1:2:3.4' AS TIME(3)))": "1,01:02:03.400",
	})
	// A table made from casts has their types.
	mustExecAll(t, db, "CREATE DATABASE tc", "CREATE TABLE tc.t AS SELECT CAST('01:02:03.456' AS TIME(2)) AS x, CAST('01:02:03' AS TIME) AS y")
	wantAnswers(t, db, "made from casts", map[string]string{
		"SELECT x, y FROM tc.t": "01:02:03.46,01:02:03",
		"SELECT GROUP_CONCAT(COLUMN_TYPE ORDER BY ORDINAL_POSITION) FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'tc'": "time(2),time",
	})
}

// TestTimeTruncateFractional: with TIME_TRUNCATE_FRACTIONAL in sql_mode,
// fractional digits past a TIME(n)'s are dropped instead of rounded.
func TestTimeTruncateFractional(t *testing.T) {
	_, _, db := serve(t)
	mustExecAll(t, db, "CREATE DATABASE tt", "CREATE TABLE tt.t (id INT PRIMARY KEY, a TIME, b TIME(2), c TIME(6))")
	conn, exec := oneSession(t, db)
	for _, q := range []string{
		"SET SESSION sql_mode = CONCAT(@@sql_mode, ',TIME_TRUNCATE_FRACTIONAL')",
		"INSERT INTO tt.t VALUES (1, '12:34:56.999', '-12:34:56.999', '12:34:56.9999999')",
		"INSERT INTO tt.t VALUES (2, 123456.999, 123456.999, '00:00:00.0000009')",
	} {
		if err := exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if got := flat(queryStrings(t, conn, "SELECT id, a, b, c, CAST('01:02:03.999' AS TIME(1)) FROM tt.t ORDER BY id")); got != "1,12:34:56,-12:34:56.99,12:34:56.999999,01:02:03.9;2,12:34:56,12:34:56.99,00:00:00.000000,01:02:03.9" {
		t.Errorf("truncated = %q", got)
	}
	// Other sessions still round.
	mustExec(t, db, "INSERT INTO tt.t VALUES (3, '12:34:56.999', '12:34:56.999', '12:34:56.9999999')")
	wantAnswers(t, db, "rounded", map[string]string{
		"SELECT a, b, c FROM tt.t WHERE id = 3": "12:34:57,12:34:57.00,12:34:57.000000",
	})
}

// TestTimePrecisionErrors: more than six fractional digits is MySQL's
// error 1426 in a column and in a CAST, and text that is no time is
// error 1292 when stored; the engine answered 1105 for all.
func TestTimePrecisionErrors(t *testing.T) {
	_, _, db := serve(t)
	mustExecAll(t, db, "CREATE DATABASE te", "CREATE TABLE te.t (a TIME(2))")
	for _, q := range []string{
		"CREATE TABLE te.u (a TIME(7))",
		"CREATE TABLE te.u (a DATETIME(7))",
		"CREATE TABLE te.u (a TIMESTAMP(9))",
		"ALTER TABLE te.t ADD COLUMN b TIME(7)",
		"ALTER TABLE te.t MODIFY COLUMN a TIME(10)",
		"SELECT CAST('1' AS TIME(7))",
		"SELECT CAST('2024-01-01' AS DATETIME(7))",
	} {
		_, err := db.Exec(q)
		wantMySQLError(t, err, 1426, "42000")
	}
	for _, q := range []string{
		"INSERT INTO te.t VALUES ('abc')",
		"INSERT INTO te.t VALUES ('12:60:00')",
	} {
		_, err := db.Exec(q)
		wantMySQLError(t, err, 1292, "22007")
	}
	mustExec(t, db, "INSERT INTO te.t VALUES ('01:00:00')")
	_, err := db.Exec("UPDATE te.t SET a = 'x'")
	wantMySQLError(t, err, 1292, "22007")
	wantAnswers(t, db, "nothing stored", map[string]string{
		"SELECT a FROM te.t": "01:00:00.00",
	})
}

// TestTimePrecisionSurvivesRestart: a TIME(n) column's digits are kept
// with its table, and values written after a restart are still rounded
// to them.
func TestTimePrecisionSurvivesRestart(t *testing.T) {
	dir := t.TempDir()
	srv, db := openIn(t, dir)
	mustExecAll(t, db,
		"CREATE DATABASE tr",
		"CREATE TABLE tr.t (id INT PRIMARY KEY, a TIME, b TIME(2), c TIME(6))",
		"INSERT INTO tr.t VALUES (1, '12:34:56.789', '12:34:56.789', '12:34:56.789')")
	db.Close()
	srv.Close()

	srv, db = openIn(t, dir)
	defer srv.Close()
	mustExec(t, db, "INSERT INTO tr.t VALUES (2, '-01:02:03.456', '-01:02:03.456', '-01:02:03.456')")
	wantAnswers(t, db, "after a restart", map[string]string{
		"SELECT id, a, b, c FROM tr.t ORDER BY id": "1,12:34:57,12:34:56.79,12:34:56.789000;2,-01:02:03,-01:02:03.46,-01:02:03.456000",
		"SELECT GROUP_CONCAT(COLUMN_TYPE ORDER BY ORDINAL_POSITION) FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'tr'": "int,time,time(2),time(6)",
	})
}
