// Package sqlext puts sqlearn's storage and replication behind
// go-mysql-server: the database provider, databases and tables over
// storage.Store, sessions with read-committed transactions whose commits go
// through the Raft log, users persisted in the replicated state, and the one
// place where internal errors become MySQL error codes.
//
// It may import storage, replication and go-mysql-server. storage and
// replication must never import it.
package sqlext
