package sqlext

import (
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"
)

// The engine's information_schema.VIEWS reads each view's CREATE VIEW
// statement again with its own parser, which refuses WITH LOCAL CHECK
// OPTION, so such a view had no row; and it says NONE for every view's
// CHECK_OPTION. viewsTable is the engine's VIEWS with a row for every
// view and MySQL's CHECK_OPTION: Database.AllViews gives the engine a
// LOCAL view's statement as CASCADED (engineReadableView), and the rows
// take the option from the statement as it was written.
type viewsTable struct {
	sql.Table
	p *Provider
}

var _ sql.CatalogTable = viewsTable{}

func (t viewsTable) AssignCatalog(cat sql.Catalog) sql.Table {
	if c, ok := t.Table.(sql.CatalogTable); ok {
		return viewsTable{Table: c.AssignCatalog(cat), p: t.p}
	}
	return t
}

func (t viewsTable) PartitionRows(ctx *sql.Context, part sql.Partition) (sql.RowIter, error) {
	rows, err := partitionRows(ctx, t.Table, part)
	if err != nil {
		return nil, err
	}
	sch := t.Table.Schema()
	db, name, opt, def := sch.IndexOfColName("TABLE_SCHEMA"), sch.IndexOfColName("TABLE_NAME"), sch.IndexOfColName("CHECK_OPTION"), sch.IndexOfColName("VIEW_DEFINITION")
	if db < 0 || name < 0 || opt < 0 || def < 0 {
		return sql.RowsToRowIter(rows...), nil
	}
	if rows, err = t.viewsOfOtherDatabases(ctx, part, rows, db, name); err != nil {
		return nil, err
	}
	for _, r := range rows {
		d, _ := r[db].(string)
		n, _ := r[name].(string)
		v, ok, err := metaValue[sql.ViewDefinition](&Database{p: t.p, name: d}, viewPrefix+strings.ToLower(n))
		if err != nil || !ok {
			continue
		}
		if option := viewCheckOption(v.CreateViewStatement); option != "" {
			r[opt] = option
			if text, ok := r[def].(string); ok {
				r[def] = withoutCheckClause(text)
			}
		}
	}
	return sql.RowsToRowIter(rows...), nil
}

// viewsOfOtherDatabases adds the rows the engine left out: it plans each
// view's statement in the session's current database, so a view that
// names its tables without their database had no row unless its own
// database was the current one (a BI tool listing the views of every
// database found few). The engine's rows are read again with each such
// view's database current, for that database's rows alone.
func (t viewsTable) viewsOfOtherDatabases(ctx *sql.Context, part sql.Partition, rows []sql.Row, db, name int) ([]sql.Row, error) {
	listed := map[string]bool{}
	for _, r := range rows {
		d, _ := r[db].(string)
		n, _ := r[name].(string)
		listed[strings.ToLower(d+"."+n)] = true
	}
	current := ctx.GetCurrentDatabase()
	defer ctx.SetCurrentDatabase(current)
	for _, d := range t.p.store.Databases() {
		if strings.EqualFold(d, current) {
			continue
		}
		views, err := metaValues[sql.ViewDefinition](&Database{p: t.p, name: d}, viewPrefix)
		if err != nil {
			return nil, err
		}
		missing := false
		for _, v := range views {
			missing = missing || !listed[strings.ToLower(d+"."+v.Name)]
		}
		if !missing {
			continue
		}
		ctx.SetCurrentDatabase(d)
		more, err := partitionRows(ctx, t.Table, part)
		if err != nil {
			return nil, err
		}
		for _, r := range more {
			rd, _ := r[db].(string)
			rn, _ := r[name].(string)
			if key := strings.ToLower(rd + "." + rn); strings.EqualFold(rd, d) && !listed[key] {
				listed[key] = true
				rows = append(rows, r)
			}
		}
	}
	return rows, nil
}

// viewCheckOption is a CREATE VIEW statement's CHECK OPTION as
// information_schema.VIEWS says it: LOCAL, CASCADED, or "" for none.
func viewCheckOption(create string) string {
	st, err := ast.Parse(create)
	ddl, ok := st.(*ast.DDL)
	if err != nil || !ok || ddl.ViewSpec == nil {
		return ""
	}
	switch ddl.ViewSpec.CheckOption {
	case ast.ViewCheckOptionUnspecified:
		return ""
	case ast.ViewCheckOptionLocal:
		return "LOCAL"
	}
	return "CASCADED"
}

// withoutCheckClause is a view's query text without the CHECK OPTION
// clause that ends it, and without the bare WITH that views created
// before viewCheckClause end with.
func withoutCheckClause(text string) string {
	toks := sqlTokens(text)
	cut := len(toks)
	if cut > 0 && strings.EqualFold(toks[cut-1].text, "OPTION") {
		cut--
		if cut > 0 && strings.EqualFold(toks[cut-1].text, "CHECK") {
			cut--
		}
		if cut > 0 && (strings.EqualFold(toks[cut-1].text, "LOCAL") || strings.EqualFold(toks[cut-1].text, "CASCADED")) {
			cut--
		}
	}
	if cut > 0 && strings.EqualFold(toks[cut-1].text, "WITH") {
		cut--
	}
	if cut == len(toks) || cut == 0 {
		return text
	}
	return strings.TrimSpace(text[:toks[cut].start])
}

// engineReadableView is def with a CREATE VIEW statement the engine's
// own parser reads: WITH LOCAL CHECK OPTION, which it refuses, as WITH
// CASCADED CHECK OPTION. The engine ignores CHECK OPTION; writes through
// views read the stored statement (writableView).
func engineReadableView(def sql.ViewDefinition) sql.ViewDefinition {
	toks := sqlTokens(def.CreateViewStatement)
	n := len(toks)
	if n >= 3 && strings.EqualFold(toks[n-1].text, "OPTION") && strings.EqualFold(toks[n-2].text, "CHECK") && strings.EqualFold(toks[n-3].text, "LOCAL") {
		s := def.CreateViewStatement
		def.CreateViewStatement = s[:toks[n-3].start] + "CASCADED" + s[toks[n-3].end:]
	}
	return def
}
