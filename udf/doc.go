// Package udf owns every SQL-callable function and procedure sqlearn adds to
// MySQL's: the MAT_* matrix functions, the MySQL 9 vector functions, the
// MAT_SAVE and MAT_IMPORT_MTX procedures and SQLEARN_BLAS. It checks
// arguments, runs the work in the matrix package, and is the one place where
// their errors become MySQL errors with a code and a message naming the
// function.
//
// Matrices travel as LONGBLOB values in matrix.Encode's format; every index a
// user sees (MAT_GET, MAT_SLICE, triples tables, Matrix Market files) counts
// from 1, as SUBSTRING and Matrix Market do.
//
// udf reads tables through the engine, or through storage's exported
// columnar scan for plain table reads; it must not reach into storage
// internals, and writes only through SQL statements run by the engine, so
// every change goes through the replicated log like any client's.
package udf
