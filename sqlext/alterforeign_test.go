package sqlext_test

import (
	"testing"
)

// TestAlterOfTableWithForeignKeysIsWhole: an ALTER TABLE of several
// clauses on a table with foreign keys, or one that adds or drops a
// foreign key or renames the table, either does everything or nothing,
// and answers MySQL's error for the clause that fails. The engine ran the
// clauses one by one, so ADD COLUMN y before a refused clause left y
// added. Valid ALTERs of such tables still work, their keys with them,
// and the rows the keys refuse are answered in MySQL's words.
func TestAlterOfTableWithForeignKeysIsWhole(t *testing.T) {
	_, _, db := serve(t)
	db.SetMaxOpenConns(1)
	mustExecAll(t, db, "CREATE DATABASE fa", "USE fa",
		"CREATE TABLE p (id INT PRIMARY KEY, v INT)",
		"CREATE TABLE c (id INT PRIMARY KEY, pid INT, FOREIGN KEY (pid) REFERENCES p (id))",
		"CREATE TABLE other (id INT PRIMARY KEY)",
		"INSERT INTO p VALUES (1, 1), (2, 2)", "INSERT INTO c VALUES (1, 1), (2, 1)", "INSERT INTO other VALUES (1)")
	columns := "SELECT GROUP_CONCAT(CONCAT(TABLE_NAME, '.', COLUMN_NAME) ORDER BY TABLE_NAME, ORDINAL_POSITION) FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'fa'"
	indexes := "SELECT GROUP_CONCAT(DISTINCT CONCAT(TABLE_NAME, '.', INDEX_NAME) ORDER BY TABLE_NAME, INDEX_NAME) FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = 'fa'"
	keys := "SELECT GROUP_CONCAT(CONSTRAINT_NAME ORDER BY CONSTRAINT_NAME) FROM information_schema.REFERENTIAL_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = 'fa'"
	before := map[string]string{
		columns: "c.id,c.pid,other.id,p.id,p.v",
		indexes: "c.pid,c.PRIMARY,other.PRIMARY,p.PRIMARY",
		keys:    "c_ibfk_1",
	}
	refused := []struct {
		q     string
		code  uint16
		state string
		msg   string
	}{
		{"ALTER TABLE c ADD COLUMN y INT, DROP COLUMN pid", 1828, "HY000", "Cannot drop column 'pid': needed in a foreign key constraint 'c_ibfk_1'"},
		{"ALTER TABLE c ADD COLUMN y INT, DROP INDEX pid", 1553, "HY000", "Cannot drop index 'pid': needed in a foreign key constraint"},
		{"ALTER TABLE c ADD COLUMN y INT, MODIFY pid VARCHAR(10)", 3780, "HY000", "Referencing column 'pid' and referenced column 'id' in foreign key constraint 'c_ibfk_1' are incompatible."},
		{"ALTER TABLE c ADD COLUMN y INT, ADD FOREIGN KEY (y) REFERENCES p (nope)", 3734, "HY000", "Failed to add the foreign key constraint. Missing column 'nope' for constraint 'c_ibfk_2' in the referenced table 'p'"},
		{"ALTER TABLE c ADD COLUMN y INT, ADD FOREIGN KEY (y) REFERENCES gone (id)", 1824, "HY000", "Failed to open the referenced table 'gone'"},
		{"ALTER TABLE c ADD COLUMN y INT, ADD FOREIGN KEY (y) REFERENCES p (v)", 1822, "HY000", "Failed to add the foreign key constraint. Missing index for constraint 'c_ibfk_2' in the referenced table 'p'"},
		{"ALTER TABLE c ADD COLUMN y INT DEFAULT 5, ADD FOREIGN KEY (y) REFERENCES p (id)", 1452, "23000", "Cannot add or update a child row: a foreign key constraint fails (`fa`.`c`, CONSTRAINT `c_ibfk_2` FOREIGN KEY (`y`) REFERENCES `p` (`id`))"},
		{"ALTER TABLE c ADD COLUMN y INT, ADD FOREIGN KEY (zz) REFERENCES p (id)", 1072, "42000", "Key column 'zz' doesn't exist in table"},
		{"ALTER TABLE c ADD COLUMN y INT NOT NULL DEFAULT 1, ADD FOREIGN KEY (y) REFERENCES p (id) ON DELETE SET NULL", 1830, "HY000", "Column 'y' cannot be NOT NULL: needed in a foreign key constraint 'c_ibfk_2' SET NULL"},
		{"ALTER TABLE c ADD COLUMN y INT, ADD CONSTRAINT c_ibfk_1 FOREIGN KEY (y) REFERENCES p (id)", 1826, "HY000", "Duplicate foreign key constraint name 'c_ibfk_1'"},
		{"ALTER TABLE c ADD COLUMN y INT, ADD UNIQUE INDEX (pid)", 1062, "23000", "Duplicate entry '1' for key 'c.pid_2'"},
		{"ALTER TABLE c ADD INDEX iy (id), ADD COLUMN y INT, DROP FOREIGN KEY nope", 1091, "42000", "Can't DROP 'nope'; check that column/key exists"},
		{"ALTER TABLE c ADD COLUMN y INT, RENAME TO other", 1050, "42S01", "Table 'other' already exists"},
		{"ALTER TABLE p ADD COLUMN q INT, DROP COLUMN id", 1829, "HY000", "Cannot drop column 'id': needed in a foreign key constraint 'c_ibfk_1' of table 'c'"},
		{"ALTER TABLE p ADD COLUMN q INT, MODIFY id BIGINT", 3780, "HY000", "Referencing column 'pid' and referenced column 'id' in foreign key constraint 'c_ibfk_1' are incompatible."},
		{"ALTER TABLE p ADD COLUMN q INT, ADD COLUMN r VARCHAR(1) DEFAULT 'xx'", 1067, "42000", "Invalid default value for 'r'"},
		{"ALTER TABLE other ADD COLUMN y INT DEFAULT 3, ADD FOREIGN KEY (y) REFERENCES p (id), RENAME TO other2", 1452, "23000", "Cannot add or update a child row: a foreign key constraint fails (`fa`.`other`, CONSTRAINT `other_ibfk_1` FOREIGN KEY (`y`) REFERENCES `p` (`id`))"},
		// One clause alone answers as the same clause among others.
		{"ALTER TABLE c DROP COLUMN pid", 1828, "HY000", "Cannot drop column 'pid': needed in a foreign key constraint 'c_ibfk_1'"},
		{"ALTER TABLE p DROP COLUMN id", 1829, "HY000", "Cannot drop column 'id': needed in a foreign key constraint 'c_ibfk_1' of table 'c'"},
	}
	for _, r := range refused {
		_, err := db.Exec(r.q)
		wantMySQLMessage(t, r.q, err, r.code, r.state, r.msg)
		wantAnswers(t, db, r.q, before)
	}

	// What MySQL allows goes through, keys and all.
	mustExecAll(t, db,
		"ALTER TABLE c ADD COLUMN y INT, ADD INDEX iy (y)",
		"ALTER TABLE c ADD COLUMN z INT DEFAULT 2, ADD CONSTRAINT fz FOREIGN KEY (z) REFERENCES p (id)",
		"ALTER TABLE c RENAME COLUMN pid TO parent, ADD COLUMN k INT",
		"ALTER TABLE c DROP FOREIGN KEY fz, DROP COLUMN z, ADD CONSTRAINT fz FOREIGN KEY (y) REFERENCES p (id)",
		"ALTER TABLE c ADD COLUMN w INT, RENAME TO c2",
		"ALTER TABLE p ADD COLUMN q INT DEFAULT 3, MODIFY v BIGINT")
	wantAnswers(t, db, "after", map[string]string{
		columns: "c2.id,c2.parent,c2.y,c2.k,c2.w,other.id,p.id,p.v,p.q",
		keys:    "c2_ibfk_1,fz",
		"SELECT id, parent, y FROM c2 ORDER BY id": "1,1,NULL;2,1,NULL",
	})
	// A row a foreign key refuses is answered in MySQL's words, which name
	// the key's columns and actions (the engine's named the key's value),
	// also to a prepared statement.
	_, err := db.Exec("INSERT INTO c2 (id, parent) VALUES (5, 8)")
	wantMySQLMessage(t, "child", err, 1452, "23000", "Cannot add or update a child row: a foreign key constraint fails (`fa`.`c2`, CONSTRAINT `c2_ibfk_1` FOREIGN KEY (`parent`) REFERENCES `p` (`id`))")
	_, err = db.Exec("INSERT INTO c2 (id, y) VALUES (?, ?)", 5, 8)
	wantMySQLMessage(t, "prepared", err, 1452, "23000", "Cannot add or update a child row: a foreign key constraint fails (`fa`.`c2`, CONSTRAINT `fz` FOREIGN KEY (`y`) REFERENCES `p` (`id`))")
	_, err = db.Exec("DELETE FROM p WHERE id = 1")
	wantMySQLMessage(t, "parent", err, 1451, "23000", "Cannot delete or update a parent row: a foreign key constraint fails (`fa`.`c2`, CONSTRAINT `c2_ibfk_1` FOREIGN KEY (`parent`) REFERENCES `p` (`id`))")
	mustExecAll(t, db, "CREATE TABLE d (id INT PRIMARY KEY, pid INT, CONSTRAINT dk FOREIGN KEY (pid) REFERENCES p (id) ON DELETE SET NULL ON UPDATE CASCADE)")
	_, err = db.Exec("INSERT INTO d VALUES (1, 9)")
	wantMySQLMessage(t, "actions", err, 1452, "23000", "Cannot add or update a child row: a foreign key constraint fails (`fa`.`d`, CONSTRAINT `dk` FOREIGN KEY (`pid`) REFERENCES `p` (`id`) ON DELETE SET NULL ON UPDATE CASCADE)")
}

