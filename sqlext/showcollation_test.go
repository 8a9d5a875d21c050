package sqlext_test

import (
	"strings"
	"testing"
)

// TestShowCollationColumns: SHOW COLLATION names its columns as MySQL
// 8.0 does, and LIKE and WHERE filter by them; the engine named them
// collation, charset, ID, ..., SORTLEN, PAD_ATTRIBUTE.
func TestShowCollationColumns(t *testing.T) {
	_, _, db := serve(t)
	rows, err := db.Query("SHOW COLLATION LIKE 'latin1%'")
	if err != nil {
		t.Fatal(err)
	}
	cols, err := rows.Columns()
	rows.Close()
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(cols, ","); got != "Collation,Charset,Id,Default,Compiled,Sortlen,Pad_attribute" {
		t.Errorf("columns %s", got)
	}
	wantAnswers(t, db, "filtered", map[string]string{
		"SHOW COLLATION LIKE 'latin1_b%'":                                   "latin1_bin,latin1,47,,Yes,1,PAD SPACE",
		"show collation where Charset = 'latin1' and `Default` = 'Yes'":     "latin1_swedish_ci,latin1,8,Yes,Yes,1,PAD SPACE",
		"SHOW COLLATION WHERE Id IN (63, 255) AND Pad_attribute = 'NO PAD'": "binary,binary,63,Yes,Yes,1,NO PAD;utf8mb4_0900_ai_ci,utf8mb4,255,Yes,Yes,0,NO PAD",
	})
	// Every collation, once.
	all := queryStrings(t, db, "SHOW COLLATION")
	seen := map[string]bool{}
	for _, r := range all {
		if seen[r[0]] {
			t.Fatalf("%s listed twice", r[0])
		}
		seen[r[0]] = true
	}
	if !seen["utf8mb4_0900_ai_ci"] || !seen["latin1_swedish_ci"] || len(all) < 100 {
		t.Errorf("%d collations listed", len(all))
	}
}
