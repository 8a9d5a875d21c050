package sqlext

import (
	"fmt"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/vitess/go/mysql"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"
)

// INSERT, REPLACE, UPDATE and DELETE through a view write its table, as in
// MySQL, when the view is updatable: one stored table, no DISTINCT,
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
// Not done: a view over a join, and a statement with subqueries that
// read the view's columns.

// viewTarget rewrites st when it writes through an updatable view, and
// refuses it with MySQL's error when the view is not one.
func (p *Provider) viewTarget(ctx *sql.Context, st ast.Statement) error {
	sess, _ := ctx.Session.(*Session)
	if sess != nil {
		sess.viewCheck = nil
	}
	v, err := p.writeTarget(ctx, st)
	if v != nil && v.check != "" && err == nil && sess != nil {
		if _, del := st.(*ast.Delete); !del {
			sess.viewCheck = &viewCheck{db: v.baseDB, table: v.base, view: v.db + "." + v.name, expr: v.check}
		}
	}
	return err
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
	te, ok := singleTable(sel.From)
	if !ok {
		v.refusal = "a join or derived table"
		return
	}
	tn := te.Expr.(ast.TableName)
	v.baseDB, v.base = tn.DbQualifier.String(), tn.Name.String()
	if v.baseDB == "" {
		v.baseDB = v.db
	}
	var names []string // the columns of what it reads
	var inner *writableView
	if info, err := p.store.Table(v.baseDB, v.base); err == nil {
		for _, c := range info.Schema.Columns {
			names = append(names, c.Name)
		}
	} else {
		if depth < maxViewDepth {
			inner, _ = p.storedView(v.baseDB, v.base, depth+1)
		}
		if inner == nil {
			v.refusal = "it reads no table"
			return
		}
		if inner.refusal != "" {
			v.refusal = inner.refusal
			return
		}
		names = inner.order
	}
	if sel.Where != nil {
		if !plainExpr(sel.Where.Expr) {
			v.refusal = "a subquery"
			return
		}
		v.where = exprText(sel.Where.Expr)
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
			add(name, exprText(x.Expr))
		default:
			v.refusal = "a column it cannot read"
			return
		}
	}
	v.check = ""
	if v.checked {
		v.check = v.where
	}
	if inner != nil {
		v.compose(inner, spec.CheckOption == ast.ViewCheckOptionLocal)
	}
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
	switch {
	case !v.checked:
		v.check = inner.check
	case local:
		v.check = andText(own, inner.check)
	default:
		v.check = v.where
	}
	v.checked = v.check != ""
	v.baseDB, v.base = inner.baseDB, inner.base
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
	return exprText(e)
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
	if alias != "" {
		_ = ast.Walk(func(n ast.SQLNode) (bool, error) {
			if c, ok := n.(*ast.ColName); ok {
				c.Qualifier = ast.TableName{Name: ast.NewTableIdent(alias)}
			}
			return true, nil
		}, ae.Expr)
	}
	return ae.Expr
}

// baseColumn is the table's column a view's column is, "" when it is an
// expression.
func (v *writableView) baseColumn(name string) (string, bool) {
	e := v.column(name, "")
	c, ok := e.(*ast.ColName)
	if !ok {
		return "", e != nil
	}
	return c.Name.String(), true
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
		case base == "":
			return mysql.NewSQLError(erNonInsertableTable, "HY000", "The target table %s of the %s is not insertable-into", v.name, op)
		}
		cols[i] = ast.NewColIdent(base)
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
	return v.retarget(te, alias, s.OrderBy, &s.Where)
}

func (v *writableView) delete(s *ast.Delete, te *ast.AliasedTableExpr) error {
	if v.refusal != "" {
		return v.notUpdatable("DELETE")
	}
	return v.retarget(te, v.alias(te), s.OrderBy, &s.Where)
}

// retarget points an UPDATE's or DELETE's table at the view's table,
// under alias, with its ORDER BY and WHERE over the table.
func (v *writableView) retarget(te *ast.AliasedTableExpr, alias string, order ast.OrderBy, where **ast.Where) error {
	if err := v.mapOrder(order, alias); err != nil {
		return err
	}
	w, err := v.condition(*where, alias)
	if err != nil {
		return err
	}
	te.Expr, te.As, *where = v.table(), ast.NewTableIdent(alias), w
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
	case base == "":
		return mysql.NewSQLError(erNonUpdatableColumn, "HY000", "Column '%s' is not updatable", a.Name.Name.String())
	}
	a.Name = &ast.ColName{Name: ast.NewColIdent(base)}
	if alias != "" {
		a.Name.Qualifier = ast.TableName{Name: ast.NewTableIdent(alias)}
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
	_ = ast.Walk(func(n ast.SQLNode) (bool, error) {
		switch x := n.(type) {
		case *ast.Subquery:
			return false, nil
		case *ast.ColName:
			q := x.Qualifier.Name.String()
			if q == "" || strings.EqualFold(q, alias) || strings.EqualFold(q, v.name) {
				names = append(names, x)
			}
		}
		return true, nil
	}, e)
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
