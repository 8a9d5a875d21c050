// Package replication makes every committed write go through a Raft log
// (hashicorp/raft, with raft-boltdb/v2 behind a log cache). A single server
// is a one-voter group, so the same path is its write-ahead log; a cluster
// only adds members.
//
// It knows the state machine only through the small StateMachine interface:
// opaque command bytes in, an error out, and snapshots as byte streams. It
// must not import the SQL engine or storage.
package replication
