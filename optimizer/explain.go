package optimizer

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/sqlearn/sqlearn/optimizer/hybrid"
)

// ExplainRow is one line of EXPLAIN output; the SQL side returns the rows
// as a result set with the columns Columns names.
type ExplainRow struct {
	Step     int     // row number, from 1
	Unit     int     // the optimisation unit the row belongs to, from 1
	Section  string  // unit, before, normalized, candidate, hoisted, after, decision
	Operator string  // operator or entry kind
	Detail   string  // operands, shape, source text, reasons
	Device   string  // where the operator runs; empty for rows that are not operators
	EstMs    float64 // estimated milliseconds per evaluation; NaN when not applicable
	// MeasuredMs is the mean measured milliseconds per evaluation under
	// ANALYZE; NaN otherwise or when the operator never ran.
	MeasuredMs float64
	Calls      int // evaluations measured under ANALYZE
}

// Explanation is EXPLAIN's answer.
type Explanation struct {
	Analyze bool
	Rows    []ExplainRow
	Stats   Stats
}

// Columns names the result-set columns, in ExplainRow order.
func Columns() []string {
	return []string{"step", "unit", "section", "operator", "detail", "device", "est_ms", "measured_ms", "calls"}
}

// Values returns a row's cells in Columns order; nil stands for NULL.
func (r ExplainRow) Values() []any {
	num := func(v float64) any {
		if math.IsNaN(v) {
			return nil
		}
		return v
	}
	dev := any(r.Device)
	if r.Device == "" {
		dev = nil
	}
	return []any{r.Step, r.Unit, r.Section, r.Operator, r.Detail, dev, num(r.EstMs), num(r.MeasuredMs), r.Calls}
}

