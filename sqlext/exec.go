package sqlext

import (
	"fmt"
	"strings"
	"sync"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/rowexec"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"
)

// execOverrides builds the nodes whose execution the engine gets wrong;
// every other node it leaves to the engine (Build returns no iterator).
// b is the builder it is part of, which builds the children of a node it
// builds.
type execOverrides struct {
	b sql.NodeExecBuilder
	// building holds the nodes whose own build this builder is running,
	// which then leaves them to the engine (caseChanges).
	building sync.Map
}

func newExecBuilder() sql.NodeExecBuilder {
	o := &execOverrides{}
	o.b = rowexec.NewOverrideBuilder(o)
	return o.b
}

func (o *execOverrides) Build(ctx *sql.Context, n sql.Node, row sql.Row) (sql.RowIter, error) {
	if alterClause(n) {
		if err := commitPending(ctx); err != nil {
			return nil, err
		}
	}
	if alterRoot(n) {
		if c := takeTableComment(ctx, true); c != nil {
			// The ALTER's comment, set after its other clauses.
			// Built again, by this builder's overrides or the engine's,
			// with the comment out of the session.
			iter, err := o.b.Build(ctx, n, row)
			if err != nil || iter == nil {
				return iter, err
			}
			return &commentAfter{RowIter: iter, comment: c}, nil
		}
	}
	switch n := n.(type) {
	case *plan.HashLookup:
		return hashedRows(ctx, o.b, n, row)
	case *plan.Distinct:
		return collatedDistinct(ctx, o.b, n, row)
	case *plan.SetOp:
		return collatedSetOp(ctx, o.b, n, row)
	case *plan.RecursiveCte:
		return recursiveCTE(ctx, o.b, n, row)
	case *plan.Sort, *plan.TopN:
		if iter, err := sortByKeys(ctx, o.b, n, row); err != nil || iter != nil {
			return iter, err
		}
	case *plan.RenameUser:
		return renameUsers(ctx, n)
	case *plan.LockTables:
		return lockTables(ctx, n)
	case *plan.UnlockTables:
		return unlockTables(ctx)
	case *plan.StartTransaction:
		// BEGIN gives up the session's table locks, as in MySQL.
		if s, ok := ctx.Session.(*Session); ok && s.p != nil {
			s.p.locks.releaseTablesOf(s.ID())
		}
	case *plan.CreateUser:
		return createUsers(ctx, n)
	case *plan.DropTable:
		return o.once(n, func() (sql.RowIter, error) {
			iter, err := o.b.Build(ctx, n, row)
			return iter, parentDropError(ctx, n, err)
		})
	case *plan.AnalyzeTable:
		return analyzeTables(ctx, n), nil
	case *plan.Kill:
		if err := checkKill(ctx, n); err != nil {
			return nil, err
		}
	case *plan.RenameTable:
		return renameAcrossDatabases(ctx)
	case *plan.ShowCreateTable:
		if !n.IsView {
			return showCreateTable(ctx, n)
		}
	case *plan.Call:
		return o.call(ctx, n, row)
	case *plan.CreateProcedure:
		return createProcedure(ctx, n)
	case *plan.ShowCreateProcedure:
		return o.showCreateProcedure(ctx, n, row)
	case *plan.ShowColumns:
		return showColumns(ctx, n, row)
	case *plan.ShowVariables:
		return showVariables(ctx, n, row)
	case *plan.ShowStatus:
		refreshUptime()
	case *plan.ShowTableStatus:
		return showTableStatus(ctx, n)
	case *plan.LoadData:
		return loadData(ctx, n)
	case *plan.Into:
		return intoFile(ctx, o.b, n, row)
	case *plan.ShowIndexes:
		return showIndexes(ctx, n, row)
	case *plan.DescribeQuery:
		return explain(ctx, n)
	case *plan.AddColumn:
		markedColumn(ctx, n.Column())
		return addColumn(ctx, n)
	case *plan.DropColumn:
		return dropColumn(ctx, n)
	case *plan.AlterPK:
		return alterPK(ctx, n)
	case *plan.ModifyColumn:
		markedColumn(ctx, n.NewColumn())
		return changeColumn(ctx, n)
	case *plan.RenameColumn:
		return nil, renameChecked(ctx, n)
	case *plan.CreateCheck:
		return createCheck(ctx, n)
	case *plan.Block:
		for _, c := range n.Children() {
			switch c := c.(type) {
			case *plan.AddColumn:
				markedColumn(ctx, c.Column())
			case *plan.ModifyColumn:
				markedColumn(ctx, c.NewColumn())
			}
		}
		return alterWhole(ctx, n, row)
	case *plan.AlterTableCollation:
		return alterCollation(ctx, n)
	case *plan.CreateView:
		if err := alteredViewMissing(ctx, n); err != nil {
			return nil, err
		}
	case *plan.TableCopier:
		// CREATE TABLE IF NOT EXISTS ... SELECT of a table that is there
		// copies nothing into it, as in MySQL 8; the engine copied the rows.
		if ct, ok := n.Destination.(*plan.CreateTable); ok {
			if err := unknownEngine(ct); err != nil {
				return nil, err
			}
			if existingTable(ctx, ct) {
				noteCopied(ctx, 0)
				return sql.RowsToRowIter(sql.NewRow(types.NewOkResult(0))), nil
			}
			return o.once(n, func() (sql.RowIter, error) {
				return copyingTable(ctx, !ct.PkSchema().Schema.HasAutoIncrement(), func() (sql.RowIter, error) { return o.b.Build(ctx, n, row) })
			})
		}
	case *plan.CreateTable:
		if err := unknownEngine(n); err != nil {
			return nil, err
		}
		if existingTable(ctx, n) {
			return sql.RowsToRowIter(sql.NewRow(types.NewOkResult(0))), nil
		}
		nn, fulltext, err := splitFulltext(ctx, n)
		if err != nil {
			return nil, err
		}
		if err := invisibleIn(ctx, nn.PkSchema().Schema); err != nil {
			return nil, err
		}
		return o.once(nn, func() (sql.RowIter, error) {
			iter, err := createWhole(ctx, o.b, nn, row)
			if err != nil || len(fulltext) == 0 {
				return iter, err
			}
			rows, err := sql.RowIterToRows(ctx, iter)
			if err != nil {
				return nil, err
			}
			if err := createFulltextAfter(ctx, nn, fulltext); err != nil {
				return nil, err
			}
			return sql.RowsToRowIter(rows...), nil
		})
	case *plan.AlterIndex:
		if iter, ok, err := fulltextAlter(ctx, n); ok || err != nil {
			return iter, err
		}
	case *plan.InsertInto:
		if nn, err := insertReadingFirst(n); err != nil || nn != nil {
			if err != nil {
				return nil, err
			}
			return o.b.Build(ctx, nn, row)
		}
		if d, ok := n.Destination.(*rowTriggers); ok && d.b == nil {
			// A run of its own, whose editors build the triggers with b.
			nn, err := n.WithChildren(d.build(o.b))
			if err != nil {
				return nil, err
			}
			return o.b.Build(ctx, nn, row)
		}
	case *plan.TriggerExecutor:
		if n.TriggerTime == plan.BeforeTrigger {
			return o.beforeTrigger(ctx, n, row)
		}
	case *deleteTriggers:
		return o.b.Build(ctx, n.run(o.b), row)
	case *plan.DeleteFrom:
		if nd := readingFirst(n); nd != nil {
			return o.b.Build(ctx, nd, row)
		}
	case *readFirst:
		return n.rows(ctx, o.b, row)
	case *joinTriggers:
		nn, err := n.run(o.b)
		if err != nil {
			return nil, err
		}
		return o.b.Build(ctx, nn, row)
	case *plan.UpdateSource:
		return o.caseChanges(ctx, n, row)
	case *plan.UpdateJoin:
		return o.joinUpdate(ctx, n, row)
	case *plan.IndexedTableAccess:
		// The engine builds a lookup join's inner side once for every
		// outer row: going straight to the lookup leaves out its
		// partition iterators and trace span.
		if t, ok := n.Table.(*Table); ok {
			lookup, err := n.GetLookup(ctx, row)
			if err != nil {
				return nil, err
			}
			return t.lookupRows(ctx, lookup)
		}
	}
	return nil, nil
}

