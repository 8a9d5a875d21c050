package sqlext

import (
	"strings"

	"github.com/dolthub/vitess/go/mysql"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"
)

// A view over a join of stored tables (JOIN, INNER JOIN, STRAIGHT_JOIN,
// a comma, LEFT or RIGHT JOIN; ON conditions, not USING or NATURAL)
// takes the writes MySQL lets it take (viewwrites.go reads the rest of
// the view as for one table):
//
//   - An UPDATE sets columns of one of its tables, or is 1393. It becomes
//     the engine's multiple-table UPDATE of the view's join, with the
//     view's columns written as its tables' qualified columns and the
//     view's WHERE joined to the statement's: UPDATE v SET y = y + 1
//     WHERE aid = 1 over SELECT a.id AS aid, b.y FROM a JOIN b ON a.id =
//     b.aid is UPDATE db.a AS a JOIN db.b AS b ON a.id = b.aid SET b.y =
//     b.y + 1 WHERE a.id = 1. The engine updates each row of the table
//     once, however many rows of the join it is part of, and counts it
//     once, as MySQL does. ORDER BY and LIMIT go with it, as MariaDB
//     takes them.
//   - An INSERT or REPLACE names columns of one table (1393 when they are
//     of two, 1394 when it names none) and inserts into that table; an
//     ON DUPLICATE KEY UPDATE sets and reads that table's columns only
//     (1393). A view with an outer join takes no INSERT (1471), as
//     neither MySQL nor MariaDB lets it.
//   - A DELETE is 1395: which of the tables would lose the row is not
//     said. Over an outer join it is 1288, as MariaDB answers.
//
// WITH CHECK OPTION: MySQL checks the row a statement writes, with the
// row of the other tables it is joined with, against the view's
// condition (its WHERE and the ON conditions of its inner joins). The
// check a view lends a table (viewCheck) reads that table's row only;
// so the parts of the condition that read the written table alone are
// lent, the parts an UPDATE cannot change (they read none of the
// columns it sets) hold for every row it matched and are left out, and
// a statement that would need the rest (a part that reads both a column
// it writes and another table, such as the join's own ON condition when
// an UPDATE sets a column it joins on, or any part that reads another
// table for an INSERT, whose row is joined with nothing yet) is refused
// with 1235. MariaDB checks an INSERT against whatever row of the other
// tables it read last.
//
// Not done, so refused as not updatable (1288, 1471): a join that reads
// a view or a derived table, a join with USING or NATURAL, and a view
// whose query names a column without its table where the name could be
// read as the column of more than one of them (an ON condition sees only
// the tables it joins). MariaDB takes all of these. A view over a join view is taken
// (compose).

// MySQL's codes for writes through join views.
const (
	erViewMultiUpdate       = 1393 // ER_VIEW_MULTIUPDATE
	erViewNoInsertFieldList = 1394 // ER_VIEW_NO_INSERT_FIELD_LIST
	erViewDeleteMergeView   = 1395 // ER_VIEW_DELETE_MERGE_VIEW
)

// viewJoin is the FROM of a view over a join.
type viewJoin struct {
	// from is the view's FROM with each table named by its database and
	// under its name in the view, and the columns of its ON conditions
	// qualified by those names.
	from   ast.TableExprs
	tables []*viewTable
	on     string // the ON conditions of its inner joins, "" for none
	outer  bool   // it has an outer join
}

// viewTable is one table of a view's join.
type viewTable struct {
	alias    string // its name in the view
	db, name string
	cols     []string
}

