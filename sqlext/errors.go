package sqlext

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/vitess/go/mysql"
	"github.com/dolthub/vitess/go/sqltypes"
	querypb "github.com/dolthub/vitess/go/vt/proto/query"

	"github.com/sqlearn/sqlearn/replication"
	"github.com/sqlearn/sqlearn/storage"
)

// translate turns errors from below the SQL layer into errors the engine
// reports with the right MySQL code.
func translate(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, replication.ErrNotLeader), errors.Is(err, replication.ErrNoLeader):
		return mysql.NewSQLError(mysql.ERUnknownError, "HY000", "no Raft leader is available; retry the statement: %v", err)
	case errors.Is(err, replication.ErrUnknownOutcome), errors.Is(err, replication.ErrClosed):
		// A node shutting down may already have handed the write to the
		// log, which can still commit it.
		return mysql.NewSQLError(mysql.ERUnknownError, "HY000", "the write may or may not have committed: %v", err)
	case errors.Is(err, replication.ErrTimeout):
		return mysql.NewSQLError(mysql.ERUnknownError, "HY000", "the write could not be committed: %v", err)
	case errors.Is(err, storage.ErrConflict):
		return mysql.NewSQLError(mysql.ERLockDeadlock, mysql.SSLockDeadlock, "%v", err)
	}
	return translateStorage(err)
}

// sqlStates gives the SQLSTATE MySQL sends with each error code; the engine
// leaves most of them at HY000.
// erSPDoesNotExist is MySQL's ER_SP_DOES_NOT_EXIST, which also names a
// savepoint that does not exist.
const erSPDoesNotExist = 1305

var sqlStates = map[int]string{
	1022: "23000", 1048: "23000", 1062: "23000", 1169: "23000", 1216: "23000", 1217: "23000",
	1451: "23000", 1452: "23000", 1557: "23000", 1586: "23000",
	3948: "42000",
	1044: "42000", 1046: "3D000", 1045: "28000", 1049: "42000", 1050: "42S01", 1051: "42S02", 1054: "42S22",
	1060: "42S21", 1061: "42000", 1064: "42000", 1068: "42000", 1071: "42000", 1072: "42000",
	1091: "42000", 1109: "42S02", 1110: "42000", 1113: "42000", 1136: "21S01", 1142: "42000",
	1146: "42S02", 1149: "42000", 1227: "42000", 1235: "42000", 1241: "21000", 1242: "21000",
	1055: "42000", 1066: "42000", 1265: "01000", 1286: "42000",
	1264: "22003", 1292: "22007", 1305: "42000", 1318: "42000", 1365: "22012", 1406: "22001", 1410: "42000",
	1213: "40001", 1231: "42000", 1317: "70100", 1690: "22003", 3140: "22032", 3141: "22032",
	1170: "42000", 1239: "42000", erWrongParamCount: "42000",
}