// once runs build, which builds n through this builder, unless build is
// running already: then this builder's own build of n is the engine's.
func (o *execOverrides) once(n sql.Node, build func() (sql.RowIter, error)) (sql.RowIter, error) {
	if _, again := o.building.LoadOrStore(n, true); again {
		return nil, nil
	}
	defer o.building.Delete(n)
	return build()
}

// alterRoot says whether n is the node an ALTER TABLE runs as: one
// clause, or a block of them.
func alterRoot(n sql.Node) bool {
	if b, ok := n.(*plan.Block); ok {
		return b.Pref == nil && len(b.Children()) > 0 && alterClause(b.Children()[0])
	}
	return alterClause(n)
}

// call runs a CALL: of a stored procedure by this server's interpreter
// (routinerun.go), of a procedure the server provides by the engine.
func (o *execOverrides) call(ctx *sql.Context, n *plan.Call, row sql.Row) (sql.RowIter, error) {
	if n.Procedure == nil || n.Procedure.ExternalProc != nil || n.Database() == nil {
		return nil, nil
	}
	return runProcedure(ctx, n, row)
}

// showCreateTable is the engine's SHOW CREATE TABLE with ENUM and SET
// columns written so that the statement runs again, as a restore from
// mysqldump runs it: the engine wrote members holding a quote without
// escaping it, and a default as the member's number (DEFAULT '1' for
// 'free'), which MySQL refuses.
//
// It also shows the table under the engine's wrappers (for virtual
// columns, for the process list), which hid the table's comment and
// foreign keys.
func showCreateTable(ctx *sql.Context, n *plan.ShowCreateTable) (sql.RowIter, error) {
	if rt, ok := n.Child.(*plan.ResolvedTable); ok {
		if t := storedTable(rt.Table); t != nil && t != rt.Table {
			if under, err := rt.WithTable(t); err == nil {
				if nn, err := n.WithChildren(under); err == nil {
					n = nn.(*plan.ShowCreateTable)
				}
			}
		}
	}
	iter, err := rowexec.DefaultBuilder.Build(ctx, n, nil)
	if err != nil {
		return nil, err
	}
	rows, err := sql.RowIterToRows(ctx, iter)
	if err != nil || len(rows) != 1 || len(rows[0]) < 2 {
		return sql.RowsToRowIter(rows...), err
	}
	text, ok := rows[0][1].(string)
	if !ok {
		return sql.RowsToRowIter(rows...), nil
	}
	lines := strings.Split(text, "\n")
	// The engine writes a column's collation only where it is not the
	// table's.
	tableCollation := sql.Collation_Default
	if rt, ok := n.Child.(*plan.ResolvedTable); ok {
		tableCollation = rt.Table.Collation()
	}
	for _, col := range n.TargetSchema() {
		switch col.Type.(type) {
		case sql.EnumType, sql.SetType:
		default:
			continue
		}
		shown := col.Type.String()
		if tc, ok := col.Type.(sql.TypeWithCollation); ok {
			shown = tc.StringWithTableCollation(tableCollation)
		}
		head := "  `" + strings.ReplaceAll(col.Name, "`", "``") + "` "
		for i, l := range lines {
			if strings.HasPrefix(l, head) {
				l = head + strings.Replace(l[len(head):], shown, memberText(col.Type, shown), 1)
				if from, to, ok := memberDefault(ctx, col); ok {
					l = strings.Replace(l, " DEFAULT "+from, " DEFAULT "+to, 1)
				}
				lines[i] = l
				break
			}
		}
	}
	text = showInvisible(strings.Join(lines, "\n"), n.TargetSchema())
	if rt, ok := n.Child.(*plan.ResolvedTable); ok {
		if t := storedTable(rt.Table); t != nil {
			text = showFulltext(text, t)
		}
	}
	rows[0][1] = text
	return sql.RowsToRowIter(rows...), nil
}

