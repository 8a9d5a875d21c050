package sqlext

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/dolthub/go-mysql-server/server"
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"
	"github.com/dolthub/vitess/go/sqltypes"
	querypb "github.com/dolthub/vitess/go/vt/proto/query"
)

// A CALL answers, as in MySQL, with a result set for each statement of
// the procedure that read rows, in the order they ran, then an OK (or the
// error the procedure ended with). The wire layer writes one result set
// per statement of a multi-statement query and asks the handler for the
// rest of the query after each; that loop carries the CALL's further
// result sets: the handler answers the first, keeps the others in
// callAnswer, and names moreResults as the rest of the query, so the wire
// layer marks the result set as followed by more and comes back for the
// next.
//
// The wire layer takes that path only for a client that asked for
// multi-statement queries. So the connection reader (rewritingConn) asks
// for them on behalf of every client able to read several result sets
// (CLIENT_MULTI_RESULTS, which all current clients send), and remembers
// what the client itself asked for: the handler runs a query of several
// statements from a client that did not ask as one statement, which is a
// syntax error, as MySQL does.
//
// A CALL prepared on the server (COM_STMT_EXECUTE) answers with its last
// result set only: that command of the wire layer writes one.

// moreResults is the rest of a query while a CALL's result sets are being
// written (see above). No client statement can be this text: the wire
// layer reads a query up to its packet's end and a client's text holds no
// NUL.
const moreResults = "\x00more results of the CALL\x00"

// callResults collects the result sets of the client's CALL while it runs
// (runProcedure hands them over).
type callResults struct {
	sets []*sqltypes.Result
}

// callAnswer is what is left to write of a CALL's answer.
type callAnswer struct {
	sets  []*sqltypes.Result
	final *sqltypes.Result // the CALL's own OK, nil when it failed
	err   error            // the error the CALL ended with
	rest  string           // the statements sent after the CALL
}

// callSinks holds, by connection, the collector of the CALL each is
// running and the answer each has yet to finish writing.
type callSinks struct {
	sync.Mutex
	running map[uint32]*callResults
	answers map[uint32]*callAnswer
}

func (s *callSinks) start(conn uint32) *callResults {
	s.Lock()
	defer s.Unlock()
	if s.running == nil {
		s.running = make(map[uint32]*callResults)
	}
	r := &callResults{}
	s.running[conn] = r
	return r
}

// take gives the collector of the CALL connection conn runs, once: a
// procedure a trigger or another routine calls finds none.
func (s *callSinks) take(conn uint32) *callResults {
	s.Lock()
	defer s.Unlock()
	r := s.running[conn]
	delete(s.running, conn)
	return r
}

func (s *callSinks) keep(conn uint32, a *callAnswer) {
	s.Lock()
	defer s.Unlock()
	if s.answers == nil {
		s.answers = make(map[uint32]*callAnswer)
	}
	s.answers[conn] = a
}

func (s *callSinks) answer(conn uint32) *callAnswer {
	s.Lock()
	defer s.Unlock()
	return s.answers[conn]
}

func (s *callSinks) forget(conn uint32) {
	s.Lock()
	defer s.Unlock()
	delete(s.running, conn)
	delete(s.answers, conn)
}

// callSink is the collector for the client's CALL that ctx runs, nil when
// the client cannot be sent more than one result set.
func callSink(ctx *sql.Context) *callResults {
	s, ok := ctx.Session.(*Session)
	if !ok || s.p == nil || !callStatement(ctx.Query()) {
		return nil
	}
	return s.p.calls.take(ctx.Session.ID())
}

// add converts a statement's rows to result sets for the wire.
func (c *callResults) add(ctx *sql.Context, results []*procResult) error {
	for _, r := range results {
		res := &sqltypes.Result{Fields: resultFields(ctx, r.sch), Rows: make([][]sqltypes.Value, 0, len(r.rows))}
		for _, row := range r.rows {
			vals, err := server.RowToSQL(ctx, r.sch, row, nil, nil)
			if err != nil {
				return err
			}
			res.Rows = append(res.Rows, vals)
		}
		c.sets = append(c.sets, res)
	}
	return nil
}

// resultFields describes result columns as the engine's handler does.
func resultFields(ctx *sql.Context, sch sql.Schema) []*querypb.Field {
	charSetResults := ctx.GetCharacterSetResults()
	fields := make([]*querypb.Field, len(sch))
	for i, c := range sch {
		fields[i] = columnField(ctx, charSetResults, c)
		fields[i].Table, fields[i].OrgTable, fields[i].Database = c.Source, c.Source, c.DatabaseSource
	}
	return fields
}