func fmtMs(v float64) string {
	if math.IsNaN(v) {
		return ""
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

// Text renders the explanation as an aligned table.
func (e *Explanation) Text() string {
	cols := []string{"step", "unit", "section", "operator", "est_ms"}
	if e.Analyze {
		cols = append(cols, "measured_ms", "calls")
	}
	cols = append(cols, "detail")
	cells := [][]string{cols}
	for _, r := range e.Rows {
		row := []string{strconv.Itoa(r.Step), strconv.Itoa(r.Unit), r.Section, r.Operator, fmtMs(r.EstMs)}
		if e.Analyze {
			calls := ""
			if r.Calls > 0 {
				calls = strconv.Itoa(r.Calls)
			}
			row = append(row, fmtMs(r.MeasuredMs), calls)
		}
		cells = append(cells, append(row, r.Detail))
	}
	width := make([]int, len(cols))
	for _, row := range cells {
		for i, c := range row[:len(row)-1] {
			width[i] = max(width[i], len(c))
		}
	}
	var b strings.Builder
	for _, row := range cells {
		for i, c := range row[:len(row)-1] {
			b.WriteString(c + strings.Repeat(" ", width[i]-len(c)) + "  ")
		}
		b.WriteString(row[len(row)-1])
		b.WriteString("\n")
	}
	return b.String()
}

func (in *interp) explanation() *Explanation {
	x := &Explanation{Analyze: in.mode == modeAnalyze, Stats: in.stats}
	add := func(unit int, section, op, detail, device string, est float64, n *pnode) {
		r := ExplainRow{Step: len(x.Rows) + 1, Unit: unit, Section: section, Operator: op, Detail: detail,
			Device: device, EstMs: est, MeasuredMs: math.NaN()}
		if n != nil && x.Analyze && n.calls > 0 {
			r.Calls = n.calls
			r.MeasuredMs = n.elapsed.Seconds() * 1e3 / float64(n.calls)
		}
		x.Rows = append(x.Rows, r)
	}
	nan := math.NaN()
	for i, u := range in.units {
		id := i + 1
		head := u.title
		if u.loop {
			head += fmt.Sprintf(", estimated %g iterations", u.iters)
			if x.Analyze {
				head += fmt.Sprintf(", ran %d", u.iterations)
			}
		}
		head += fmt.Sprintf("; %d chains, %d candidates by block-wise search, %d by per-tree search", u.blocks, len(u.cands), u.treeCands)
		add(id, "unit", "unit", head, "", nan, nil)
		listPlan(u.original, func(op, detail string, n *pnode) {
			add(id, "before", op, detail, n.device, n.est*1e3, n)
		})
		add(id, "before", "total", "estimated per iteration", "", u.estBefore*1e3, nil)
		for _, s := range u.normalized {
			add(id, "normalized", "statement", s, "", nan, nil)
		}
		for _, c := range u.cands {
			kind := "common subexpression"
			if c.loopConst {
				kind = "loop constant"
			}
			flipped := 0
			for _, o := range c.occ {
				if o.flipped {
					flipped++
				}
			}
			status := "rejected"
			if c.chosen {
				status = "chosen"
			}
			detail := fmt.Sprintf("%s [%dx%d] %s, %d occurrences (%d transposed): %s; %s",
				c.text, c.rows, c.cols, kind, len(c.occ), flipped, status, c.reason)
			add(id, "candidate", kind, detail, "", c.defEst*1e3, nil)
		}
		for _, h := range u.hoisted {
			add(id, "hoisted", "hoisted", h.label+" computed once before the loop", h.args[0].device, h.args[0].est*1e3, h.args[0])
		}
		if u.applied {
			listPlan(u.optimized, func(op, detail string, n *pnode) {
				add(id, "after", op, detail, n.device, n.est*1e3, n)
			})
			add(id, "after", "total", "estimated per iteration, hoisted work spread over the iterations", "", u.estAfter*1e3, nil)
		}
		add(id, "decision", "decision", u.decision, "", nan, nil)
		for _, r := range u.routes {
			add(id, "iterative", "hybrid", r, "", nan, nil)
		}
		for _, t := range in.iterTraces {
			if t.Unit != id {
				continue
			}
			for _, st := range t.Steps {
				x.Rows = append(x.Rows, iterationRow(len(x.Rows)+1, id, t.Label, st))
			}
		}
	}
	if in.stopped != nil {
		add(len(in.units), "decision", "stopped", "planning stopped: "+in.stopped.Error(), "", nan, nil)
	}
	return x
}

// iterationRow is one iteration of a routed product under ANALYZE: the
// mode chosen, how much of x was active and how many blocks of M were
// read, the estimate of the chosen mode and the measured time.
func iterationRow(step, unit int, label string, st hybrid.Step) ExplainRow {
	est := st.EstFull
	if st.Mode == hybrid.ModeIncremental {
		est = st.EstIncremental
	}
	estMs := math.NaN()
	if est >= 0 {
		estMs = est / 1e6
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s, iteration %d: ", label, st.Iteration)
	if st.ActiveFraction >= 0 && st.Sampled {
		fmt.Fprintf(&b, "active about %.2f%% (sampled), ", 100*st.ActiveFraction)
	} else if st.ActiveFraction >= 0 {
		fmt.Fprintf(&b, "active %.2f%%, ", 100*st.ActiveFraction)
	} else {
		b.WriteString("active not measured, ")
	}
	if st.BlocksTouched >= 0 {
		fmt.Fprintf(&b, "blocks %d of %d", st.BlocksTouched, st.Blocks)
	} else {
		fmt.Fprintf(&b, "blocks ? of %d", st.Blocks)
	}
	if st.EstFull >= 0 {
		fmt.Fprintf(&b, "; est full %.4g ms", st.EstFull/1e6)
	} else {
		b.WriteString("; evaluated as written, before the runtime took it")
	}
	if st.EstIncremental >= 0 {
		fmt.Fprintf(&b, ", incremental %.4g ms", st.EstIncremental/1e6)
	}
	if st.Compared {
		b.WriteString(", compared")
	}
	if st.Reorganised {
		b.WriteString(", reorganised after")
	}
	return ExplainRow{Step: step, Unit: unit, Section: "iteration", Operator: st.Mode.String(), Detail: b.String(),
		Device: deviceCPU, EstMs: estMs, MeasuredMs: st.Measured.Seconds() * 1e3, Calls: 1}
}

// listPlan walks a unit's plan children first, numbering every operator;
// variables, constants and strings appear inline in their users.
func listPlan(segs [][]*planStmt, emit func(op, detail string, n *pnode)) {
	ids := map[*pnode]string{}
	next := 1
	var ref func(n *pnode) string
	var walk func(n *pnode)
	ref = func(n *pnode) string {
		switch n.op {
		case opVar, opSession:
			return factorName(n)
		case opStr:
			return strconv.Quote(n.str)
		case opConst:
			if isScalar(n.val) {
				v, _ := scalarOf(n.val)
				return strconv.FormatFloat(v, 'g', 6, 64)
			}
			return fmt.Sprintf("const[%dx%d]", n.val.Rows(), n.val.Cols())
		}
		return ids[n]
	}
	walk = func(n *pnode) {
		if _, ok := ids[n]; ok {
			return
		}
		for _, a := range n.args {
			walk(a)
		}
		switch n.op {
		case opVar, opSession, opStr, opConst:
			return
		}
		id := "#" + strconv.Itoa(next)
		next++
		ids[n] = id
		args := make([]string, len(n.args))
		for i, a := range n.args {
			args[i] = ref(a)
		}
		op := opNames[n.op]
		if n.op == opCall || n.op == opCmp {
			op = n.name
		}
		detail := fmt.Sprintf("%s = %s(%s) [%dx%d]", id, op, strings.Join(args, ", "), n.rows, n.cols)
		if n.op == opScale {
			detail = fmt.Sprintf("%s = scale(%s) by %g [%dx%d]", id, strings.Join(args, ", "), n.coef, n.rows, n.cols)
		}
		if n.label != "" {
			detail += " " + n.label
		}
		emit(op, detail, n)
	}
	for _, stmts := range segs {
		for _, ps := range stmts {
			walk(ps.root)
			target := "value"
			if ps.assign != "" {
				target = ps.assign
			}
			if isEffect(ps.root) {
				continue
			}
			emit("assign", fmt.Sprintf("%s <- %s", target, ref(ps.root)), &pnode{})
		}
	}
}

// explainChoices records why each candidate was or was not reused: the
// estimated cost of the best plan with and without it.
func explainChoices(u *unitPlan, p *dpProblem, best plan) {
	base := p.costOf(best.set)
	for i, c := range u.cands {
		if best.set.has(i) {
			without := p.costOf(best.set.without(i))
			c.reason = fmt.Sprintf("chains cost %.4g ms with it, %.4g ms without", base*1e3, without*1e3)
			continue
		}
		with := p.costOf(best.set.with(i))
		c.reason = fmt.Sprintf("chains cost %.4g ms without it, %.4g ms with", base*1e3, with*1e3)
	}
}
