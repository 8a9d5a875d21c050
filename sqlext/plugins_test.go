package sqlext_test

import "testing"

// TestShowPlugins: SHOW PLUGINS has MySQL's columns and, like
// information_schema.PLUGINS, a row for the storage engine and each
// authentication method; both were empty, and SHOW PLUGINS had the
// table's columns.
func TestShowPlugins(t *testing.T) {
	_, _, db := serve(t)
	var names []string
	for _, c := range resultColumns(t, db, "SHOW PLUGINS") {
		names = append(names, c.Name())
	}
	if got := flat([][]string{names}); got != "Name,Status,Type,Library,License" {
		t.Errorf("SHOW PLUGINS columns: %s", got)
	}
	wantAnswers(t, db, "plugins", map[string]string{
		"SHOW PLUGINS": "mysql_native_password,ACTIVE,AUTHENTICATION,NULL,GPL;caching_sha2_password,ACTIVE,AUTHENTICATION,NULL,GPL;InnoDB,ACTIVE,STORAGE ENGINE,NULL,GPL",
		"SELECT GROUP_CONCAT(PLUGIN_NAME ORDER BY PLUGIN_NAME) FROM information_schema.PLUGINS WHERE PLUGIN_TYPE = 'AUTHENTICATION'": "caching_sha2_password,mysql_native_password",
	})
}