// columnField describes column c of a result, its table left for the
// caller to name.
func columnField(ctx *sql.Context, charSetResults sql.CharacterSetID, c *sql.Column) *querypb.Field {
	charset := uint32(sql.Collation_Default.CharacterSet())
	if ct, ok := c.Type.(sql.TypeWithCollation); ok {
		charset = uint32(ct.Collation().CharacterSet())
	}
	if types.IsBinaryType(c.Type) {
		charset = uint32(sql.Collation_binary)
	} else if charSetResults != sql.CharacterSet_Unspecified {
		charset = uint32(charSetResults)
	}
	var flags querypb.MySqlFlag
	if !c.Nullable {
		flags |= querypb.MySqlFlag_NOT_NULL_FLAG
	}
	if c.AutoIncrement {
		flags |= querypb.MySqlFlag_AUTO_INCREMENT_FLAG
	}
	if c.PrimaryKey {
		flags |= querypb.MySqlFlag_PRI_KEY_FLAG
	}
	if types.IsUnsigned(c.Type) {
		flags |= querypb.MySqlFlag_UNSIGNED_FLAG
	}
	f := &querypb.Field{
		Name: c.Name, OrgName: c.Name,
		Type: c.Type.Type(), Charset: charset, ColumnLength: c.Type.MaxTextResponseByteLength(ctx), Flags: uint32(flags),
	}
	if types.IsDecimal(c.Type) {
		f.Decimals = uint32(c.Type.(sql.DecimalType).Scale())
	} else if types.IsDatetimeType(c.Type) {
		f.Decimals = uint32(c.Type.(sql.DatetimeType).Precision())
	}
	return f
}

// call runs query, a CALL, and writes the first part of its answer (see
// the top of this file).
func (h *errorHandler) call(ctx context.Context, c *mysql.Conn, query string, cb mysql.ResultSpoolFn) (string, error) {
	calls := &h.prov.calls
	collected := calls.start(c.ConnectionID)
	defer calls.take(c.ConnectionID)
	var final *sqltypes.Result
	keep := func(res *sqltypes.Result, more bool) error {
		if len(collected.sets) == 0 {
			return cb(res, more)
		}
		// The CALL's own answer, an OK without rows, goes last.
		final = res
		return nil
	}
	rest, err := h.query(ctx, c, query, keep)
	if len(collected.sets) == 0 {
		return rest, err
	}
	if err != nil {
		final = nil
	}
	a := &callAnswer{sets: collected.sets, final: final, err: err, rest: rest}
	return h.nextResult(c, a, cb)
}

// nextResult writes the next part of a CALL's answer a; moreResults as
// the rest of the query brings the wire layer back for the part after it.
func (h *errorHandler) nextResult(c *mysql.Conn, a *callAnswer, cb mysql.ResultSpoolFn) (string, error) {
	calls := &h.prov.calls
	if a == nil {
		if a = calls.answer(c.ConnectionID); a == nil {
			return "", mysql.NewSQLError(mysql.ERSyntaxError, mysql.SSClientError, "syntax error: the query holds a NUL character")
		}
	}
	if len(a.sets) > 0 {
		set := a.sets[0]
		a.sets = a.sets[1:]
		calls.keep(c.ConnectionID, a)
		return moreResults, withMySQLFloats(cb)(set, false)
	}
	calls.forget(c.ConnectionID)
	if a.err != nil || a.final == nil {
		return "", a.err
	}
	return a.rest, h.okPacket(c, cb)(a.final, a.rest != "")
}

// clientMultiStatements says whether the client on c asked for queries
// of several statements, which the wire layer may have been told on its
// behalf (see the top of this file).
func clientMultiStatements(c *mysql.Conn) bool {
	if rc := readerOf(c.Conn); rc != nil && rc.forcedMulti {
		return rc.multi.Load()
	}
	return true // the wire layer calls ComMultiQuery only for such clients
}

// multiState is the reader's record of a client's multi-statement setting.
type multiState struct {
	// forcedMulti is set when the reader asked the wire layer for
	// multi-statement queries on the client's behalf; multi is then what
	// the client itself asked for, in its handshake or since, by
	// COM_SET_OPTION.
	forcedMulti bool
	multi       atomic.Bool
}
