package optimizer

import (
	"time"

	"github.com/sqlearn/sqlearn/matrix"
	"github.com/sqlearn/sqlearn/optimizer/lang"
)

// opKind is a physical operator. Plans are DAGs of pnodes: a node reached
// from several places is evaluated once per execution of its segment.
type opKind uint8

const (
	opVar     opKind = iota + 1 // a script variable, read when evaluated
	opSession                   // @name, read from the Env
	opConst                     // a literal value
	opStr                       // a string literal; only an argument of query, save, print, norm
	opHoisted                   // args[0] computed once per loop entry
	opMatMul                    // args[0] %*% args[1]
	opChain                     // %*% over args in the order the run-time shapes make cheapest
	opT                         // transpose
	opNeg
	opAdd // element-wise with 1x1 broadcasting, as the rest of this group
	opSub
	opEMul
	opEDiv
	opPow
	opCmp // name holds the comparison; 1x1 operands
	opAnd
	opOr
	opNot
	opScale // args[0] * coef * args[1:1+nNum] / args[1+nNum:], the extra args 1x1
	opCall  // a builtin named by name
)

var opNames = map[opKind]string{
	opVar: "var", opSession: "session", opConst: "const", opStr: "string", opHoisted: "hoisted",
	opMatMul: "matmul", opChain: "chain", opT: "transpose", opNeg: "neg", opAdd: "add",
	opSub: "sub", opEMul: "emul", opEDiv: "ediv", opPow: "pow", opCmp: "compare", opAnd: "and",
	opOr: "or", opNot: "not", opScale: "scale", opCall: "call",
}

type pnode struct {
	op    opKind
	name  string
	args  []*pnode
	val   *matrix.Matrix // opConst
	str   string         // opStr
	coef  float64        // opScale
	nNum  int            // opScale
	pos   lang.Pos
	label string // source-level text shown by EXPLAIN, when the node stands for a chain or candidate

	// Filled by estimation.
	rows, cols int
	density    float64
	est        float64 // estimated seconds per evaluation
	weight     float64 // evaluations per loop iteration (1/N when hoisted)
	device     string  // deviceCPU or deviceGPU
	placedBy   string  // the reason setPlacement appended to label

	// Filled by execution when timing (ANALYZE).
	calls   int
	elapsed time.Duration
}

// Device classes as EXPLAIN shows them, in @@ml_device's words.
const (
	deviceCPU = "cpu"
	deviceGPU = "gpu"
)

// pure reports whether two nodes with equal structure may share a value:
// effects and inputs from outside are never merged or moved.
func (n *pnode) pure() bool {
	if n.op == opCall {
		switch n.name {
		case "query", "save", "print":
			return false
		}
	}
	return true
}

// planStmt is one statement of a segment plan.
type planStmt struct {
	assign string // variable assigned, or "" for an expression statement
	root   *pnode
	src    lang.Stmt
}
