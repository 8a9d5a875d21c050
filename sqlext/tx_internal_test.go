package sqlext

import (
	"testing"

	"github.com/sqlearn/sqlearn/storage"
)

// TestResetLetsRowsGo: a transaction that ends leaves none of its rows in
// the tables its statements' editors still hold (a statement commits
// before its editor goes), so a large transaction is not held in memory
// while its command commits, and an editor used afterwards sees no
// change of the ended transaction.
func TestResetLetsRowsGo(t *testing.T) {
	tx := newTransaction(false)
	keyed := tx.tableForWrite("d", "t", false, []uniqueIndex{{name: "u", cols: []int{1}}})
	keyless := tx.tableForWrite("d", "k", true, nil)
	for i, tt := range []*txTable{keyed, keyless} {
		tx.set(tt, "id", &change{row: storage.Row{int64(i), "x"}})
	}
	if len(keyed.changes) != 1 || len(keyless.changes) != 1 {
		t.Fatalf("changes not recorded: %d, %d", len(keyed.changes), len(keyless.changes))
	}
	tx.reset()
	for _, tt := range []*txTable{keyed, keyless} {
		if len(tt.changes) != 0 || len(tt.order) != 0 || len(tt.unique) != 0 || len(tt.content) != 0 {
			t.Errorf("%s still holds %d changes, %d ids, %d unique keys, %d keyless contents after reset",
				tt.name, len(tt.changes), len(tt.order), len(tt.unique), len(tt.content))
		}
	}
	if cmd := tx.command(); len(cmd.Ops) != 0 {
		t.Errorf("an ended transaction still commits %d ops", len(cmd.Ops))
	}
}
