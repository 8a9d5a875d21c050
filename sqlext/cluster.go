package sqlext

import (
	"context"
	"errors"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"

	"github.com/sqlearn/sqlearn/replication"
	"github.com/sqlearn/sqlearn/storage"
)

// ReadConsistencyVar is the session variable that picks how fresh reads
// must be: none (local state), weak (at least the leader's state when the
// statement began) or linearizable (every write acknowledged before the
// statement began). A barrier runs when each transaction starts, which in
// autocommit mode is each statement.
const ReadConsistencyVar = "sqlearn_read_consistency"

func init() {
	sql.SystemVariables.AddSystemVariables([]sql.SystemVariable{&sql.MysqlSystemVariable{
		Name:    ReadConsistencyVar,
		Scope:   sql.GetMysqlScope(sql.SystemVariableScope_Both),
		Dynamic: true,
		Type:    types.NewSystemEnumType(ReadConsistencyVar, "none", "weak", "linearizable"),
		Default: "weak",
	}})
}

func readLevel(ctx *sql.Context) replication.ReadLevel {
	v, err := ctx.GetSessionVariable(ctx, ReadConsistencyVar)
	if err != nil {
		return replication.ReadWeak
	}
	s, _ := v.(string)
	level, err := replication.ParseReadLevel(s)
	if err != nil {
		return replication.ReadWeak
	}
	return level
}

// clusterNode is what the SQL layer needs of the Raft node beyond writes.
type clusterNode interface {
	ReadBarrier(ctx context.Context, level replication.ReadLevel) error
	Members(ctx context.Context) ([]replication.Member, error)
	AddVoter(id, addr string) error
	AddNonvoter(id, addr string) error
	RemoveServer(id string) error
	Isolate(peers []string) error
}

// clusterExtensions are the cluster's system table and procedures.
// Membership changes need SUPER privileges (AdminOnly); reading the
// members needs REPLICATION CLIENT, as MySQL's SHOW REPLICAS does (every
// user may read sys); RAFT_ISOLATE, which cuts this node off from peers,
// exists only with fault injection enabled.
func clusterExtensions(p *Provider, node clusterNode, faults bool) Extensions {
	members := SystemTable{
		Name: "cluster_members",
		Schema: sql.Schema{
			{Name: "node_id", Type: types.Text},
			{Name: "address", Type: types.Text},
			{Name: "role", Type: types.Text},
			{Name: "state", Type: types.Text, Nullable: true},
			{Name: "last_contact", Type: types.DatetimeMaxPrecision, Nullable: true},
			{Name: "applied_index", Type: types.Uint64, Nullable: true},
		},
		Rows: func(ctx *sql.Context) ([]sql.Row, error) {
			if !p.HasGlobalPrivilege(ctx, sql.PrivilegeType_ReplicationClient) {
				return nil, mysql.NewSQLError(mysql.ERSpecifiedAccessDenied, "42000",
					"Access denied; you need (at least one of) the REPLICATION CLIENT privilege(s) for this operation")
			}
			ms, err := node.Members(ctx)
			if err != nil {
				return nil, translate(err)
			}
			rows := make([]sql.Row, len(ms))
			for i, m := range ms {
				role := "nonvoter"
				switch {
				case m.Leader:
					role = "leader"
				case m.Voter:
					role = "follower"
				}
				row := sql.Row{m.ID, m.Address, role, nil, nil, nil}
				if m.Reachable {
					row[3], row[4], row[5] = m.State, m.LastContact.UTC(), m.AppliedIndex
				}
				rows[i] = row
			}
			return rows, nil
		},
	}
	ok := sql.Schema{{Name: "status", Type: types.Text}}
	done := func() (sql.RowIter, error) { return sql.RowsToRowIter(sql.Row{"ok"}), nil }
	procs := []sql.ExternalStoredProcedureDetails{
		{Name: "cluster_add_voter", Schema: ok, AdminOnly: true, Function: func(ctx *sql.Context, id, addr string) (sql.RowIter, error) {
			if err := node.AddVoter(id, addr); err != nil {
				return nil, translate(err)
			}
			return done()
		}},
		{Name: "cluster_add_nonvoter", Schema: ok, AdminOnly: true, Function: func(ctx *sql.Context, id, addr string) (sql.RowIter, error) {
			if err := node.AddNonvoter(id, addr); err != nil {
				return nil, translate(err)
			}
			return done()
		}},
		{Name: "cluster_remove", Schema: ok, AdminOnly: true, Function: func(ctx *sql.Context, id string) (sql.RowIter, error) {
			if err := node.RemoveServer(id); err != nil {
				return nil, translate(err)
			}
			return done()
		}},
	}
	if faults {
		procs = append(procs, sql.ExternalStoredProcedureDetails{Name: "raft_isolate", Schema: ok, AdminOnly: true,
			Function: func(ctx *sql.Context, peers string) (sql.RowIter, error) {
				var list []string
				for _, p := range strings.Split(peers, ",") {
					if p = strings.TrimSpace(p); p != "" {
						list = append(list, p)
					}
				}
				if err := node.Isolate(list); err != nil {
					return nil, translate(err)
				}
				return done()
			}})
	}
	return Extensions{Procedures: procs, SystemTables: []SystemTable{members}}
}

