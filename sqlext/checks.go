package sqlext

import (
	"encoding/json"
	"fmt"

	"github.com/dolthub/go-mysql-server/sql"

	"github.com/sqlearn/sqlearn/storage"
)

// CHECK constraints are kept, as their SQL text, in the table's replicated
// metadata (tableMeta.Checks); the engine parses and enforces them. A
// table that did not take them made CREATE TABLE ... CHECK fail after the
// table was already created.
var (
	_ sql.CheckTable          = (*Table)(nil)
	_ sql.CheckAlterableTable = (*Table)(nil)
)

// MySQL's codes for CHECK errors.
const (
	erCheckConstraintViolated = 3819
	erCheckConstraintDupName  = 3822
	erUnknownConstraint       = 3940
	// erDependentByCheck is ER_DEPENDENT_BY_CHECK_CONSTRAINT: a column a
	// check reads is dropped or renamed.
	erDependentByCheck = 3959
)

// checkMeta is one CHECK constraint as the table's metadata stores it.
type checkMeta struct {
	Name       string `json:"name"`
	Expression string `json:"expression"`
	Enforced   bool   `json:"enforced"`
}

func (t *Table) GetChecks(ctx *sql.Context) ([]sql.CheckDefinition, error) {
	m := parseTableMeta(t.info.Schema.Meta)
	out := make([]sql.CheckDefinition, len(m.Checks))
	for i, c := range m.Checks {
		out[i] = sql.CheckDefinition{Name: c.Name, CheckExpression: c.Expression, Enforced: c.Enforced}
	}
	if ctx != nil {
		// A write through a view WITH CHECK OPTION (viewwrites.go).
		out = append(out, viewChecks(ctx, t.info.DB, t.info.Name)...)
	}
	return out, nil
}

func (t *Table) CreateCheck(ctx *sql.Context, check *sql.CheckDefinition) error {
	m := parseTableMeta(t.info.Schema.Meta)
	if err := addCheck(&m, t.info.Name, check); err != nil {
		return err
	}
	return t.setMeta(ctx, m)
}

func (t *Table) DropCheck(ctx *sql.Context, name string) error {
	m := parseTableMeta(t.info.Schema.Meta)
	if err := dropCheck(&m, name); err != nil {
		return err
	}
	return t.setMeta(ctx, m)
}

// checkName is MySQL's name for the nth unnamed check of table.
func checkName(table string, n int) string { return fmt.Sprintf("%s_chk_%d", table, n) }

// setMeta replaces the table's metadata through the log.
func (t *Table) setMeta(ctx *sql.Context, m tableMeta) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	return t.refreshAfter(ctx, t.p.propose(ctx, storage.Op{Kind: storage.OpSetTableMeta, DB: t.info.DB, Table: t.info.Name, Name: string(b)}))
}
