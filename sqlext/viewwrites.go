package sqlext

import (
	"fmt"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/vitess/go/mysql"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"
)

// INSERT, REPLACE, UPDATE and DELETE through a view write its table, as in
// MySQL, when the view is updatable: one stored table (or a join of
// them, which takes fewer writes: viewjoinwrites.go), no DISTINCT,
// aggregate, window, GROUP BY, HAVING, LIMIT or subquery, and not
// ALGORITHM=TEMPTABLE. The statement is rewritten before it is planned:
// its target becomes the view's table (under the view's name, or the
// statement's alias, so that qualified names still resolve), the view's
// columns its table's columns or expressions, and the view's WHERE is
// joined to the statement's, so that a change reaches only the rows the
// view shows. A column of the view that is an expression cannot be set
// (1348), and a view with one cannot take an INSERT (1471). The engine
// refused every write to a view (1105).
//
// A view WITH CHECK OPTION takes only rows it shows: its WHERE joins the
// table's CHECK constraints for the statement (viewCheck), and a row that
// fails it is 1369, "CHECK OPTION failed 'db.v'".
//
// A view over an updatable view writes the table below both, under both
// conditions.
//
// Not done: a statement with subqueries that read the view's columns,
// and the joins viewjoinwrites.go says it does not take.

// viewTarget rewrites st when it writes through an updatable view, and
// refuses it with MySQL's error when the view is not one.
func (p *Provider) viewTarget(ctx *sql.Context, st ast.Statement) error {
	sess, _ := ctx.Session.(*Session)
	if sess != nil {
		sess.viewCheck = nil
	}
	v, err := p.writeTarget(ctx, st)
	if v == nil || err != nil {
		return err
	}
	if up, ok := st.(*ast.Update); ok && v.join != nil {
		// Its tables were marked (processParser) while it named the view.
		p.markJoinTables(ctx, up)
	}
	if _, del := st.(*ast.Delete); del || sess == nil {
		return nil
	}
	db, table, check := v.baseDB, v.base, v.check
	if v.join != nil {
		db, table, check = v.written.db, v.written.name, v.writtenCheck
	}
	if check != "" {
		sess.viewCheck = &viewCheck{db: db, table: table, view: v.db + "." + v.name, expr: check}
	}
	return nil
}

// viewCheck is the condition of a view WITH CHECK OPTION that the rows a
// statement writes through it must meet.
type viewCheck struct {
	db, table string // the view's table
	view      string // db.name
	expr      string
}

// viewCheckPrefix names the CHECK a view WITH CHECK OPTION lends its
// table for a statement (Table.GetChecks), so that its failure is known.
const viewCheckPrefix = "sqlearn:view:"

// viewChecks are the checks a statement writing through a view WITH
// CHECK OPTION adds to table t's. A row the view's condition says
// neither true nor false of (NULL) is not one it shows, so it fails the
// check, where a CHECK constraint would take it.
func viewChecks(ctx *sql.Context, db, table string) []sql.CheckDefinition {
	s, ok := ctx.Session.(*Session)
	if !ok || s.viewCheck == nil || !strings.EqualFold(s.viewCheck.db, db) || !strings.EqualFold(s.viewCheck.table, table) {
		return nil
	}
	return []sql.CheckDefinition{{Name: viewCheckPrefix + s.viewCheck.view, CheckExpression: "(" + s.viewCheck.expr + ") IS TRUE", Enforced: true}}
}

// viewCheckFailed is MySQL's error for a row that a view's CHECK OPTION
// refuses, given the engine's text for the failed check it lent.
func viewCheckFailed(msg string) (string, bool) {
	var name string
	if _, err := fmt.Sscanf(msg, "Check constraint %q violated", &name); err != nil {
		return "", false
	}
	view, ok := strings.CutPrefix(name, viewCheckPrefix)
	if !ok {
		return "", false
	}
	return fmt.Sprintf("CHECK OPTION failed '%s'", view), true
}

