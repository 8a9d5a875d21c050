package sqlext_test

import "testing"

// TestUnsupportedJSONFunctions: the JSON functions MySQL has and sqlearn
// does not compute are refused with MySQL's 1235 naming the function;
// they were 1105 with the engine's text.
func TestUnsupportedJSONFunctions(t *testing.T) {
	_, _, db := serve(t)
	for q, name := range map[string]string{
		`SELECT JSON_SCHEMA_VALID('{"type": "number"}', '1')`:             "JSON_SCHEMA_VALID",
		`SELECT JSON_SCHEMA_VALIDATION_REPORT('{"type": "number"}', '1')`: "JSON_SCHEMA_VALIDATION_REPORT",
		`SELECT JSON_STORAGE_SIZE('[1]')`:                                 "JSON_STORAGE_SIZE",
	} {
		_, err := db.Exec(q)
		wantMySQLMessage(t, q, err, 1235, "42000", "This version of MySQL doesn't yet support '"+name+"'")
	}
}
