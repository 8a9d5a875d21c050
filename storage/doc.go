// Package storage owns sqlearn's table data: databases and tables whose rows
// live in Arrow record batches, hash-partitioned on the primary key (or on a
// hidden row id for keyless tables), with ordered primary and secondary
// indexes, auto-increment counters, the opaque users blob, and snapshots
// written as Arrow IPC.
//
// Every change arrives as a Command applied by Store.Apply. Apply is
// deterministic: the same sequence of commands gives the same state on every
// replica, which is what lets the replication package drive it from a Raft
// log. A command either applies whole or not at all.
//
// storage knows nothing of SQL. Column types are a small set of physical
// kinds; whatever a caller needs to rebuild its own notion of a column (a SQL
// type string, a default expression) travels in Column.Meta untouched, and
// value ordering (collations) comes from a CompareFunc the caller injects.
// It must not import the SQL engine, the replication layer or the server.
package storage