// engineMessages maps engine errors that reach the handler as
// ER_UNKNOWN_ERROR to the codes MySQL uses for them.
var engineMessages = []struct {
	text string
	code int
}{
	{"syntax error at position", mysql.ERParseError},
	{"only one auto_increment column and it must be defined as a key", mysql.ERWrongAutoKey},
	{"local_infile needs to be set to 1", 3948}, // ER_CLIENT_LOCAL_FILES_DISABLED: LOAD DATA LOCAL with local_infile OFF
	{"no database selected", mysql.ERNoDb},
	{"Check constraint", erCheckConstraintViolated},
	{"Constraint \"", erUnknownConstraint},
	{"command denied to user", 1142},
	{"could not be found in any table in scope", mysql.ERBadFieldError},
	{"Access denied for user", mysql.ERDBAccessDenied},
	{"does not exist", mysql.ERNoSuchTable},
	{"Column count doesn't match", mysql.ERWrongValueCountOnRow},
	{"out of range", mysql.ERWarnDataOutOfRange},
	{"Cannot create a Decimal from", mysql.ERWarnDataOutOfRange}, // a float overflow met by DECIMAL arithmetic
	{"too long for column", mysql.ERDataTooLong},
	{"Out of range value", mysql.ERWarnDataOutOfRange},
	{"Incorrect datetime value", 1292},                   // ER_TRUNCATED_WRONG_VALUE
	{"Invalid JSON text", 3140},                          // ER_INVALID_JSON_TEXT
	{"is not valid for this Enum", 1265},                 // WARN_DATA_TRUNCATED, an error in strict mode
	{"doesn't appear in the group by expressions", 1055}, // ER_WRONG_FIELD_WITH_GROUP
	{"duplicate column name", 1060},                      // ER_DUP_FIELDNAME
	{`" already exists`, 1060},                           // Column "c" already exists: ADD COLUMN of one that is there
	{"function: '", 1305},                                // ER_SP_DOES_NOT_EXIST: an unknown function
	{"Not unique table/alias", 1066},                     // ER_NONUNIQ_TABLE
	{"Unknown system variable", 1193},                    // ER_UNKNOWN_SYSTEM_VARIABLE
	{"is a read only variable", 1238},                    // ER_INCORRECT_GLOBAL_LOCAL_VAR
	{"was not found in the set", mysql.ERWrongValueForVar},
	{"is too large for column", mysql.ERDataTooLong},
	{"number of values does not match number of columns", mysql.ERWrongValueCountOnRow},
	{"table with name", 1050},
	{"can't be set to the value of", mysql.ERWrongValueForVar},
	{"failed for '", 1396},                                    // ER_CANNOT_USER: CREATE/DROP/ALTER USER on a missing or existing account
	{"You are not allowed to create a user with GRANT", 1410}, // ER_CANT_CREATE_USER_WITH_GRANT
	{"doesn't have a default value", 1364},                    // ER_NO_DEFAULT_FOR_FIELD
	{"The value specified for generated column", 3105},        // ER_NON_DEFAULT_VALUE_FOR_GENERATED_COLUMN
	// Foreign keys.
	{"cannot add or update a child row", 1452},             // ER_NO_REFERENCED_ROW_2
	{"cannot delete or update a parent row", 1451},         // ER_ROW_IS_REFERENCED_2
	{"as it is referenced in foreign key", 3730},           // ER_FK_CANNOT_DROP_PARENT
	{"duplicate foreign key constraint name", 1826},        // ER_FK_DUP_NAME
	{"` was not found on the table `", 1091},               // ER_CANT_DROP_FIELD_OR_KEY
	{"as it is used in foreign key", 1828},                 // ER_FK_COLUMN_CANNOT_DROP
	{"is used by foreign key", 1553},                       // ER_DROP_INDEX_FK
	{"missing index for foreign key", 1822},                // ER_FK_NO_INDEX_PARENT
	{"the foreign key must reference an equivalent", 1239}, // ER_WRONG_FK_DEF
	{"column type mismatch on", 3780},                      // ER_FK_INCOMPATIBLE_COLUMNS
	{"cannot use SET NULL as column", 1830},                // ER_FK_COLUMN_NOT_NULL
	{"TEXT/BLOB are not valid types for foreign keys", 1170},
	{"has already been registered", 1061}, // ER_DUP_KEYNAME: an index with id "k" has already been registered
	{"Duplicate key name '", 1061},
	{"The SRID of the geometry does not match the SRID of the column", 3643}, // ER_WRONG_SRID_FOR_COLUMN
	// Index key parts.
	{"used in key specification without a key length", 1170}, // ER_BLOB_KEY_WITHOUT_LENGTH
	{"incorrect prefix key '", 1089},                         // ER_WRONG_SUB_KEY
	{"specified key was too long", 1071},                     // ER_TOO_LONG_KEY
	{"length cannot be 0", 1391},                             // ER_KEY_PART_0
	{"as it is used by foreign keys", 1832},                  // ER_FK_COLUMN_CANNOT_CHANGE
	{"Foreign key cascade delete/update exceeds", 3008},      // ER_FK_DEPTH_EXCEEDED
}