// writeTarget rewrites st, a write through a view, as viewTarget says,
// and gives the view.
func (p *Provider) writeTarget(ctx *sql.Context, st ast.Statement) (*writableView, error) {
	switch s := st.(type) {
	case *ast.Insert:
		v, err := p.viewNamed(ctx, s.Table)
		if v == nil || err != nil {
			return nil, err
		}
		return v, v.insert(s)
	case *ast.Update:
		te, ok := singleTable(s.TableExprs)
		if !ok {
			return nil, nil
		}
		v, err := p.viewNamed(ctx, te.Expr.(ast.TableName))
		if v == nil || err != nil {
			return nil, err
		}
		return v, v.update(s, te)
	case *ast.Delete:
		te, ok := singleTable(s.TableExprs)
		if !ok || len(s.Targets) > 0 {
			return nil, nil
		}
		v, err := p.viewNamed(ctx, te.Expr.(ast.TableName))
		if v == nil || err != nil {
			return nil, err
		}
		return v, v.delete(s, te)
	}
	return nil, nil
}

func singleTable(exprs ast.TableExprs) (*ast.AliasedTableExpr, bool) {
	if len(exprs) != 1 {
		return nil, false
	}
	te, ok := exprs[0].(*ast.AliasedTableExpr)
	if !ok {
		return nil, false
	}
	_, ok = te.Expr.(ast.TableName)
	return te, ok
}

// writableView is a view as a write through it reads it.
type writableView struct {
	db, name string
	// base is the view's table, and cols maps each of the view's columns
	// (lower case) to the text of what it reads from the table.
	baseDB, base string
	cols         map[string]string
	order        []string // the view's columns, in order
	where        string   // the view's condition, "" for none
	checked      bool     // WITH CHECK OPTION, its own or a view's below
	check        string   // what a row written must meet, "" for nothing
	// join is the view's FROM when it reads a join (viewjoinwrites.go):
	// then base is "", and cols, where and check read its tables' columns
	// qualified by their names in the view. written is the table a
	// statement through it writes, and writtenCheck what that table's rows
	// must meet.
	join         *viewJoin
	written      *viewTable
	writtenCheck string
	// refusal says why the view cannot take a write, "" when it can.
	refusal string
}

// viewNamed is the view a statement names as its target, nil when the
// name is not a view's.
func (p *Provider) viewNamed(ctx *sql.Context, tn ast.TableName) (*writableView, error) {
	db := tn.DbQualifier.String()
	if db == "" {
		db = ctx.GetCurrentDatabase()
	}
	name := tn.Name.String()
	if db == "" || name == "" {
		return nil, nil
	}
	if _, err := p.store.Table(db, name); err == nil {
		return nil, nil
	}
	return p.storedView(db, name, 0)
}

// maxViewDepth bounds the views over views a write goes through.
const maxViewDepth = 16

// storedView is the view db.name, nil when there is none; depth counts
// the views above it that a write goes through.
func (p *Provider) storedView(db, name string, depth int) (*writableView, error) {
	stored, ok := p.store.Database(db)
	if !ok {
		return nil, nil
	}
	def, ok, err := metaValue[sql.ViewDefinition](&Database{p: p, name: stored}, viewPrefix+strings.ToLower(name))
	if err != nil || !ok {
		return nil, err
	}
	v := &writableView{db: stored, name: def.Name}
	v.read(p, def.CreateViewStatement, depth)
	return v, nil
}

