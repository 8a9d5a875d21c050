// Package optimizer owns sqlearn's linear-algebra programs: it runs LA
// scripts (parsed by optimizer/lang) against an Env supplied by the caller,
// and before running them removes redundant computation with the ReMac
// method: expressions are normalised into sums of flat multiplication
// chains, common and loop-constant sub-chains (transposed matches included)
// are found by a block-wise search, and an interval dynamic programme over
// the chains picks which to reuse under a cost model calibrated on this
// machine's kernels. Loop constants it keeps are hoisted out of their loop.
// Explain reports the plans, the candidates and the estimates, and with
// ANALYZE the measured time of every operator.
//
// The package knows nothing of SQL or storage: inputs and outputs go
// through the Env interface, which the SQL layer implements. It must not
// import sqlext, udf, storage or replication.
package optimizer
