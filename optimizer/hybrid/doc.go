// Package hybrid owns the HyMAC runtime: evaluation of iterative loops of
// the form x_{k+1} = f(M·x_k), where M is a large constant sparse matrix,
// either in full (y = M·x every iteration) or incrementally
// (y += M·Δx over only the entries of Δx that moved beyond a threshold,
// carrying the rest as a residual so nothing is lost), choosing per
// iteration by a cost model calibrated on this machine, and reorganising
// M's columns so that still-changing entries cluster in few blocks when
// that pays off.
//
// Product is the building block: it keeps one product M·x current as x
// changes. Loop drives the single-product case; PageRank and GNMF are the
// two computations built on it (GNMF drives two Products itself).
//
// The package works on plain slices and its own CSR type. It must not
// import the SQL engine, storage or replication: the SQL procedures in
// udf and the LA optimizer call it, never the other way round.
package hybrid
