package sqlext_test

import (
	"strings"
	"testing"
)

// TestShowLikeNamesItsColumn: SHOW DATABASES, SCHEMAS and [FULL] TABLES
// with LIKE name their first column with the pattern, as MySQL does
// ("Database (s%)", "Tables_in_db (w%)"), and without it, or with WHERE,
// as before; SHOW SCHEMAS LIKE and WHERE were syntax errors.
func TestShowLikeNamesItsColumn(t *testing.T) {
	_, _, db := serve(t)
	db.SetMaxOpenConns(1)
	mustExecAll(t, db, "CREATE DATABASE sl", "CREATE TABLE sl.wide (x INT)", "CREATE TABLE sl.narrow (x INT)")
	for q, want := range map[string]string{
		"SHOW DATABASES LIKE 'sl'":               "Database (sl): sl",
		"SHOW SCHEMAS LIKE 'sl%'":                "Database (sl%): sl",
		"SHOW TABLES FROM sl LIKE 'w%'":          "Tables_in_sl (w%): wide",
		"SHOW FULL TABLES FROM sl LIKE 'n%'":     "Tables_in_sl (n%),Table_type: narrow,BASE TABLE",
		"SHOW TABLES FROM sl":                    "Tables_in_sl: narrow;wide",
		"SHOW SCHEMAS WHERE `Database` = 'sl'":   "Database: sl",
		"SHOW DATABASES WHERE `Database` = 'sl'": "Database: sl",
	} {
		var names []string
		for _, c := range resultColumns(t, db, q) {
			names = append(names, c.Name())
		}
		if got := strings.Join(names, ",") + ": " + flat(queryStrings(t, db, q)); got != want {
			t.Errorf("%s: %q, want %q", q, got, want)
		}
	}
}
