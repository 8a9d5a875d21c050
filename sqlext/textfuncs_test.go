package sqlext_test

import "testing"

// TestEnumsInStringFunctions: FIELD, FIND_IN_SET and STRCMP read an ENUM
// as its label and a DATE as YYYY-MM-DD, as MySQL does. FIELD read the
// ENUM's index, so ORDER BY FIELD(status, ...) did not order at all.
// Expected answers are MariaDB 10.11's.
func TestEnumsInStringFunctions(t *testing.T) {
	_, _, db := serve(t)
	mustExecAll(t, db,
		"CREATE DATABASE ef",
		"CREATE TABLE ef.o (id INT PRIMARY KEY, status ENUM('new','paid','shipped'), d DATE)",
		"INSERT INTO ef.o VALUES (1,'paid','2024-01-06'),(2,'shipped','2024-02-01'),(3,'new','2023-12-01'),(4,'paid','2024-03-01'),(5,'shipped','2024-03-16')")
	wantAnswers(t, db, "string functions of ENUM and DATE", map[string]string{
		"SELECT id FROM ef.o ORDER BY FIELD(status, 'shipped', 'paid', 'new'), id":     "2;5;1;4;3",
		"SELECT id, FIELD(status, 'new', 'paid') FROM ef.o ORDER BY id":                "1,2;2,0;3,1;4,2;5,0",
		"SELECT FIND_IN_SET(status, 'x,shipped,paid') FROM ef.o ORDER BY id":           "3;2;0;3;2",
		"SELECT STRCMP(status, 'paid'), STRCMP(d, '2024-02-01') FROM ef.o ORDER BY id": "0,-1;1,0;-1,-1;0,1;1,1",
		"SELECT FIELD(d, '2024-02-01', '2024-03-16') FROM ef.o ORDER BY id":            "0;1;0;0;2",
		"SELECT FIELD(id, 3, 1) FROM ef.o ORDER BY id":                                 "2;0;1;0;0",
	})
}
