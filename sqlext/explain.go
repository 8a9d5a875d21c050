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
// rows with their own id; the SELECTs of a UNION (INTERSECT, EXCEPT) are
// PRIMARY and UNION rows, and one that removes duplicates ends with the
// UNION RESULT row of its temporary table. EXPLAIN FORMAT=JSON gives the
// same reads as MySQL's JSON document (explainjson.go). EXPLAIN
// FORMAT=TREE, EXPLAIN PLAN and EXPLAIN ANALYZE keep the engine's answer.
func explain(ctx *sql.Context, n *plan.DescribeQuery) (sql.RowIter, error) {
	if n.Format.Analyze {
		return nil, nil
	}
	if n.Format.Plan {
		if !isExplainJSON(ctx.Query()) {
			return nil, nil
		}
		doc, err := explainJSON(explainPlan(ctx, n.Child))
		if err != nil {
			return nil, err
		}
		return sql.RowsToRowIter(sql.Row{doc}), nil
	}
	var rows []sql.Row
	explainPlan(ctx, n.Child).rows(&rows)
	return sql.RowsToRowIter(rows...), nil
}

// queryBlock is one SELECT of a plan, MySQL's query block: the tables it
// reads in order, or the SELECTs of the set operation it is.
type queryBlock struct {
	id         uint64
	selectType string
	reads      []*tableRead
	setOp      *setOpBlock
}

// setOpBlock is a UNION, INTERSECT or EXCEPT of SELECTs.
type setOpBlock struct {
	kind      string // UNION, INTERSECT or EXCEPT
	temporary bool   // it removes duplicates in a temporary table
	members   []*queryBlock
}

// tableRead is one table a block reads, and how.
type tableRead struct {
	name     string // as the query names it
	access   string // ALL, const, range, eq_ref or ref
	possible []string
	key      string // the index read, if any
	ref      string // const for a point lookup
	rows     any    // the estimate, uint64, or nil where unknown
	filtered bool   // a condition stays above the read
	// condition is that condition's text, where it is the table's alone.
	condition string
	derived   *queryBlock // the SELECT a derived table is made from
}

type explainer struct {
	ctx *sql.Context
	id  uint64 // the last select id given
}

// explainPlan is the query block of the plan n.
func explainPlan(ctx *sql.Context, n sql.Node) *queryBlock {
	e := &explainer{ctx: ctx, id: 1}
	top := &queryBlock{id: 1, selectType: "SIMPLE"}
	e.walk(n, top, filter{}, "")
	return top
}

// filter is what is known of a condition above a node: that there is
// one, and the condition itself where it applies to one table.
type filter struct {
	on   bool
	cond sql.Expression
}

// walk adds the reads below n to b; alias names the table n reads when
// it is under a TableAlias.
func (e *explainer) walk(n sql.Node, b *queryBlock, f filter, alias string) {
	switch x := n.(type) {
	case *plan.Filter:
		e.walk(x.Child, b, filter{on: true, cond: x.Expression}, alias)
		return
	case *plan.TableAlias:
		e.walk(x.Child, b, f, x.Name())
		return
	case *plan.SubqueryAlias:
		e.id++
		d := &queryBlock{id: e.id, selectType: "DERIVED"}
		e.walk(x.Child, d, filter{}, "")
		b.reads = append(b.reads, &tableRead{name: x.Name(), access: "ALL", filtered: f.on, condition: conditionText(f), derived: d})
		return
	case *plan.SetOp:
		if b.setOp == nil && len(b.reads) == 0 {
			e.setOp(x, b)
			return
		}
	case *plan.IndexedTableAccess:
		e.access(x.TableNode, x, b, f, alias)
		return
	case *plan.ResolvedTable:
		e.access(x, nil, b, f, alias)
		return
	}
	for _, c := range n.Children() {
		e.walk(c, b, filter{on: f.on}, "")
	}
}

// setOpKinds name the set operations by the engine's types.
var setOpKinds = map[int]string{plan.UnionType: "UNION", plan.IntersectType: "INTERSECT", plan.ExceptType: "EXCEPT"}