// storedTable is the table under the engine's wrappers, or nil when it is
// not one of ours.
func storedTable(t sql.Table) *Table {
	for {
		switch w := t.(type) {
		case *Table:
			return w
		case sql.TableWrapper:
			t = w.Underlying()
		default:
			return nil
		}
	}
}

// memberDefault is how the engine writes the literal default of an ENUM
// or SET column, as the member's number or the members' bits, and the
// members as MySQL writes them.
func memberDefault(ctx *sql.Context, col *sql.Column) (engine, mysql string, ok bool) {
	if col.Default == nil || !col.Default.IsLiteral() || col.Generated != nil {
		return "", "", false
	}
	v, err := col.Default.Eval(ctx, nil)
	if err != nil || v == nil {
		return "", "", false
	}
	var member string
	switch t := col.Type.(type) {
	case sql.EnumType:
		i, isIndex := v.(uint16)
		if !isIndex {
			return "", "", false
		}
		if member, ok = t.At(int(i)); !ok {
			return "", "", false
		}
	case sql.SetType:
		bits, isBits := v.(uint64)
		if !isBits {
			return "", "", false
		}
		if member, err = t.BitsToString(bits); err != nil {
			return "", "", false
		}
	default:
		return "", "", false
	}
	return fmt.Sprintf("'%v'", v), quoteString(member), true
}

