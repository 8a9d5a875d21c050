package sqlext_test

import (
	"testing"
)

// TestModelBuildStatements: the statements a tool that builds models in
// the database writes (a query in parentheses after CREATE TABLE ... AS,
// CREATE OR REPLACE VIEW ... AS and INSERT INTO t (columns), then a rename
// into place and a comment) run as in MySQL; the parser refused the
// parenthesised queries (1064). The rows are MariaDB 10.11's.
func TestModelBuildStatements(t *testing.T) {
	_, _, db := serve(t)
	db.SetMaxOpenConns(1)
	mustExecAll(t, db, "CREATE DATABASE mb", "USE mb",
		"create table `mb`.`src` (id int primary key, v varchar(10))",
		"insert into src values (1, 'a'), (2, 'b')",
		"create table `mb`.`m__tmp` as ( select id, upper(v) as uv from src )",
		"rename table `mb`.`m__tmp` to `mb`.`m`",
		"insert into `mb`.`m` (`id`, `uv`) ( select id + 10, v from src );",
		"create or replace view `mb`.`mv` as ( select id from m where id > 10 )",
		"create table `mb`.`w` as (with s as (select id from src) select id * 2 as d from s)",
		"create table `mb`.`w2` as with s as (select id from src) select id * 3 as e from s",
		"alter table `mb`.`m` comment = 'model docs'")
	wantAnswers(t, db, "models", map[string]string{
		"SELECT GROUP_CONCAT(id, ':', uv ORDER BY id) FROM m":                                                "1:A,2:B,11:a,12:b",
		"SELECT GROUP_CONCAT(id ORDER BY id) FROM mv":                                                        "11,12",
		"SELECT GROUP_CONCAT(d ORDER BY d) FROM w":                                                           "2,4",
		"SELECT table_comment FROM information_schema.tables WHERE table_schema = 'mb' AND table_name = 'm'": "model docs",
	})
	// A query in parentheses elsewhere is left as the parser reads it.
	_, err := db.Exec("create table `mb`.`bad` as (select 1) x")
	wantMySQLError(t, err, 1064, "42000")
}
