package sqlext_test

import "testing"

// TestUserVariableAssignments runs MySQL's @v := expr in expressions:
// numbering rows, reading a variable later in the same row, assigning in
// a CASE's branches, and assigning NULL.
func TestUserVariableAssignments(t *testing.T) {
	_, db := openIn(t, t.TempDir())
	mustExecAll(t, db, "CREATE DATABASE a", "CREATE TABLE a.t (x VARCHAR(3) PRIMARY KEY)", "INSERT INTO a.t VALUES ('p'), ('q'), ('r')")
	conn, exec := oneSession(t, db)
	if err := exec("SET @n := 0"); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, r := range queryStrings(t, conn, "SELECT @n := @n + 1 AS rn, x FROM a.t") {
		seen[r[0]] = true
	}
	if len(seen) != 3 || !seen["1"] || !seen["2"] || !seen["3"] {
		t.Errorf("row numbers %v, want 1, 2 and 3", seen)
	}
	for q, want := range map[string]string{
		"SELECT @n":              "3",
		"SELECT @a := 5, @a + 1": "5,6",
		"SELECT CASE 'int' WHEN 'bit' THEN @dt := 1 WHEN 'int' THEN @dt := 4 END AS t, @dt + 0": "4,4",
		"SELECT @s := CONCAT('a', ':='), @s":                                                    "a:=,a:=",
		"SELECT @z := NULL, @z IS NULL":                                                         "NULL,1",
	} {
		if got := flat(queryStrings(t, conn, q)); got != want {
			t.Errorf("%s: %s, want %s", q, got, want)
		}
	}
}
