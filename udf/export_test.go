package udf

// FastScans reports how many MAT_FROM_QUERY/MAT_FROM_TRIPLES reads took the
// columnar path.
func FastScans() int64 { return fastScans.Load() }