// read fills the view from its CREATE VIEW statement. A view over an
// updatable view reads that view's table: its columns and condition are
// written over the table's columns (compose).
func (v *writableView) read(p *Provider, create string, depth int) {
	st, err := ast.Parse(create)
	ddl, ok := st.(*ast.DDL)
	if err != nil || !ok || ddl.ViewSpec == nil {
		v.refusal = "its definition cannot be read"
		return
	}
	spec := ddl.ViewSpec
	v.checked = spec.CheckOption != ast.ViewCheckOptionUnspecified
	sel, ok := spec.ViewExpr.(*ast.Select)
	switch {
	case strings.EqualFold(spec.Algorithm, "TEMPTABLE"):
		v.refusal = "ALGORITHM=TEMPTABLE"
	case !ok:
		v.refusal = "a set operation"
	case sel.QueryOpts.Distinct || len(sel.GroupBy) > 0 || sel.Having != nil || sel.Limit != nil || sel.With != nil || len(sel.Window) > 0:
		v.refusal = "DISTINCT, GROUP BY, HAVING, LIMIT or WITH"
	}
	if v.refusal != "" {
		return
	}
	var names []string // the columns of what it reads, over one table
	var inner *writableView
	if te, ok := singleTable(sel.From); ok {
		tn := te.Expr.(ast.TableName)
		v.baseDB, v.base = tn.DbQualifier.String(), tn.Name.String()
		if v.baseDB == "" {
			v.baseDB = v.db
		}
		names, inner = p.readTable(v, depth)
	} else {
		v.join, v.refusal = p.readJoin(v.db, sel.From)
	}
	if v.refusal != "" {
		return
	}
	if sel.Where != nil {
		if !plainExpr(sel.Where.Expr) {
			v.refusal = "a subquery"
			return
		}
		if v.where = v.exprText(sel.Where.Expr); v.where == "" {
			v.refusal = "a condition it cannot read"
			return
		}
	}
	v.cols = map[string]string{}
	add := func(name, expr string) {
		if i := len(v.order); i < len(spec.Columns) {
			name = spec.Columns[i].String()
		}
		v.order = append(v.order, name)
		v.cols[strings.ToLower(name)] = expr
	}
	for _, e := range sel.SelectExprs {
		switch x := e.(type) {
		case *ast.StarExpr:
			if v.join != nil {
				for _, t := range v.join.tables {
					if q := x.TableName.Name.String(); q == "" || strings.EqualFold(q, t.alias) {
						for _, c := range t.cols {
							add(c, t.column(c))
						}
					}
				}
				continue
			}
			for _, c := range names {
				add(c, "`"+strings.ReplaceAll(c, "`", "``")+"`")
			}
		case *ast.AliasedExpr:
			if !plainExpr(x.Expr) {
				v.refusal = "an aggregate, window function or subquery"
				return
			}
			name := x.As.String()
			if name == "" {
				if c, ok := x.Expr.(*ast.ColName); ok {
					name = c.Name.String()
				} else {
					name = x.InputExpression
				}
			}
			text := v.exprText(x.Expr)
			if text == "" {
				v.refusal = "a column it cannot read"
				return
			}
			add(name, text)
		default:
			v.refusal = "a column it cannot read"
			return
		}
	}
	v.check = ""
	if v.checked {
		v.check = v.filter()
	}
	if inner != nil {
		v.compose(inner, spec.CheckOption == ast.ViewCheckOptionLocal)
	}
}

// readTable reads the columns of the table v reads, or of the view it
// reads, which it gives.
func (p *Provider) readTable(v *writableView, depth int) ([]string, *writableView) {
	if info, err := p.store.Table(v.baseDB, v.base); err == nil {
		names := make([]string, len(info.Schema.Columns))
		for i, c := range info.Schema.Columns {
			names[i] = c.Name
		}
		return names, nil
	}
	var inner *writableView
	if depth < maxViewDepth {
		inner, _ = p.storedView(v.baseDB, v.base, depth+1)
	}
	switch {
	case inner == nil:
		v.refusal = "it reads no table"
	case inner.refusal != "":
		v.refusal = inner.refusal
	}
	if v.refusal != "" {
		return nil, nil
	}
	return inner.order, inner
}

// compose writes v, a view over the view inner, over inner's table:
// each of its columns and its condition with inner's columns replaced by
// what they read, and inner's condition joined to its own. A write
// through v is checked as MySQL checks it: against v's condition and,
// unless v's CHECK OPTION is LOCAL, every condition below it; against
// inner's own checks when v has none.
func (v *writableView) compose(inner *writableView, local bool) {
	for name, text := range v.cols {
		if v.cols[name] = inner.substitute(text); v.cols[name] == "" {
			v.refusal = "a column it cannot read"
			return
		}
	}
	own := ""
	if v.where != "" {
		if own = inner.substitute(v.where); own == "" {
			v.refusal = "a condition it cannot read"
			return
		}
	}
	v.where = andText(own, inner.where)
	v.baseDB, v.base, v.join = inner.baseDB, inner.base, inner.join
	switch {
	case !v.checked:
		v.check = inner.check
	case local:
		v.check = andText(own, inner.check)
	default:
		v.check = v.filter()
	}
	v.checked = v.check != ""
}