// readJoin reads the FROM of a view in database db; the refusal says why
// a write cannot go through it, "" when one can.
func (p *Provider) readJoin(db string, from ast.TableExprs) (*viewJoin, string) {
	j := &viewJoin{from: from}
	var ons, innerOns []ast.Expr
	var read func(te ast.TableExpr) string
	read = func(te ast.TableExpr) string {
		switch x := te.(type) {
		case *ast.AliasedTableExpr:
			tn, ok := x.Expr.(ast.TableName)
			if !ok {
				return "a derived table"
			}
			t := &viewTable{alias: x.As.String(), db: tn.DbQualifier.String(), name: tn.Name.String()}
			if t.db == "" {
				t.db = db
			}
			if t.alias == "" {
				t.alias = t.name
			}
			info, err := p.store.Table(t.db, t.name)
			if err != nil {
				return "a join that reads a view"
			}
			for _, c := range info.Schema.Columns {
				t.cols = append(t.cols, c.Name)
			}
			x.Expr = ast.TableName{Name: tn.Name, DbQualifier: ast.NewTableIdent(t.db)}
			x.As = ast.NewTableIdent(t.alias)
			j.tables = append(j.tables, t)
		case *ast.ParenTableExpr:
			for _, e := range x.Exprs {
				if r := read(e); r != "" {
					return r
				}
			}
		case *ast.JoinTableExpr:
			inner := true
			switch x.Join {
			case ast.JoinStr, ast.StraightJoinStr:
			case ast.LeftJoinStr, ast.RightJoinStr:
				inner, j.outer = false, true
			default:
				return "a NATURAL or FULL join"
			}
			if len(x.Condition.Using) > 0 {
				return "a join with USING"
			}
			for _, side := range []ast.TableExpr{x.LeftExpr, x.RightExpr} {
				if r := read(side); r != "" {
					return r
				}
			}
			if on := x.Condition.On; on != nil {
				if !plainExpr(on) {
					return "a subquery"
				}
				ons = append(ons, on)
				if inner {
					innerOns = append(innerOns, on)
				}
			}
		default:
			return "a table it cannot read"
		}
		return ""
	}
	for _, te := range from {
		if r := read(te); r != "" {
			return nil, r
		}
	}
	for _, on := range ons { // once every table is known
		if !j.qualify(on) {
			return nil, "a join condition it cannot read"
		}
	}
	for _, on := range innerOns {
		j.on = andText(j.on, ast.String(on))
	}
	return j, ""
}

// qualify names the table of each column e reads by its name in the
// view; false when a column is no table's or more than one's.
func (j *viewJoin) qualify(e ast.Expr) bool {
	ok := true
	_ = ast.Walk(func(n ast.SQLNode) (bool, error) {
		c, col := n.(*ast.ColName)
		if !col {
			return ok, nil
		}
		t := j.tableOf(c)
		if t == nil {
			ok = false
			return false, nil
		}
		c.Qualifier = ast.TableName{Name: ast.NewTableIdent(t.alias)}
		return true, nil
	}, e)
	return ok
}

// tableOf is the table of the join whose column c is, nil when it is
// none's or, unqualified, more than one's.
func (j *viewJoin) tableOf(c *ast.ColName) *viewTable {
	q, qdb := c.Qualifier.Name.String(), c.Qualifier.DbQualifier.String()
	var found *viewTable
	for _, t := range j.tables {
		switch {
		case q != "" && !strings.EqualFold(q, t.alias):
		case qdb != "" && !strings.EqualFold(qdb, t.db):
		case !t.has(c.Name.String()):
		case found != nil:
			return nil
		default:
			found = t
		}
	}
	return found
}

// table is the table the view names alias.
func (j *viewJoin) table(alias string) *viewTable {
	for _, t := range j.tables {
		if strings.EqualFold(t.alias, alias) {
			return t
		}
	}
	return nil
}

func (t *viewTable) has(col string) bool { return hasName(t.cols, col) }

// column is the text of the table's column col, qualified by the
// table's name in the view.
func (t *viewTable) column(col string) string {
	return ast.String(&ast.ColName{Name: ast.NewColIdent(col), Qualifier: ast.TableName{Name: ast.NewTableIdent(t.alias)}})
}

// tablesRead are the names in the view of the tables e reads, outside
// subqueries, in the order first read.
func tablesRead(e ast.Expr) []string {
	var out []string
	_ = ast.Walk(func(n ast.SQLNode) (bool, error) {
		switch x := n.(type) {
		case *ast.Subquery:
			return false, nil
		case *ast.ColName:
			if q := x.Qualifier.Name.String(); q != "" && !hasName(out, q) {
				out = append(out, q)
			}
		}
		return true, nil
	}, e)
	return out
}

func (v *writableView) multiUpdate() error {
	return mysql.NewSQLError(erViewMultiUpdate, "HY000", "Can not modify more than one base table through a join view '%s.%s'", v.db, v.name)
}

// updateJoin finishes an UPDATE through a join view whose assignments
// are over the join's tables: they must set one table's columns.
func (v *writableView) updateJoin(s *ast.Update) error {
	var alias string
	set := map[string]bool{}
	for _, a := range s.Exprs {
		q := a.Name.Qualifier.Name.String()
		if alias != "" && !strings.EqualFold(q, alias) {
			return v.multiUpdate()
		}
		alias = q
		set[strings.ToLower(a.Name.Name.String())] = true
	}
	v.written = v.join.table(alias)
	if v.written == nil {
		panic("sqlext: a join view's column names no table of its join: " + alias)
	}
	return v.joinCheck(set, false)
}

