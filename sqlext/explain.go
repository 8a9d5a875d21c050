package sqlext

import (
	"fmt"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/plan"
)

// explain answers EXPLAIN in MySQL's traditional table, one row per table
// the plan reads, where the engine answered one row of NULLs ("a
// placeholder"): the table as the query names it, how it is read (ALL
// for a scan, const for a unique point lookup, range for other lookups
// by value, eq_ref and ref for lookups per row of a join), the indexes it
// has and the one used, the rows it holds as the estimate, and "Using
// where" when a filter stays above it. A derived table's reads are DERIVED
// rows with their own id. EXPLAIN FORMAT=TREE, EXPLAIN PLAN and EXPLAIN
// ANALYZE keep the engine's answer.
func explain(ctx *sql.Context, n *plan.DescribeQuery) (sql.RowIter, error) {
	if n.Format.Plan || n.Format.Analyze {
		return nil, nil
	}
	e := &explainer{ctx: ctx, id: 1}
	e.walk(n.Child, "SIMPLE", 1, false, "")
	if len(e.rows) == 0 {
		e.rows = append(e.rows, sql.Row{uint64(1), "SIMPLE", nil, nil, nil, nil, nil, nil, nil, nil, nil, "No tables used"})
	}
	return sql.RowsToRowIter(e.rows...), nil
}

type explainer struct {
	ctx  *sql.Context
	id   uint64
	rows []sql.Row
}

// walk adds the reads below n; alias names the table n reads when it
// is under a TableAlias, filtered says a Filter is above it.
func (e *explainer) walk(n sql.Node, selectType string, id uint64, filtered bool, alias string) {
	switch x := n.(type) {
	case *plan.Filter:
		e.walk(x.Child, selectType, id, true, alias)
		return
	case *plan.TableAlias:
		e.walk(x.Child, selectType, id, filtered, x.Name())
		return
	case *plan.SubqueryAlias:
		e.id++
		e.walk(x.Child, "DERIVED", e.id, false, "")
		return
	case *plan.IndexedTableAccess:
		e.access(x.TableNode, x, selectType, id, filtered, alias)
		return
	case *plan.ResolvedTable:
		e.access(x, nil, selectType, id, filtered, alias)
		return
	}
	for _, c := range n.Children() {
		e.walk(c, selectType, id, filtered, "")
	}
}

// access adds the row of one table read, by index when ita is not nil.
func (e *explainer) access(tn sql.TableNode, ita *plan.IndexedTableAccess, selectType string, id uint64, filtered bool, alias string) {
	if tn.Name() == "" || strings.EqualFold(tn.Name(), "dual") {
		return // SELECT without FROM reads the engine's one-row table
	}
	name := alias
	if name == "" {
		name = tn.Name()
	}
	var keys []string
	var rows any
	var t sql.Table
	if rt, ok := tn.(*plan.ResolvedTable); ok {
		t = rt.Table
	}
	if st := storedTable(t); st != nil {
		if info, err := st.p.store.Table(st.info.DB, st.info.Name); err == nil {
			rows = uint64(info.Rows)
		}
		if xs, err := st.GetIndexes(e.ctx); err == nil {
			for _, x := range xs {
				keys = append(keys, x.ID())
			}
		}
	}
	var possible, key, ref any
	if len(keys) > 0 {
		possible = strings.Join(keys, ",")
	}
	typ := "ALL"
	if ita != nil {
		idx := ita.Index()
		key = idx.ID()
		switch {
		case ita.IsStatic():
			typ = "range"
			if l, err := ita.GetLookup(e.ctx, nil); err == nil && idx.IsUnique() && pointLookup(l, len(idx.Expressions())) {
				typ, ref, rows = "const", "const", uint64(1)
			}
		case idx.IsUnique():
			typ, rows = "eq_ref", uint64(1)
		default:
			typ = "ref"
		}
	}
	extra := ""
	if filtered {
		extra = "Using where"
	}
	e.rows = append(e.rows, sql.Row{id, selectType, name, nil, typ, possible, key, nil, ref, rows, float64(100), extra})
}

// pointLookup reports whether a lookup is one value of each of an index's
// width columns (the engine does not mark its lookups so).
func pointLookup(l sql.IndexLookup, width int) bool {
	ranges, ok := l.Ranges.(sql.MySQLRangeCollection)
	if !ok || len(ranges) != 1 || len(ranges[0]) != width {
		return false
	}
	for _, c := range ranges[0] {
		if c.Type() != sql.RangeType_ClosedClosed {
			return false
		}
		lo, hi := sql.GetMySQLRangeCutKey(c.LowerBound), sql.GetMySQLRangeCutKey(c.UpperBound)
		if fmt.Sprint(lo) != fmt.Sprint(hi) {
			return false
		}
	}
	return true
}
