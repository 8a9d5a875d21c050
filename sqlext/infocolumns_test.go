package sqlext_test

import "testing"

// TestInformationSchemaTextLengths: a TEXT column's
// CHARACTER_MAXIMUM_LENGTH is its length in bytes, as its
// CHARACTER_OCTET_LENGTH is, in any character set; a VARCHAR's is in
// characters. The answers are MariaDB 10.11's (the engine gave a utf8mb4
// TEXT 16383).
func TestInformationSchemaTextLengths(t *testing.T) {
	_, _, db := serve(t)
	mustExecAll(t, db, "CREATE DATABASE il",
		"CREATE TABLE il.t (a TEXT, b TINYTEXT, c MEDIUMTEXT, d LONGTEXT, e VARCHAR(10), f TEXT CHARACTER SET latin1, g CHAR(3)) DEFAULT CHARSET=utf8mb4")
	wantAnswers(t, db, "lengths", map[string]string{
		"SELECT column_name, character_maximum_length, character_octet_length FROM information_schema.columns WHERE table_schema = 'il' ORDER BY ordinal_position": "a,65535,65535;b,255,255;c,16777215,16777215;d,4294967295,4294967295;e,10,40;f,65535,65535;g,3,12",
	})
}