// TestInvalidDefaultAsMySQL: a literal default its column cannot hold is
// MySQL's 1067 naming the column, in CREATE TABLE and every ALTER that
// gives a default; the engine answered 1406, 1366 or 1264 in texts of its
// own that named no column.
func TestInvalidDefaultAsMySQL(t *testing.T) {
	_, _, db := serve(t)
	mustExecAll(t, db, "CREATE DATABASE idf", "CREATE TABLE idf.t (id INT PRIMARY KEY, v BIGINT)")
	for q, col := range map[string]string{
		"CREATE TABLE idf.a (k INT DEFAULT 1, r VARCHAR(1) DEFAULT 'xx')": "r",
		"CREATE TABLE idf.b (r INT DEFAULT 'abc')":                        "r",
		"CREATE TABLE idf.c (r TINYINT DEFAULT 300)":                      "r",
		"CREATE TABLE idf.d (d DATE DEFAULT '2024-13-45')":                "d",
		"ALTER TABLE idf.t ADD COLUMN r VARCHAR(1) DEFAULT 'xx'":          "r",
		"ALTER TABLE idf.t ALTER COLUMN v SET DEFAULT 'abc'":              "v",
		"ALTER TABLE idf.t MODIFY v TINYINT DEFAULT 1000":                 "v",
	} {
		_, err := db.Exec(q)
		wantMySQLMessage(t, q, err, 1067, "42000", "Invalid default value for '"+col+"'")
	}
	wantAnswers(t, db, "nothing made", map[string]string{
		"SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'idf'":  "1",
		"SELECT COUNT(*) FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'idf'": "2",
	})
}