// erViewCheckFailed is MySQL's ER_VIEW_CHECK_FAILED.
const erViewCheckFailed = 1369

// erIllegalValueForType is MySQL's ER_ILLEGAL_VALUE_FOR_TYPE.
const erIllegalValueForType = 1367

// erTruncatedWrongValue is MySQL's ER_TRUNCATED_WRONG_VALUE, a warning
// for a value read as far as it made sense ("Incorrect time value").
const erTruncatedWrongValue = 1292

// erTableAccessDenied is MySQL's ER_TABLEACCESS_DENIED_ERROR.
const erTableAccessDenied = 1142

// erWrongParamCount is MySQL's ER_WRONG_PARAMCOUNT_TO_NATIVE_FCT.
const erWrongParamCount = 1582

// wrongParamCount finds the function named in the engine's message for
// a call with too many or too few arguments (sql.ErrInvalidArgumentNumber,
// "function 'pow' expected 2 arguments, 1 received").
func wrongParamCount(msg string) (string, bool) {
	const head, tail = "function '", "' expected "
	i := strings.Index(msg, head)
	if i < 0 {
		return "", false
	}
	rest := msg[i+len(head):]
	j := strings.Index(rest, tail)
	if j < 0 || !strings.HasSuffix(rest, " received") {
		return "", false
	}
	return rest[:j], true
}

// writtenTexts gives an error the names the statement writes
// (spellAsWritten, unknownColumnText, ambiguousColumnText).
func writtenTexts(err *error, query string) {
	spellAsWritten(err, query)
	unknownColumnText(err, query)
	ambiguousColumnText(err, query)
}

// spellAsWritten gives the function that error 1582 names the spelling
// the statement gave it, as MySQL's message does ('Pow' for Pow(2)):
// the engine's message had its own, in upper or lower case. The first
// call of the function in the statement is taken; a name the statement
// does not call (the call was in a view) stays in lower case.
func spellAsWritten(err *error, query string) {
	var se *mysql.SQLError
	if !errors.As(*err, &se) || se.Num != erWrongParamCount {
		return
	}
	const head = "native function '"
	i := strings.Index(se.Message, head)
	if i < 0 {
		return
	}
	rest := se.Message[i+len(head):]
	end := strings.IndexByte(rest, '\'')
	if end < 0 {
		return
	}
	written := strings.ToLower(rest[:end])
	lower := strings.ToLower(query)
	for at := 0; ; {
		k := strings.Index(lower[at:], written)
		if k < 0 {
			break
		}
		k += at
		before := k == 0 || !isIdentifierByte(lower[k-1])
		after := strings.TrimLeft(lower[k+len(written):], " \t\r\n")
		if before && strings.HasPrefix(after, "(") {
			written = query[k : k+len(written)]
			break
		}
		at = k + len(written)
	}
	out := *se
	out.Message = se.Message[:i+len(head)] + written + rest[end:]
	*err = &out
}

func isIdentifierByte(b byte) bool {
	return b == '_' || b == '$' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= 0x80
}

// overflowingLiteral finds a numeric literal too large for a DOUBLE in
// the engine's message for it, Go's own parse error, so that the client
// gets MySQL's error 1367 naming the literal.
func overflowingLiteral(msg string) (string, bool) {
	const head, tail = `strconv.ParseFloat: parsing "`, `": value out of range`
	i := strings.Index(msg, head)
	if i < 0 {
		return "", false
	}
	rest := msg[i+len(head):]
	j := strings.Index(rest, tail)
	if j < 0 {
		return "", false
	}
	return rest[:j], true
}