// checkKill refuses KILL of a connection that does not exist, which the
// engine acknowledges as if it had killed it, with MySQL's error 1094.
// The engine then kills an existing one.
func checkKill(ctx *sql.Context, n *plan.Kill) error {
	for _, p := range ctx.ProcessList.Processes() {
		if p.Connection == n.ConnID {
			return nil
		}
	}
	return mysql.NewSQLError(erNoSuchThread, "HY000", "Unknown thread id: %d", n.ConnID)
}

// analyzeTable collects the statistics of table t of database db, or
// drops them when t has no rows.
func analyzeTable(ctx *sql.Context, stats sql.StatsProvider, t sql.Table, db string) error {
	if counted, ok := t.(sql.StatisticsTable); ok {
		n, _, err := counted.RowCount(ctx)
		if err != nil {
			return err
		}
		if n == 0 {
			had, err := stats.GetTableStats(ctx, db, t)
			if err != nil {
				return err
			}
			for _, st := range had {
				if err := stats.DropStats(ctx, st.Qualifier(), st.Columns()); err != nil {
					return err
				}
			}
			return nil
		}
	}
	return stats.AnalyzeTable(ctx, t, db)
}

// erNoSuchThread is MySQL's ER_NO_SUCH_THREAD.
const erNoSuchThread = 1094

// analyzeTables runs ANALYZE TABLE. The engine's own execution refuses
// to run without a current database and collects every table's
// statistics under the current database's name, even for a table named
// with another; here each table is analysed under its own database, and
// named in the result as MySQL names it, db.table. An empty table has
// its statistics dropped: the engine's analysis divided by its number of
// rows.
func analyzeTables(ctx *sql.Context, a *plan.AnalyzeTable) sql.RowIter {
	rows := make([]sql.Row, 0, len(a.Tables))
	for _, t := range a.Tables {
		db := a.Db
		if st, ok := t.(*Table); ok {
			db = st.info.DB
			st.p.forgetCardinality(db, st.info.Name)
		}
		msgType, msg := "status", "OK"
		if err := analyzeTable(ctx, a.Stats, t, db); err != nil {
			msgType, msg = "Error", err.Error()
		}
		rows = append(rows, sql.Row{db + "." + t.Name(), "analyze", msgType, msg})
	}
	return sql.RowsToRowIter(rows...)
}

// copyingTable builds CREATE TABLE ... SELECT (n), which the engine
// gets wrong twice. It copies the rows with an insert of its own, built
// without the analysis that finds the generated column, which set
// LAST_INSERT_ID() to 0: a table with no AUTO_INCREMENT column generates
// no value and, as in MySQL, leaves it as it was (keepID). And it took
// the statement for a query, whose ROW_COUNT() is -1, where MySQL counts
// the rows copied: the session notes the count the statement answers
// with, which the OK packet sets after the engine's -1 (okPacket).
func copyingTable(ctx *sql.Context, keepID bool, build func() (sql.RowIter, error)) (sql.RowIter, error) {
	before := ctx.GetLastQueryInfoInt(sql.LastInsertId)
	iter, err := build()
	if err != nil || iter == nil {
		return iter, err
	}
	return &tableCopy{RowIter: iter, keepID: keepID, id: before}, nil
}