// TestAlterAddsCheckOnNewColumn: an ALTER TABLE may add a CHECK on a
// column it adds in an earlier clause, as in MySQL; the engine refused it
// (1054), building the CHECK against the table without the column. The
// statement stays whole: rows that fail the check leave the table as it
// was, with MySQL's error.
func TestAlterAddsCheckOnNewColumn(t *testing.T) {
	_, _, db := serve(t)
	mustExecAll(t, db, "CREATE DATABASE ac", "CREATE TABLE ac.t (id INT PRIMARY KEY)", "INSERT INTO ac.t VALUES (1)",
		"ALTER TABLE ac.t ADD COLUMN qty INT DEFAULT 1, ADD CONSTRAINT chk CHECK (qty > 0)",
		"ALTER TABLE ac.t ADD COLUMN m INT DEFAULT 1, ADD INDEX (m), ADD CHECK (t.m + qty > 1)")
	_, err := db.Exec("ALTER TABLE ac.t ADD COLUMN k INT DEFAULT -1, ADD CONSTRAINT chk2 CHECK (k > 0)")
	wantMySQLMessage(t, "refused check", err, 3819, "HY000", "Check constraint 'chk2' is violated.")
	_, err = db.Exec("INSERT INTO ac.t (id, qty) VALUES (2, 0)")
	wantMySQLMessage(t, "row refused", err, 3819, "HY000", "Check constraint 'chk' is violated.")
	wantAnswers(t, db, "checks", map[string]string{
		"SELECT GROUP_CONCAT(COLUMN_NAME ORDER BY ORDINAL_POSITION) FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'ac'":                                      "id,qty,m",
		"SELECT GROUP_CONCAT(CONSTRAINT_NAME, ':', CHECK_CLAUSE ORDER BY CONSTRAINT_NAME) FROM information_schema.CHECK_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = 'ac'": "chk:(qty > 0),t_chk_1:((m + qty) > 1)",
		"SELECT id, qty, m FROM ac.t": "1,1,1",
	})
}
