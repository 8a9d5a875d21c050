package sqlext_test

import (
	"fmt"
	"strings"
	"testing"
)

// TestStringFunctionLengths: CONCAT, CONCAT_WS, LEFT, LPAD, REPLACE,
// REPEAT and IFNULL of text are described as a VARCHAR as long as their
// longest value, as MySQL describes them (the engine described most as
// LONGTEXT and IFNULL by its first argument), and CREATE TABLE ... AS
// SELECT makes such a column that VARCHAR, or a TEXT past 512
// characters, in the columns' collation, so that it can take an index.
// The lengths are MariaDB 10.11's.
func TestStringFunctionLengths(t *testing.T) {
	_, _, db := serve(t)
	db.SetMaxOpenConns(1)
	mustExecAll(t, db, "CREATE DATABASE sl", "USE sl",
		"CREATE TABLE b (id INT, v VARCHAR(5) NOT NULL, c CHAR(3), t TEXT)",
		"INSERT INTO b VALUES (1, 'ab', 'x', 't'), (2, 'abcde', 'yyy', NULL)")
	rows, err := db.Query("SELECT CONCAT(v, '!') a, CONCAT(c, v) b2, LEFT(v, 2) l, REPLACE(v, 'a', 'bb') r, CONCAT(id, v) ci, LPAD(v, 8, '*') lp, IFNULL(c, v) ifn, CONCAT_WS('-', v, c) cw, CONCAT(v, t) vt FROM b")
	if err != nil {
		t.Fatal(err)
	}
	cols, _ := rows.ColumnTypes()
	var got []string
	for _, c := range cols {
		got = append(got, fmt.Sprintf("%s:%s", c.Name(), c.DatabaseTypeName()))
	}
	rows.Close()
	want := "a:VARCHAR b2:VARCHAR l:VARCHAR r:VARCHAR ci:VARCHAR lp:VARCHAR ifn:VARCHAR cw:VARCHAR vt:TEXT"
	if strings.Join(got, " ") != want {
		t.Errorf("columns %s, want %s", strings.Join(got, " "), want)
	}
	mustExecAll(t, db, "CREATE TABLE d AS SELECT CONCAT(v, '!') AS vv, LEFT(v, 2) AS l2, IFNULL(c, v) AS ifn, CONCAT(id, '-', v) AS k, REPEAT(v, 200) AS big FROM b",
		"CREATE INDEX ivv ON d (vv)")
	wantAnswers(t, db, "ctas", map[string]string{
		"SELECT GROUP_CONCAT(COLUMN_NAME, ':', COLUMN_TYPE, ':', COLLATION_NAME ORDER BY ORDINAL_POSITION) FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'sl' AND TABLE_NAME = 'd'": "vv:varchar(6):utf8mb4_0900_ai_ci,l2:varchar(2):utf8mb4_0900_ai_ci,ifn:varchar(5):utf8mb4_0900_ai_ci,k:varchar(17):utf8mb4_0900_ai_ci,big:text:utf8mb4_0900_ai_ci",
		"SELECT vv, l2, ifn, k, LENGTH(big) FROM d ORDER BY k": "ab!,ab,x,1-ab,400;abcde!,ab,yyy,2-abcde,1000",
	})
}