// filter is the condition a row of the view's table or join meets: its
// WHERE, and over a join the ON conditions of its inner joins.
func (v *writableView) filter() string {
	if v.join == nil {
		return v.where
	}
	return andText(v.join.on, v.where)
}

// exprText is the text of e, an expression of the view's query, over
// its table's columns, bare, or its join's, qualified; "" when it names
// a column none of the join's tables has, or one several have.
func (v *writableView) exprText(e ast.Expr) string {
	if v.join == nil {
		return exprText(e)
	}
	if !v.join.qualify(e) {
		return ""
	}
	return ast.String(e)
}

// substitute writes text, an expression over v's columns, over v's
// table; "" when it names a column v does not have.
func (v *writableView) substitute(text string) string {
	e := v.parse(text, "")
	if e == nil {
		return ""
	}
	var cols []*ast.ColName
	_ = ast.Walk(func(n ast.SQLNode) (bool, error) {
		if c, ok := n.(*ast.ColName); ok {
			cols = append(cols, c)
		}
		return true, nil
	}, e)
	for _, c := range cols {
		read := v.column(c.Name.String(), "")
		if read == nil {
			return ""
		}
		if _, bare := read.(*ast.ColName); !bare {
			read = &ast.ParenExpr{Expr: read}
		}
		e = ast.ReplaceExpr(e, c, read)
	}
	return ast.String(e)
}

// andText joins two conditions, either of which may be "".
func andText(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return "(" + a + ") AND (" + b + ")"
}

// plainExpr says whether e reads no subquery, aggregate or window.
func plainExpr(e ast.Expr) bool {
	plain := true
	_ = ast.Walk(func(n ast.SQLNode) (bool, error) {
		switch x := n.(type) {
		case *ast.Subquery:
			plain = false
		case *ast.FuncExpr:
			if x.IsAggregate() || x.Over != nil {
				plain = false
			}
		case *ast.GroupConcatExpr:
			plain = false
		}
		return plain, nil
	}, e)
	return plain
}

// exprText writes an expression of the view with its column names bare,
// to be qualified with the alias the rewritten statement gives the table.
func exprText(e ast.Expr) string {
	_ = ast.Walk(func(n ast.SQLNode) (bool, error) {
		if c, ok := n.(*ast.ColName); ok {
			c.Qualifier = ast.TableName{}
		}
		return true, nil
	}, e)
	return ast.String(e)
}

// column is what the view's column name reads, as an expression over the
// table under alias (bare names when alias is ""); nil when the view has
// no such column.
func (v *writableView) column(name, alias string) ast.Expr {
	text, ok := v.cols[strings.ToLower(name)]
	if !ok {
		return nil
	}
	return v.parse(text, alias)
}

// parse reads an expression of the view and qualifies its columns.
func (v *writableView) parse(text, alias string) ast.Expr {
	st, err := ast.Parse("SELECT " + text)
	sel, ok := st.(*ast.Select)
	if err != nil || !ok || len(sel.SelectExprs) != 1 {
		return nil
	}
	ae, ok := sel.SelectExprs[0].(*ast.AliasedExpr)
	if !ok {
		return nil
	}
	if alias != "" && v.join == nil {
		_ = ast.Walk(func(n ast.SQLNode) (bool, error) {
			if c, ok := n.(*ast.ColName); ok {
				c.Qualifier = ast.TableName{Name: ast.NewTableIdent(alias)}
			}
			return true, nil
		}, ae.Expr)
	}
	return ae.Expr
}

// baseColumn is the table's column a view's column is (qualified by its
// table's name in the view when the view reads a join), nil when it is
// an expression; false when the view has no such column.
func (v *writableView) baseColumn(name string) (*ast.ColName, bool) {
	e := v.column(name, "")
	c, ok := e.(*ast.ColName)
	if !ok {
		return nil, e != nil
	}
	return c, true
}

func (v *writableView) table() ast.TableName {
	return ast.TableName{Name: ast.NewTableIdent(v.base), DbQualifier: ast.NewTableIdent(v.baseDB)}
}

func (v *writableView) notUpdatable(op string) error {
	return mysql.NewSQLError(erNonUpdatableTable, "HY000", "The target table %s of the %s is not updatable", v.name, op)
}