// addedTwice finds the column in the engine's message for a name that
// two columns of one table hold, which is how it refuses ALTER TABLE
// ... ADD COLUMN of a name the table has when the table's generated
// columns or defaults read columns ("ambiguous column name "a", it's
// present in all these tables: [t t]"). A name two tables of a query
// hold is another error.
func addedTwice(msg string) (string, bool) {
	const head, mid = `ambiguous column name "`, `", it's present in all these tables: [`
	rest, ok := strings.CutPrefix(msg, head)
	if !ok {
		return "", false
	}
	name, tables, ok := strings.Cut(rest, mid)
	tables, closed := strings.CutSuffix(tables, "]")
	fields := strings.Fields(tables)
	if !ok || !closed || len(fields) < 2 {
		return "", false
	}
	for _, f := range fields[1:] {
		if f != fields[0] {
			return "", false
		}
	}
	return name, true
}

// sqlError is the single point where any error bound for a client becomes a
// MySQL error with a code and SQLSTATE.
func sqlError(err error) error {
	if err == nil {
		return nil
	}
	var se *mysql.SQLError
	if !errors.As(err, &se) {
		se = sql.CastSQLError(err)
	}
	out := *se
	if num, state, msg, ok := flattenedSQLError(out.Message); ok && out.Num == mysql.ERUnknownError {
		// A MySQL error of this package's that the engine wrote as text:
		// first, before the engine's texts are read for what they say.
		out.Num, out.State, out.Message = num, state, msg
	}
	if lit, ok := overflowingLiteral(out.Message); ok {
		out.Num, out.State = erIllegalValueForType, "22007"
		out.Message = fmt.Sprintf("Illegal double '%s' value found during parsing", lit)
	}
	if name, ok := wrongParamCount(out.Message); ok && out.Num == mysql.ERUnknownError {
		out.Num, out.State = erWrongParamCount, "42000"
		out.Message = fmt.Sprintf("Incorrect parameter count in the call to native function '%s'", name)
	}
	if out.Num == mysql.ERUnknownError && strings.Contains(out.Message, context.Canceled.Error()) {
		// KILL QUERY, or the server closing, cancelled the statement.
		out.Num, out.State, out.Message = mysql.ERQueryInterrupted, "70100", "Query execution was interrupted"
	}
	if out.Num == mysql.ERSubqueryNo1Row && strings.Contains(out.Message, "subquery returned more than 1 row") {
		out.Message = "Subquery returns more than 1 row"
	}
	collationError(&out)
	var table, column string
	if _, err := fmt.Sscanf(out.Message, "table %q does not have column %q", &table, &column); err == nil && out.Num == mysql.ERUnknownError {
		// An ALTER naming a column the table does not have, refused
		// while the statement was read (see also alterColumnErrors).
		out.Num, out.State = mysql.ERBadFieldError, "42S22"
		out.Message = fmt.Sprintf("Unknown column '%s' in '%s'", column, table)
	}
	var check string
	if _, err := fmt.Sscanf(out.Message, "can't alter column %q because it would invalidate check constraint %q", &column, &check); err == nil && out.Num == mysql.ERUnknownError {
		out.Num, out.State = erDependentByCheck, "HY000"
		out.Message = fmt.Sprintf("Check constraint '%s' uses column '%s', hence column cannot be dropped or renamed.", check, column)
	}
	var proc string
	if _, err := fmt.Sscanf(out.Message, "stored procedure %q already exists", &proc); err == nil {
		out.Num, out.State = erSPAlreadyExistsProc, "42000"
		out.Message = fmt.Sprintf("PROCEDURE %s already exists", proc)
	}
	if strings.HasPrefix(out.Message, "SAVEPOINT ") && strings.HasSuffix(out.Message, " does not exist") {
		// ROLLBACK TO or RELEASE of a savepoint never set: the engine's
		// code was 1146, an unknown table.
		out.Num, out.State = erSPDoesNotExist, "42000"
	}
	if out.Num == mysql.ERUnknownError && out.Message == sql.ErrJSONObjectAggNullKey.New().Error() {
		out = *errNullMemberName // JSON_OBJECTAGG of a NULL key
	}
	if name, ok := addedTwice(out.Message); ok && out.Num == mysql.ERUnknownError {
		out = *duplicateColumn(name).(*mysql.SQLError)
	}
	if name, ok := strings.CutPrefix(out.Message, "unsupported JSON function: "); ok && out.Num == mysql.ERUnknownError {
		// JSON_SCHEMA_VALID and the like, which the engine names but
		// does not compute.
		out.Num, out.State = erNotSupportedYet, "42000"
		out.Message = fmt.Sprintf("This version of MySQL doesn't yet support '%s'", strings.ToUpper(name))
	}
	if strings.HasPrefix(out.Message, "no matching Full-Text index found on table ") {
		out = *noFulltextIndex().(*mysql.SQLError)
	}
	if msg, ok := viewCheckFailed(out.Message); ok {
		out.Num, out.State, out.Message = erViewCheckFailed, "44000", msg
	}
	if out.Num == mysql.ERUnknownError && !strings.HasPrefix(out.Message, internalError) {
		// The engine has already flattened these to ER_UNKNOWN_ERROR by
		// the time they reach the handler, so only their text is left to
		// recognise them by.
		out.Num = engineMessageCode(out.Message, out.Num)
	}
	out.Message = mysqlMessage(out.Num, out.Message)
	if st, ok := sqlStates[out.Num]; ok && (out.State == "" || out.State == mysql.SSUnknownSQLState) {
		out.State = st
	}
	return &out
}

