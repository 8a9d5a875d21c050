// Package matrix owns sqlearn's matrix value: a dense row-major or CSR
// sparse float64 matrix, its versioned binary encoding (stored in LONGBLOB
// columns, see docs/format/matrix.md), its JSON and Matrix Market readers,
// and the operator library behind the MAT_* SQL functions.
//
// Values are immutable: every operation returns a new matrix (or an operand
// unchanged, when that is the answer), so a *Matrix may be shared between
// goroutines and cached without copying. Indices are 0-based throughout.
//
// Heavy kernels run on a gpu.Device (the CPU device unless SetDevice says
// otherwise). The package must not import SQL, storage, replication or
// optimizer code; those layers call it.
package matrix