type tableCopy struct {
	sql.RowIter
	keepID bool
	id     int64
}

// GetChildIter and WithChildIter let the engine put its row-count
// accumulator, which it chooses by the insert iterator's type, inside.
func (k *tableCopy) GetChildIter() sql.RowIter { return k.RowIter }

func (k *tableCopy) WithChildIter(child sql.RowIter) sql.RowIter {
	return &tableCopy{RowIter: child, keepID: k.keepID, id: k.id}
}

func (k *tableCopy) Next(ctx *sql.Context) (sql.Row, error) {
	row, err := k.RowIter.Next(ctx)
	if err == nil && len(row) == 1 {
		if res, ok := row[0].(types.OkResult); ok {
			noteCopied(ctx, res.RowsAffected)
		}
	}
	return row, err
}

// noteCopied notes the count of rows a CREATE TABLE ... SELECT copied,
// for its OK packet to set as ROW_COUNT() (okPacket).
func noteCopied(ctx *sql.Context, n uint64) {
	if s, ok := ctx.Session.(*Session); ok {
		s.copied, s.copyNoted = n, true
	}
}

func (k *tableCopy) Close(ctx *sql.Context) error {
	if k.keepID {
		ctx.SetLastQueryInfoInt(sql.LastInsertId, k.id)
	}
	return k.RowIter.Close(ctx)
}

// erFKCannotDropParent is MySQL's ER_FK_CANNOT_DROP_PARENT.
const erFKCannotDropParent = 3730

// parentDropError is err, the error of DROP TABLE n, in MySQL's words
// when it refuses a table another table's foreign key references: the
// engine's named the key but not the table that holds it.
func parentDropError(ctx *sql.Context, n *plan.DropTable, err error) error {
	if !sql.ErrForeignKeyDropTable.Is(err) {
		return err
	}
	var table, key string
	if _, e := fmt.Sscanf(strings.ReplaceAll(err.Error(), "`", " "), "cannot drop table %s as it is referenced in foreign key %s", &table, &key); e != nil {
		return err
	}
	for _, c := range n.Tables {
		rt, ok := c.(*plan.ResolvedTable)
		if !ok || !strings.EqualFold(rt.Name(), table) {
			continue
		}
		t := storedTable(rt.Table)
		if t == nil {
			continue
		}
		fks, e := t.GetReferencedForeignKeys(ctx)
		if e != nil {
			return err
		}
		for _, fk := range fks {
			if strings.EqualFold(fk.Name, key) {
				return mysql.NewSQLError(erFKCannotDropParent, "HY000", "Cannot drop table '%s' referenced by a foreign key constraint '%s' on table '%s'.", rt.Name(), fk.Name, fk.Table)
			}
		}
	}
	return err
}

// createWhole runs CREATE TABLE n, whose table the engine makes before
// its indexes: when an index fails (a unique key on a prefix, 1089), the
// table made goes again, so that the failed statement leaves nothing, as
// in MySQL. The engine left the table behind.
func createWhole(ctx *sql.Context, b sql.NodeExecBuilder, n *plan.CreateTable, row sql.Row) (sql.RowIter, error) {
	db, ok := n.Db.(sql.TableDropper)
	if !ok {
		return b.Build(ctx, n, row)
	}
	_, existed, err := n.Db.GetTableInsensitive(ctx, n.Name())
	if err != nil {
		return nil, err
	}
	iter, err := b.Build(ctx, n, row)
	if err == nil || existed {
		return iter, err
	}
	if _, made, e := n.Db.GetTableInsensitive(ctx, n.Name()); e == nil && made {
		if e := db.DropTable(ctx, n.Name()); e != nil {
			ctx.GetLogger().Warnf("dropping table %s of a failed CREATE TABLE: %v", n.Name(), e)
		}
	}
	return nil, err
}