// mysqlMessage is the text MySQL gives error num where the engine words
// it otherwise: a duplicate key (Table.duplicate holds MySQL's text of
// the key), a NULL in a NOT NULL column, a row of columns where one
// value is wanted, and the primary key errors of ALTER TABLE.
func mysqlMessage(num int, msg string) string {
	switch num {
	case mysql.EROperandColumns:
		if strings.HasPrefix(msg, "operand should have ") {
			var want, got int
			if _, err := fmt.Sscanf(msg, "operand should have %d columns, but has %d", &want, &got); err == nil {
				return fmt.Sprintf("Operand should contain %d column(s)", want)
			}
		}
	case mysql.ERDupEntry:
		for _, head := range []string{"duplicate primary key given: '", "duplicate unique key given: '"} {
			if rest, ok := strings.CutPrefix(msg, head); ok {
				return "Duplicate entry '" + rest
			}
		}
	case mysql.ERWrongAutoKey:
		return "Incorrect table definition; there can be only one auto column and it must be defined as a key"
	case mysql.ERMultiplePriKey:
		return "Multiple primary key defined"
	case mysql.ERKeyColumnDoesNotExist:
		if strings.HasPrefix(msg, "key column '") {
			return "K" + msg[1:]
		}
	case mysql.ERCantDropFieldOrKey:
		if rest, ok := strings.CutPrefix(msg, "error: can't drop "); ok {
			return "Can't DROP " + rest
		}
	case mysql.ERDataTooLong:
		// The engine's "string 'abcd' is too large for column 'c'";
		// MySQL's text also names the row, which the error does not say.
		if i := strings.LastIndex(msg, " is too large for column '"); i >= 0 && strings.HasSuffix(msg, "'") {
			return "Data too long for column " + msg[i+len(" is too large for column "):]
		}
	case 1170:
		if rest, ok := strings.CutPrefix(msg, "blob/text column "); ok {
			return "BLOB/TEXT column " + rest
		}
	case 1061:
		var key string
		if _, err := fmt.Sscanf(msg, "an index with id %q has already been registered", &key); err == nil {
			return fmt.Sprintf("Duplicate key name '%s'", key)
		}
	case 1089:
		if strings.HasPrefix(msg, "incorrect prefix key '") {
			return "Incorrect prefix key; the used key part isn't a string, the used length is longer than the key part, or the storage engine doesn't support unique prefix keys"
		}
	case 1071:
		if strings.HasPrefix(msg, "specified key was too long") {
			return "Specified key was too long; max key length is 3072 bytes"
		}
	case 1391:
		if rest, ok := strings.CutPrefix(msg, "key part "); ok {
			return "Key part " + rest
		}
	case mysql.ERTableExists:
		if name, ok := strings.CutPrefix(msg, "table with name "); ok {
			if name, ok := strings.CutSuffix(name, " already exists"); ok {
				return fmt.Sprintf("Table '%s' already exists", name)
			}
		}
	case mysql.ERBadDb:
		if name, ok := strings.CutPrefix(msg, "database not found: "); ok {
			return fmt.Sprintf("Unknown database '%s'", name)
		}
	case mysql.ERNoDb:
		if msg == "no database selected" {
			return "No database selected"
		}
	case erCheckConstraintViolated:
		// The engine's `Check constraint "c" violated`.
		var name string
		if _, err := fmt.Sscanf(msg, "Check constraint %q violated", &name); err == nil {
			return fmt.Sprintf("Check constraint '%s' is violated.", name)
		}
	case mysql.ERBadNullError:
		if rest, ok := strings.CutPrefix(msg, "column name '"); ok {
			if name, ok := strings.CutSuffix(rest, "' is non-nullable but attempted to set a value of null"); ok {
				return fmt.Sprintf("Column '%s' cannot be null", name)
			}
		}
	}
	return msg
}

