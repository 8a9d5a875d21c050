package sqlext

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"
	"testing"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/vitess/go/mysql"

	"github.com/sqlearn/sqlearn/storage"
)

// panicky is a wire handler whose every query panics.
type panicky struct{ mysql.Handler }

func (panicky) ComQuery(context.Context, *mysql.Conn, string, mysql.ResultSpoolFn) error {
	panic("boom")
}

func TestPanicBecomesAnError(t *testing.T) {
	var logged strings.Builder
	h := &errorHandler{Handler: panicky{}, log: slog.New(slog.NewTextHandler(&logged, nil))}
	err := h.ComQuery(context.Background(), nil, "SELECT 1", nil)
	var se *mysql.SQLError
	if !errors.As(err, &se) || se.Num != mysql.ERUnknownError || !strings.Contains(se.Message, "internal error: boom") {
		t.Fatalf("got %v", err)
	}
	if !strings.Contains(logged.String(), "panic while serving a command") {
		t.Fatalf("panic not logged: %s", logged.String())
	}
}

func TestErrorCodes(t *testing.T) {
	cases := []struct {
		err   error
		code  int
		state string
	}{
		{translate(&storage.DuplicateError{Index: "PRIMARY", Key: "1"}), mysql.ERDupEntry, "23000"},
		{translate(storage.ErrConflict), mysql.ERLockDeadlock, "40001"},
		{sql.ErrTableNotFound.New("t"), mysql.ERNoSuchTable, "42S02"},
		{sql.ErrDatabaseNotFound.New("d"), mysql.ERBadDb, "42000"},
		{errors.New("syntax error at position 3 near 'x'"), mysql.ERParseError, "42000"},
		{sql.ErrInvalidSystemVariableValue.New("la_iteration_mode", "fast"), mysql.ERWrongValueForVar, "42000"},
		{errors.New("handler caught panic: Cannot create a Decimal from +Inf"), mysql.ERWarnDataOutOfRange, "22003"},
		{errors.New(`Check constraint "pos" violated`), 3819, "HY000"},
		{sql.ErrUnknownConstraint.New("c"), 3940, "HY000"},
		{errors.New("Operation CREATE USER failed for 'al'@'%'"), 1396, "HY000"},
		{errors.New("You are not allowed to create a user with GRANT"), 1410, "42000"},
		{errors.New("local_infile needs to be set to 1 to use LOCAL"), 3948, "42000"},
		{io.ErrUnexpectedEOF, mysql.ERUnknownError, "HY000"},
		{errors.New("handler caught panic: runtime error: slice bounds out of range [:2] with capacity 1"), mysql.ERUnknownError, "HY000"},
	}
	for _, c := range cases {
		var se *mysql.SQLError
		if !errors.As(sqlError(c.err), &se) || se.Num != c.code || se.State != c.state {
			t.Errorf("%v: got %v (%s)", c.err, se, se.State)
		}
	}
	// A row a CHECK refuses, in MySQL's words.
	var se *mysql.SQLError
	if !errors.As(sqlError(errors.New(`Check constraint "pos" violated`)), &se) || se.Message != "Check constraint 'pos' is violated." {
		t.Errorf("check violated: got %v", se)
	}
	// A row where one value is wanted, in MySQL's words.
	if !errors.As(sqlError(sql.ErrInvalidOperandColumns.New(1, 3)), &se) || se.Num != 1241 || se.State != "21000" || se.Message != "Operand should contain 1 column(s)" {
		t.Errorf("operand columns: got %v (%s)", se, se.State)
	}
}
