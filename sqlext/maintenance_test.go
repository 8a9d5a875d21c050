package sqlext_test

import "testing"

// TestTableMaintenance: CHECK, OPTIMIZE, REPAIR and CHECKSUM TABLE answer
// as MySQL's statements do (they were syntax errors): CHECK checks each
// table, OPTIMIZE rewrites its storage and keeps its rows, REPAIR says
// the table does not support it, a
// missing table gets an Error row, CHECKSUM changes with the rows and not
// with their order, and a user who cannot read a table is refused.
func TestTableMaintenance(t *testing.T) {
	_, addr, db := serve(t)
	mustExecAll(t, db,
		"CREATE DATABASE mt", "USE mt",
		"CREATE TABLE mt.t (id INT PRIMARY KEY, v VARCHAR(5), KEY (v))",
		"INSERT INTO mt.t VALUES (1, 'a'), (2, NULL), (3, 'c')",
		"CREATE TABLE mt.u (id INT PRIMARY KEY, v VARCHAR(5))",
		"INSERT INTO mt.u VALUES (3, 'c'), (1, 'a'), (2, NULL)")
	wantAnswers(t, db, "maintenance", map[string]string{
		"CHECK TABLE mt.t, `mt`.`u`, mt.nope EXTENDED": "mt.t,check,status,OK;mt.u,check,status,OK;" +
			"mt.nope,check,Error,Table 'mt.nope' doesn't exist;mt.nope,check,status,Operation failed",
		"REPAIR NO_WRITE_TO_BINLOG TABLE mt.t": "mt.t,repair,note,The storage engine for the table doesn't support repair",
		"CHECKSUM TABLE mt.nope":               "mt.nope,NULL",
	})
	sum := func(table string) string { return queryStrings(t, db, "CHECKSUM TABLE "+table)[0][1] }
	// The same rows inserted in another order give the same checksum
	// (u has no secondary index, which the checksum does not read).
	if a, b := sum("mt.t"), sum("mt.u"); a != b {
		t.Errorf("checksums of the same rows: %s and %s", a, b)
	}
	before := sum("mt.t")
	mustExecAll(t, db, "UPDATE mt.t SET v = 'b' WHERE id = 2")
	if after := sum("mt.t"); after == before {
		t.Error("the checksum did not change with a row")
	}
	// OPTIMIZE keeps every row, of a table with deleted rows too, and
	// its indexes still find them.
	mustExecAll(t, db, "INSERT INTO mt.u SELECT id + 10, v FROM mt.u", "DELETE FROM mt.u WHERE id = 11")
	before = sum("mt.u")
	wantAnswers(t, db, "optimize", map[string]string{
		"OPTIMIZE TABLE mt.t, mt.u, mt.nope": "mt.t,optimize,status,OK;mt.u,optimize,status,OK;" +
			"mt.nope,optimize,Error,Table 'mt.nope' doesn't exist;mt.nope,optimize,status,Operation failed",
		"CHECK TABLE mt.t, mt.u":            "mt.t,check,status,OK;mt.u,check,status,OK",
		"SELECT id FROM mt.t WHERE v = 'b'": "2",
		"SELECT COUNT(*) FROM mt.u":         "5",
	})
	if after := sum("mt.u"); after != before {
		t.Errorf("OPTIMIZE changed the checksum from %s to %s", before, after)
	}
	// The statements run as calls of system procedures, which a user
	// needs EXECUTE on sys for.
	mustExecAll(t, db, "CREATE USER 'peek'@'%' IDENTIFIED BY 'pw'", "GRANT EXECUTE ON sys.* TO 'peek'@'%'")
	peek := connectAs(t, addr, "peek:pw", "")
	_, err := peek.Exec("CHECKSUM TABLE mt.t")
	wantMySQLError(t, err, 1142, "42000")
	// OPTIMIZE writes: reading the table is not enough.
	mustExecAll(t, db, "GRANT SELECT ON mt.* TO 'peek'@'%'")
	_, err = peek.Exec("OPTIMIZE TABLE mt.t")
	wantMySQLError(t, err, 1142, "42000")
}
