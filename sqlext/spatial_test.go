package sqlext_test

import (
	"strings"
	"testing"
)

// TestSpatialColumns: POINT, POLYGON and GEOMETRY columns are stored (as
// MySQL stores them: SRID, then WKB), read back through the spatial
// functions, and keep a column's SRID across a restart, refusing a value
// of another (3643); the server refused every spatial column. A SPATIAL
// index is not made, with warning 1235, as a FULLTEXT one is not.
func TestSpatialColumns(t *testing.T) {
	dir := t.TempDir()
	srv, db := openIn(t, dir)
	db.SetMaxOpenConns(1)
	mustExecAll(t, db, "CREATE DATABASE sp", "USE sp")
	wantLeveledWarnings(t, db, "CREATE TABLE geo (id INT PRIMARY KEY, p POINT NOT NULL, g GEOMETRY, poly POLYGON SRID 4326, SPATIAL INDEX sx (p))",
		"Warning 3674 The spatial index on column 'p' will not be used by the query optimizer since the column does not have an SRID attribute. Consider adding an SRID attribute to the column.",
		"Warning 1235 This version of MySQL doesn't yet support 'SPATIAL indexes: `sx` was not created'")
	mustExecAll(t, db, "INSERT INTO geo VALUES (1, ST_GeomFromText('POINT(1 2)'), ST_GeomFromText('LINESTRING(0 0, 3 4)'), ST_GeomFromText('POLYGON((0 0, 0 1, 1 1, 0 0))', 4326))")
	srv.Close()
	_, db = openIn(t, dir)
	db.SetMaxOpenConns(1)
	mustExecAll(t, db, "USE sp")
	wantAnswers(t, db, "spatial values", map[string]string{
		"SELECT ST_AsText(p), ST_AsText(g), ST_AsText(poly), ST_X(p), ST_SRID(poly), ST_Length(g) FROM geo": "POINT(1 2),LINESTRING(0 0,3 4),POLYGON((0 0,0 1,1 1,0 0)),1,4326,5",
		"SELECT id FROM geo WHERE ST_Distance(p, POINT(4, 6)) = 5":                                          "1",
	})
	_, err := db.Exec("INSERT INTO geo (id, p, poly) VALUES (2, POINT(0, 0), ST_GeomFromText('POLYGON((0 0, 0 1, 1 1, 0 0))'))")
	wantMySQLError(t, err, 3643, "HY000")
	if create := showCreate(t, db, "SHOW CREATE TABLE geo"); !strings.Contains(create, "`poly` polygon /*!80003 SRID 4326 */") {
		t.Errorf("SHOW CREATE TABLE geo:\n%s", create)
	}
}