// setOp makes b the set operation x, a SELECT per member: the first
// keeps b's id, as MySQL's PRIMARY (or DERIVED) SELECT, the others get
// their own. Set operations of the same kind nested in x are one.
func (e *explainer) setOp(x *plan.SetOp, b *queryBlock) {
	s := &setOpBlock{kind: setOpKinds[x.SetOpType]}
	var members []sql.Node
	var flatten func(n sql.Node)
	flatten = func(n sql.Node) {
		under := n
		for {
			p, ok := under.(*plan.Project)
			if !ok {
				break
			}
			under = p.Child
		}
		if o, ok := under.(*plan.SetOp); ok && o.SetOpType == x.SetOpType {
			s.temporary = s.temporary || o.Distinct || o.SetOpType != plan.UnionType
			flatten(o.Left())
			flatten(o.Right())
			return
		}
		members = append(members, n)
	}
	flatten(x)
	for i, m := range members {
		mb := &queryBlock{id: b.id, selectType: b.selectType}
		if i == 0 && mb.selectType == "SIMPLE" {
			mb.selectType = "PRIMARY"
		} else if i > 0 {
			e.id++
			mb.id, mb.selectType = e.id, s.kind
		}
		e.walk(m, mb, filter{}, "")
		s.members = append(s.members, mb)
	}
	b.setOp = s
}

// access adds the read of one table, by index when ita is not nil.
func (e *explainer) access(tn sql.TableNode, ita *plan.IndexedTableAccess, b *queryBlock, f filter, alias string) {
	if tn.Name() == "" || strings.EqualFold(tn.Name(), "dual") {
		return // SELECT without FROM reads the engine's one-row table
	}
	r := &tableRead{name: alias, access: "ALL", filtered: f.on, condition: conditionText(f)}
	if r.name == "" {
		r.name = tn.Name()
	}
	var t sql.Table
	if rt, ok := tn.(*plan.ResolvedTable); ok {
		t = rt.Table
	}
	if st := storedTable(t); st != nil {
		if info, err := st.p.store.Table(st.info.DB, st.info.Name); err == nil {
			r.rows = uint64(info.Rows)
		}
		if xs, err := st.GetIndexes(e.ctx); err == nil {
			for _, x := range xs {
				r.possible = append(r.possible, x.ID())
			}
		}
	}
	if ita != nil {
		idx := ita.Index()
		r.key = idx.ID()
		switch {
		case ita.IsStatic():
			r.access = "range"
			if l, err := ita.GetLookup(e.ctx, nil); err == nil && idx.IsUnique() && pointLookup(l, len(idx.Expressions())) {
				r.access, r.ref, r.rows = "const", "const", uint64(1)
			}
		case idx.IsUnique():
			r.access, r.rows = "eq_ref", uint64(1)
		default:
			r.access = "ref"
		}
	}
	b.reads = append(b.reads, r)
}

// conditionText is the text of f's condition, or "" where it is not
// known to be one table's.
func conditionText(f filter) string {
	if f.cond == nil {
		return ""
	}
	return f.cond.String()
}

// rows adds b's rows of the traditional table to out: a row per table
// read (a derived table's are its SELECT's), "No tables used" for a
// SELECT that reads none.
func (b *queryBlock) rows(out *[]sql.Row) {
	if s := b.setOp; s != nil {
		ids := make([]string, len(s.members))
		for i, m := range s.members {
			m.rows(out)
			ids[i] = fmt.Sprint(m.id)
		}
		if s.temporary {
			*out = append(*out, sql.Row{nil, s.kind + " RESULT", "<" + strings.ToLower(s.kind) + strings.Join(ids, ",") + ">", nil, "ALL", nil, nil, nil, nil, nil, nil, "Using temporary"})
		}
		return
	}
	if len(b.reads) == 0 {
		*out = append(*out, sql.Row{b.id, b.selectType, nil, nil, nil, nil, nil, nil, nil, nil, nil, "No tables used"})
		return
	}
	for _, r := range b.reads {
		if r.derived != nil {
			r.derived.rows(out)
			continue
		}
		var possible, key, ref any
		if len(r.possible) > 0 {
			possible = strings.Join(r.possible, ",")
		}
		if r.key != "" {
			key = r.key
		}
		if r.ref != "" {
			ref = r.ref
		}
		extra := ""
		if r.filtered {
			extra = "Using where"
		}
		*out = append(*out, sql.Row{b.id, b.selectType, r.name, nil, r.access, possible, key, nil, ref, r.rows, float64(100), extra})
	}
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