// storageErrors carries storage's errors from the leader to a follower that
// forwarded a write, keeping their kinds so the client sees the same code.
type storageErrors struct{}

const (
	errKindMessage   byte = 0
	errKindDuplicate byte = 1
	errKindSentinel  byte = 2
)

// sentinels are storage's errors that cross nodes by position in this list;
// append only.
var sentinels = []error{
	storage.ErrDatabaseExists, storage.ErrDatabaseNotFound, storage.ErrTableExists, storage.ErrTableNotFound,
	storage.ErrColumnExists, storage.ErrColumnNotFound, storage.ErrIndexExists, storage.ErrIndexNotFound,
	storage.ErrDuplicateKey, storage.ErrBadValue, storage.ErrNotNull, storage.ErrCorrupt,
	storage.ErrFormatVersion, storage.ErrBadSchema, storage.ErrConflict,
}

func (storageErrors) EncodeError(err error) []byte {
	var de *storage.DuplicateError
	if errors.As(err, &de) {
		out := []byte{errKindDuplicate}
		for _, s := range []string{de.Index, de.Key, de.Existing} {
			out = append(out, byte(len(s)>>8), byte(len(s)))
			out = append(out, s...)
		}
		return out
	}
	for i, s := range sentinels {
		if errors.Is(err, s) {
			return append([]byte{errKindSentinel, byte(i)}, err.Error()...)
		}
	}
	return append([]byte{errKindMessage}, err.Error()...)
}

func (storageErrors) DecodeError(b []byte) error {
	if len(b) == 0 {
		return errors.New("sqlext: empty error from the leader")
	}
	switch b[0] {
	case errKindDuplicate:
		var parts []string
		rest := b[1:]
		for len(parts) < 3 && len(rest) >= 2 {
			n := int(rest[0])<<8 | int(rest[1])
			if len(rest) < 2+n {
				break
			}
			parts = append(parts, string(rest[2:2+n]))
			rest = rest[2+n:]
		}
		if len(parts) == 3 {
			return &storage.DuplicateError{Index: parts[0], Key: parts[1], Existing: parts[2]}
		}
	case errKindSentinel:
		if len(b) >= 2 && int(b[1]) < len(sentinels) {
			return &remoteError{kind: sentinels[b[1]], msg: string(b[2:])}
		}
	}
	return errors.New(string(b[1:]))
}

// remoteError is a storage error that happened on the leader.
type remoteError struct {
	kind error
	msg  string
}

func (e *remoteError) Error() string { return e.msg }
func (e *remoteError) Unwrap() error { return e.kind }

// readBarrierError reports a read that could not be made fresh enough.
func readBarrierError(err error) error {
	return mysql.NewSQLError(mysql.ERUnknownError, "HY000", "read consistency could not be reached; retry: %v", err)
}