// insertJoin rewrites an INSERT or REPLACE through a join view into one
// into the table whose columns it names.
func (v *writableView) insertJoin(s *ast.Insert, op string) error {
	notInsertable := mysql.NewSQLError(erNonInsertableTable, "HY000", "The target table %s of the %s is not insertable-into", v.name, op)
	if v.join.outer {
		return notInsertable
	}
	if len(s.Columns) == 0 {
		return mysql.NewSQLError(erViewNoInsertFieldList, "HY000", "Can not insert into join view '%s.%s' without fields list", v.db, v.name)
	}
	// As MariaDB: columns over two tables, or over none, are 1393 before
	// one that is an expression of one is 1471.
	var aliases []string
	exprs := make([]ast.Expr, len(s.Columns))
	for i, c := range s.Columns {
		e := v.column(c.String(), "")
		if e == nil {
			return mysql.NewSQLError(mysql.ERBadFieldError, "42S22", "Unknown column '%s' in 'field list'", c.String())
		}
		exprs[i] = e
		for _, a := range tablesRead(e) {
			if !hasName(aliases, a) {
				aliases = append(aliases, a)
			}
		}
	}
	if len(aliases) != 1 {
		return v.multiUpdate()
	}
	cols := make(ast.Columns, len(exprs))
	for i, e := range exprs {
		c, ok := e.(*ast.ColName)
		if !ok {
			return notInsertable
		}
		cols[i] = c.Name
	}
	v.written = v.join.table(aliases[0])
	for _, a := range s.OnDup {
		if err := v.assignment(a, ""); err != nil {
			return err
		}
		if r := tablesRead(&ast.ComparisonExpr{Operator: ast.EqualStr, Left: a.Name, Right: a.Expr}); len(r) > 1 || !strings.EqualFold(r[0], v.written.alias) {
			return v.multiUpdate()
		}
		a.Name.Qualifier = ast.TableName{}
		unqualify(a.Expr)
	}
	if err := v.joinCheck(nil, true); err != nil {
		return err
	}
	s.Table, s.Columns = ast.TableName{Name: ast.NewTableIdent(v.written.name), DbQualifier: ast.NewTableIdent(v.written.db)}, cols
	return nil
}

// unqualify drops the qualifiers of the columns e reads outside
// subqueries.
func unqualify(e ast.Expr) {
	_ = ast.Walk(func(n ast.SQLNode) (bool, error) {
		switch x := n.(type) {
		case *ast.Subquery:
			return false, nil
		case *ast.ColName:
			x.Qualifier = ast.TableName{}
		}
		return true, nil
	}, e)
}

// joinCheck sets what a row the statement writes to v.written must meet
// under the view's CHECK OPTION, given the columns an UPDATE sets (set)
// or that the statement is an INSERT, or refuses the statement when that
// is more than a check of that table's row can say.
func (v *writableView) joinCheck(set map[string]bool, insert bool) error {
	v.writtenCheck = ""
	if v.check == "" {
		return nil
	}
	e := v.parse(v.check, "")
	if e == nil {
		panic("sqlext: a join view's check does not read back: " + v.check)
	}
	for _, part := range conjuncts(e) {
		own, others, readsSet := true, false, false
		_ = ast.Walk(func(n ast.SQLNode) (bool, error) {
			if c, ok := n.(*ast.ColName); ok {
				if strings.EqualFold(c.Qualifier.Name.String(), v.written.alias) {
					readsSet = readsSet || set[strings.ToLower(c.Name.String())]
				} else {
					own, others = false, true
				}
			}
			return true, nil
		}, part)
		switch {
		case own:
			unqualify(part)
			v.writtenCheck = andText(v.writtenCheck, ast.String(part))
		case others && !insert && !readsSet:
			// The rows the UPDATE matched meet it, and it does not change
			// what it reads.
		default:
			return mysql.NewSQLError(erNotSupportedYet, "42000", "This version of sqlearn doesn't yet support 'CHECK OPTION of join view '%s.%s' over a condition on a table the statement does not write'", v.db, v.name)
		}
	}
	return nil
}

// conjuncts are the conditions e is the AND of.
func conjuncts(e ast.Expr) []ast.Expr {
	switch x := e.(type) {
	case *ast.AndExpr:
		return append(conjuncts(x.Left), conjuncts(x.Right)...)
	case *ast.ParenExpr:
		if in := conjuncts(x.Expr); len(in) > 1 {
			return in
		}
	}
	return []ast.Expr{e}
}
