package udf

import (
	"errors"
	"regexp"

	"github.com/dolthub/go-mysql-server/sql"

	"github.com/dolthub/vitess/go/mysql"

	"github.com/sqlearn/sqlearn/gpu"
	"github.com/sqlearn/sqlearn/matrix"
)

// Errors raised by this package before the matrix package is involved,
// wrapped with detail; sqlError turns them into MySQL errors.
var (
	ErrArgument      = errors.New("udf: invalid argument")
	ErrArgumentCount = errors.New("udf: wrong argument count")
	ErrNotMatrix     = errors.New("udf: not a matrix")
	ErrNotVector     = errors.New("udf: not a vector")
	ErrNullValue     = errors.New("udf: NULL value")
	ErrImport        = errors.New("udf: file import refused")
	// ErrConflict is a write by another session that the call ran into;
	// calling again can succeed, so it takes MySQL's retryable code.
	ErrConflict = errors.New("udf: conflicting write")
)

// MySQL codes used for our errors. ER_WRONG_ARGUMENTS is what MySQL's own
// functions raise for bad argument values (e.g. ST_* and JSON functions).
const (
	codeWrongArguments = 1210 // ER_WRONG_ARGUMENTS
	codeParamCount     = 1582 // ER_WRONG_PARAMCOUNT_TO_NATIVE_FCT
	codeFileAccess     = 1290 // ER_OPTION_PREVENTS_STATEMENT (secure_file_priv)
	codeTooBig         = 1301 // ER_WARN_ALLOWED_PACKET_OVERFLOWED: a result over the size limit
)

// sqlError is the translation point: an error from a function or procedure
// named fn becomes a MySQL error whose message starts with the function's
// name. Errors that already carry a MySQL code (from the engine, when a
// procedure ran SQL) pass through.
func sqlError(fn string, err error) error {
	if err == nil {
		return nil
	}
	var se *mysql.SQLError
	if errors.As(err, &se) {
		return err
	}
	// Package prefixes help a Go caller; a SQL user wants the function.
	msg := fn + ": " + packagePrefix.ReplaceAllString(err.Error(), "$1")
	switch {
	case errors.Is(err, ErrArgumentCount):
		return mysql.NewSQLError(codeParamCount, "42000", "%s", msg)
	case errors.Is(err, ErrConflict):
		return mysql.NewSQLError(mysql.ERLockDeadlock, "40001", "%s", msg)
	case errors.Is(err, ErrImport):
		return mysql.NewSQLError(codeFileAccess, "HY000", "%s", msg)
	case errors.Is(err, matrix.ErrTooLarge):
		return mysql.NewSQLError(codeTooBig, "HY000", "%s", msg)
	case errors.Is(err, gpu.ErrNoGPU):
		// @@ml_device asks for a GPU the server lacks: the SET would
		// have been refused with this code.
		return mysql.NewSQLError(mysql.ERWrongValueForVar, "42000", "%s", msg)
	case sql.ErrTableAlreadyExists.Is(err):
		return mysql.NewSQLError(mysql.ERTableExists, "42S01", "%s", msg)
	case sql.ErrPrivilegeCheckFailed.Is(err), sql.ErrTableAccessDeniedForUser.Is(err):
		// A table the caller may not read or write: MySQL's
		// ER_TABLEACCESS_DENIED_ERROR, as the statement itself would get.
		return mysql.NewSQLError(1142, "42000", "%s", msg)
	case sql.ErrDatabaseAccessDeniedForUser.Is(err):
		return mysql.NewSQLError(mysql.ERDBAccessDenied, "42000", "%s", msg)
	}
	// Errors of statements run on the caller's behalf (a missing table,
	// one that already exists, a denied privilege) keep the engine's code.
	if se := sql.CastSQLError(err); se.Num != mysql.ERUnknownError {
		return mysql.NewSQLError(se.Num, se.State, "%s", msg)
	}
	// Shape mismatches, singular and non-square inputs, bad JSON, corrupt
	// blobs, bad Matrix Market files, NULLs inside a query result: all are
	// bad argument values.
	return mysql.NewSQLError(codeWrongArguments, "HY000", "%s", msg)
}

var packagePrefix = regexp.MustCompile(`(^|: )(matrix|udf|storage|optimizer|lang|gpu): `)

// argCountError reports a call with the wrong number of arguments the way
// MySQL does for its native functions.
func argCountError(fn string, got int) error {
	return mysql.NewSQLError(codeParamCount, "42000", "Incorrect parameter count in the call to native function '%s' (got %d)", fn, got)
}