// engineMessageCode is the MySQL code of an engine error known by its
// text (engineMessages), else code. A Go runtime error the engine's
// handler caught stays code, whatever its text holds ("slice bounds out
// of range" is no out-of-range value).
func engineMessageCode(msg string, code int) int {
	if strings.HasPrefix(msg, "handler caught panic: runtime error") {
		return code
	}
	for _, m := range engineMessages {
		if strings.Contains(msg, m.text) {
			return m.code
		}
	}
	return code
}

// internalError begins the text of the error a panic is answered with,
// which stays ER_UNKNOWN_ERROR whatever the panic's text holds (a Go
// "index out of range" was answered as error 1264, out of range value).
const internalError = "internal error: "

// flattenedSQLError reads back a MySQL error the engine turned into its
// text, "message (errno N) (sqlstate S)", as it does with an error the
// parser returns (one of statementParser's).
func flattenedSQLError(text string) (num int, state, msg string, ok bool) {
	rest, ok := strings.CutSuffix(text, ")")
	if !ok {
		return 0, "", "", false
	}
	rest, state, ok = strings.Cut(rest, " (sqlstate ")
	if !ok || len(state) != 5 {
		return 0, "", "", false
	}
	rest, ok = strings.CutSuffix(rest, ")")
	if !ok {
		return 0, "", "", false
	}
	at := strings.LastIndex(rest, " (errno ")
	if at < 0 {
		return 0, "", "", false
	}
	num, err := strconv.Atoi(rest[at+len(" (errno "):])
	if err != nil {
		return 0, "", "", false
	}
	return num, state, rest[:at], true
}

// errorHandler wraps the engine's wire handler: it maps errors through
// sqlError and turns a panic in any command into an error for that client
// only, logged with its stack.
type errorHandler struct {
	mysql.Handler
	log  *slog.Logger
	fast *fastPath
	prov *Provider
}

// finish ends every command: a database lent for binding a statement goes
// back even when planning failed before the analyzer could return it.
func (h *errorHandler) finish(c *mysql.Conn) {
	if h.prov != nil {
		s := h.prov.session(c.ConnectionID)
		s.afterPlanning(false)
		if s != nil {
			s.crossDBRename, s.renames = false, nil
			s.clientText = "" // not kept alive past its statement
		}
	}
}

// sessionOf is the session of connection c, or nil.
func (h *errorHandler) sessionOf(c *mysql.Conn) *Session {
	if h.prov == nil {
		return nil
	}
	return h.prov.session(c.ConnectionID)
}

