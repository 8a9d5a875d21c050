package sqlext_test

import (
	"slices"
	"testing"
)

// TestHelp: HELP answers as MySQL does with no help topics loaded, a
// result of the columns name and is_it_category without rows, for a
// quoted topic or a bare word, alone or before other statements; the
// parser refused it. HELP without a topic is still a syntax error.
func TestHelp(t *testing.T) {
	_, _, db := serve(t)
	for _, q := range []string{"HELP 'select'", "help contents", `HELP "SHOW"`, "HELP 'x'; SELECT 1"} {
		rows, err := db.Query(q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		cols, _ := rows.Columns()
		if want := []string{"name", "is_it_category"}; !slices.Equal(cols, want) {
			t.Errorf("%s: columns %v, want %v", q, cols, want)
		}
		if rows.Next() {
			t.Errorf("%s: answered a row", q)
		}
		if q == "HELP 'x'; SELECT 1" {
			if !rows.NextResultSet() || !rows.Next() {
				t.Errorf("%s: the SELECT after HELP gave no row", q)
			}
		}
		rows.Close()
	}
	_, err := db.Exec("HELP")
	wantMySQLError(t, err, 1064, "42000")
}