// MySQL's codes for writes through views.
const (
	erNonUpdatableTable  = 1288 // ER_NON_UPDATABLE_TABLE
	erNonUpdatableColumn = 1348 // ER_NONUPDATEABLE_COLUMN
	erNonInsertableTable = 1471 // ER_NON_INSERTABLE_TABLE
)

func (v *writableView) insert(s *ast.Insert) error {
	op := "INSERT"
	if strings.EqualFold(s.Action, ast.ReplaceStr) {
		op = "REPLACE"
	}
	if v.refusal != "" {
		return mysql.NewSQLError(erNonInsertableTable, "HY000", "The target table %s of the %s is not insertable-into", v.name, op)
	}
	if v.join != nil {
		return v.insertJoin(s, op)
	}
	names := make([]string, 0, len(v.order))
	if len(s.Columns) == 0 {
		names = append(names, v.order...)
	} else {
		for _, c := range s.Columns {
			names = append(names, c.String())
		}
	}
	cols := make(ast.Columns, len(names))
	for i, n := range names {
		base, ok := v.baseColumn(n)
		switch {
		case !ok:
			return mysql.NewSQLError(mysql.ERBadFieldError, "42S22", "Unknown column '%s' in 'field list'", n)
		case base == nil:
			return mysql.NewSQLError(erNonInsertableTable, "HY000", "The target table %s of the %s is not insertable-into", v.name, op)
		}
		cols[i] = base.Name
	}
	for _, a := range s.OnDup {
		if err := v.assignment(a, ""); err != nil {
			return err
		}
	}
	s.Table, s.Columns = v.table(), cols
	return nil
}

func (v *writableView) update(s *ast.Update, te *ast.AliasedTableExpr) error {
	if v.refusal != "" {
		return v.notUpdatable("UPDATE")
	}
	alias := v.alias(te)
	for _, a := range s.Exprs {
		if err := v.assignment(a, alias); err != nil {
			return err
		}
	}
	if v.join != nil {
		if err := v.updateJoin(s); err != nil {
			return err
		}
	}
	return v.retarget(&s.TableExprs, te, alias, s.OrderBy, &s.Where)
}

func (v *writableView) delete(s *ast.Delete, te *ast.AliasedTableExpr) error {
	switch {
	case v.refusal != "" || v.join != nil && v.join.outer:
		return v.notUpdatable("DELETE")
	case v.join != nil:
		// Which of the join's tables would lose the row, MySQL does not guess.
		return mysql.NewSQLError(erViewDeleteMergeView, "HY000", "Can not delete from join view '%s.%s'", v.db, v.name)
	}
	return v.retarget(&s.TableExprs, te, v.alias(te), s.OrderBy, &s.Where)
}

// retarget points an UPDATE's or DELETE's table te, one of tables, at
// the view's table, under alias, or makes tables the view's join; and
// its ORDER BY and WHERE read the table's or the join's columns.
func (v *writableView) retarget(tables *ast.TableExprs, te *ast.AliasedTableExpr, alias string, order ast.OrderBy, where **ast.Where) error {
	if err := v.mapOrder(order, alias); err != nil {
		return err
	}
	w, err := v.condition(*where, alias)
	if err != nil {
		return err
	}
	*where = w
	if v.join != nil {
		*tables = v.join.from
		return nil
	}
	te.Expr, te.As = v.table(), ast.NewTableIdent(alias)
	return nil
}

// alias is the name the statement calls the view by.
func (v *writableView) alias(te *ast.AliasedTableExpr) string {
	if a := te.As.String(); a != "" {
		return a
	}
	return te.Expr.(ast.TableName).Name.String()
}

// assignment sets a column of the table for one of the view's.
func (v *writableView) assignment(a *ast.AssignmentExpr, alias string) error {
	base, ok := v.baseColumn(a.Name.Name.String())
	switch {
	case !ok:
		return mysql.NewSQLError(mysql.ERBadFieldError, "42S22", "Unknown column '%s' in 'field list'", a.Name.Name.String())
	case base == nil:
		return mysql.NewSQLError(erNonUpdatableColumn, "HY000", "Column '%s' is not updatable", a.Name.Name.String())
	}
	a.Name = base
	if v.join == nil {
		a.Name.Qualifier = ast.TableName{}
		if alias != "" {
			a.Name.Qualifier = ast.TableName{Name: ast.NewTableIdent(alias)}
		}
	}
	e, err := v.mapExpr(a.Expr, alias)
	a.Expr = e
	return err
}