// mysqlTexts gives errors that name a foreign key, a table or a procedure
// MySQL's words, which need the server's state (foreignKeyText,
// unknownTableText); sqlError does the rest.
func (h *errorHandler) mysqlTexts(c *mysql.Conn, query string, err *error) {
	if *err == nil || h.prov == nil {
		return
	}
	current := ""
	if s := h.sessionOf(c); s != nil {
		current = s.GetCurrentDatabase()
	}
	h.prov.mysqlTexts(current, query, err)
}

// mysqlTexts gives an error of query, run with current as the current
// database, MySQL's words where they need the server's state.
func (p *Provider) mysqlTexts(current, query string, err *error) {
	p.foreignKeyText(current, err)
	p.unknownTableText(current, query, err)
}

func (h *errorHandler) recovered(err *error) {
	if r := recover(); r != nil {
		h.log.Error("panic while serving a command", "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
		*err = mysql.NewSQLError(mysql.ERUnknownError, "HY000", internalError+"%v", r)
	}
	*err = sqlError(*err)
}

func (h *errorHandler) ComQuery(ctx context.Context, c *mysql.Conn, query string, cb mysql.ResultSpoolFn) (err error) {
	defer h.diagnose(c, &err) // the error as the client gets it
	defer writtenTexts(&err, query)
	defer h.recovered(&err)
	defer h.finish(c)
	defer h.mysqlTexts(c, query, &err) // in the database the statement was bound in
	h.clientSays(c, query)
	reads := h.startDiagnostics(c, query)
	cb = h.flagged(c, cb)
	if reads {
		if res, ok := h.diagnosis(c, query); ok {
			return cb(res, false)
		}
	}
	if h.fast != nil {
		if res, ok := h.fast.try(ctx, c, query, nil); ok {
			return withMySQLFloats(cb)(res, false)
		}
	}
	return h.Handler.ComQuery(ctx, c, query, h.okPacket(c, withMySQLFloats(explainJSONColumn(query, cb))))
}

func (h *errorHandler) ComMultiQuery(ctx context.Context, c *mysql.Conn, query string, cb mysql.ResultSpoolFn) (string, error) {
	switch {
	case h.prov == nil:
	case query == moreResults:
		return h.nextResult(c, nil, cb)
	case callStatement(query):
		return h.call(ctx, c, query, cb)
	}
	return h.query(ctx, c, query, cb)
}

// query runs the first statement of query, or all of it as one statement
// for a client that did not ask for queries of several (callresults.go).
func (h *errorHandler) query(ctx context.Context, c *mysql.Conn, query string, cb mysql.ResultSpoolFn) (rest string, err error) {
	if !clientMultiStatements(c) {
		return "", h.ComQuery(ctx, c, query, cb)
	}
	defer h.diagnose(c, &err) // the error as the client gets it
	defer writtenTexts(&err, query)
	defer h.recovered(&err)
	defer h.finish(c)
	defer h.mysqlTexts(c, query, &err) // in the database the statement was bound in
	h.clientSays(c, query)
	reads := h.startDiagnostics(c, query)
	cb = h.flagged(c, cb)
	if reads {
		if res, ok := h.diagnosis(c, query); ok {
			return "", cb(res, false)
		}
	}
	if h.fast != nil {
		if res, ok := h.fast.try(ctx, c, query, nil); ok {
			return "", withMySQLFloats(cb)(res, false)
		}
	}
	return h.Handler.ComMultiQuery(ctx, c, query, h.okPacket(c, withMySQLFloats(explainJSONColumn(query, cb))))
}

// strayInfoLength: okPacket drops the info text of an OK result
// shorter than 35 bytes. The wire layer writes an OK packet's info after a stray '#'
// byte, which the mariadb client reads as the length of the text, 35:
// the longer texts of UPDATE and friends survive that, but PREPARE's
// "Statement prepared" made it fail with "malformed packet". The info
// is only ever shown to a person.
const strayInfoLength = '#'

// okPacket wraps a result callback, for the results that go out as an
// OK packet, without columns: it drops a short info text (see
// strayInfoLength), and counts no rows affected for a statement whose
// result has no columns but rows, as SET and DO have: the engine counted
// those rows, and took such a statement for a query, so that a client
// saw "1 row affected" and ROW_COUNT() was -1, where MySQL has 0 for
// both. It also sets ROW_COUNT() of CREATE TABLE ... SELECT (tableCopy).
func (h *errorHandler) okPacket(c *mysql.Conn, cb mysql.ResultSpoolFn) mysql.ResultSpoolFn {
	return func(res *sqltypes.Result, more bool) error {
		if res != nil && len(res.Fields) == 0 {
			if res.Info != "" && len(res.Info) < strayInfoLength {
				res.Info = ""
			}
			if len(res.Rows) > 0 {
				res.Rows, res.RowsAffected = nil, 0
				if s := h.sessionOf(c); s != nil {
					s.SetLastQueryInfoInt(sql.RowCount, 0)
				}
			}
			if s := h.sessionOf(c); s != nil && s.copyNoted {
				// CREATE TABLE ... SELECT's rows (tableCopy).
				if s.copied == res.RowsAffected {
					s.SetLastQueryInfoInt(sql.RowCount, int64(s.copied))
				}
				s.copyNoted = false
			}
		}
		return cb(res, more)
	}
}

func (h *errorHandler) ConnectionClosed(c *mysql.Conn) {
	if h.prov != nil {
		h.prov.calls.forget(c.ConnectionID)
		h.prov.locks.release(c.ConnectionID)
		if s := h.prov.session(c.ConnectionID); s != nil {
			h.prov.dropSessionTemporaries(s)
		}
	}
	if h.fast != nil {
		h.fast.p.forgetSession(c.ConnectionID)
	}
	h.Handler.ConnectionClosed(c)
}

func (h *errorHandler) ComPrepare(ctx context.Context, c *mysql.Conn, query string, p *mysql.PrepareData) (f []*querypb.Field, err error) {
	defer h.diagnose(c, &err)
	defer writtenTexts(&err, query)
	defer h.recovered(&err)
	defer h.finish(c)
	defer h.mysqlTexts(c, query, &err) // in the database the statement was bound in
	h.clientSays(c, query)
	h.startDiagnostics(c, query)
	f, err = h.Handler.ComPrepare(ctx, c, query, p)
	timeFieldDecimals(f) // timewire.go
	return f, err
}

func (h *errorHandler) ComStmtExecute(ctx context.Context, c *mysql.Conn, p *mysql.PrepareData, cb func(*sqltypes.Result) error) (err error) {
	defer h.diagnose(c, &err)
	defer writtenTexts(&err, p.PrepareStmt)
	defer h.recovered(&err)
	defer h.finish(c)
	defer h.mysqlTexts(c, p.PrepareStmt, &err)
	cb = withTimeDecimals(cb)
	h.clientSays(c, p.PrepareStmt)
	h.startDiagnostics(c, p.PrepareStmt)
	flagless := cb
	cb = func(res *sqltypes.Result) error {
		h.escapesFlag(c)
		return flagless(res)
	}
	if h.fast != nil {
		if res, ok := h.fast.try(ctx, c, p.PrepareStmt, p.BindVars); ok {
			return cb(res)
		}
	}
	if s := h.sessionOf(c); s != nil {
		s.binaryResults = true
		defer func() { s.binaryResults = false }()
	}
	return h.Handler.ComStmtExecute(ctx, c, p, cb)
}

func (h *errorHandler) ComInitDB(c *mysql.Conn, schema string) (err error) {
	defer h.recovered(&err)
	defer h.mysqlTexts(c, "", &err)
	return h.Handler.ComInitDB(c, schema)
}

func (h *errorHandler) ComResetConnection(c *mysql.Conn) (err error) {
	defer h.recovered(&err)
	defer h.mysqlTexts(c, "", &err)
	return h.Handler.ComResetConnection(c)
}