func (v *writableView) mapOrder(order ast.OrderBy, alias string) error {
	for _, o := range order {
		e, err := v.mapExpr(o.Expr, alias)
		if err != nil {
			return err
		}
		o.Expr = e
	}
	return nil
}

// condition is the statement's WHERE over the table, joined to the
// view's.
func (v *writableView) condition(w *ast.Where, alias string) (*ast.Where, error) {
	var own ast.Expr
	if w != nil {
		e, err := v.mapExpr(w.Expr, alias)
		if err != nil {
			return nil, err
		}
		own = e
	}
	var view ast.Expr
	if v.where != "" {
		view = &ast.ParenExpr{Expr: v.parse(v.where, alias)}
	}
	switch {
	case view == nil && own == nil:
		return nil, nil
	case view == nil:
		return ast.NewWhere(ast.WhereStr, own), nil
	case own == nil:
		return ast.NewWhere(ast.WhereStr, view), nil
	}
	return ast.NewWhere(ast.WhereStr, &ast.AndExpr{Left: view, Right: &ast.ParenExpr{Expr: own}}), nil
}

// mapExpr puts each name of a view's column in e, outside subqueries,
// as what it reads from the table; a name the view lacks is 1054.
func (v *writableView) mapExpr(e ast.Expr, alias string) (ast.Expr, error) {
	if e == nil {
		return nil, nil
	}
	var names []*ast.ColName
	var foreign *ast.ColName
	_ = ast.Walk(func(n ast.SQLNode) (bool, error) {
		switch x := n.(type) {
		case *ast.Subquery:
			return false, nil
		case *ast.ColName:
			q := x.Qualifier.Name.String()
			if q == "" || strings.EqualFold(q, alias) || strings.EqualFold(q, v.name) {
				names = append(names, x)
			} else if foreign == nil {
				foreign = x
			}
		}
		return true, nil
	}, e)
	if foreign != nil && v.join != nil {
		// The statement sees the view, not the tables of its join.
		return nil, mysql.NewSQLError(mysql.ERBadFieldError, "42S22", "Unknown column '%s' in 'where clause'", ast.String(foreign))
	}
	for _, c := range names {
		to := v.column(c.Name.String(), alias)
		if to == nil {
			return nil, mysql.NewSQLError(mysql.ERBadFieldError, "42S22", "Unknown column '%s' in 'where clause'", c.Name.String())
		}
		if tc, ok := to.(*ast.ColName); ok {
			*c = *tc // in place: the name may stand where no expression can
			continue
		}
		e = ast.ReplaceExpr(e, c, &ast.ParenExpr{Expr: to})
	}
	return e, nil
}

// viewCheckClause has the engine create a view WITH CHECK OPTION as
// MySQL does. It refused WITH LOCAL CHECK OPTION as unsupported syntax;
// the engine ignores a view's CHECK OPTION, and the statement text it
// keeps, which says LOCAL, is what writes through the view read
// (writableView.read). And the text of the view's query the parser
// marks ended after WITH, so that SHOW CREATE VIEW wrote "... WHERE a >
// 1 WITH", which no server can read back (a dump of such a view could
// not be restored): the text now runs to the end of the clause.
func viewCheckClause(st ast.Statement, text string) {
	ddl, ok := st.(*ast.DDL)
	if !ok || ddl.ViewSpec == nil || ddl.ViewSpec.CheckOption == ast.ViewCheckOptionUnspecified {
		return
	}
	if ddl.ViewSpec.CheckOption == ast.ViewCheckOptionLocal {
		ddl.ViewSpec.CheckOption = ast.ViewCheckOptionCascaded
	}
	end := ddl.SubStatementPositionEnd
	if end <= 0 || end > len(text) {
		return
	}
	for i, t := range sqlTokens(text[end:]) {
		if i > 2 {
			return
		}
		if strings.EqualFold(t.text, "OPTION") {
			ddl.SubStatementPositionEnd = end + t.end
			return
		}
	}
}
