package sqlext

import (
	"bufio"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"
	"github.com/shopspring/decimal"
)

// SELECT ... INTO OUTFILE writes each value as the client would receive it
// (a DATETIME as 2024-01-02 03:04:05, an ENUM as its member, a BLOB as
// its bytes) and escapes what LOAD DATA would otherwise misread, as MySQL
// does: the escape character, the enclosing character, the first
// character of either terminator when fields are not enclosed, and NUL.
// The engine wrote Go's text of the values (dates with a time zone, bytes
// as a list of numbers, an ENUM's index) and escaped only the line
// terminator, so what it wrote did not load back. INTO DUMPFILE writes
// the one row's values as they are.

// intoFile runs an INTO OUTFILE or DUMPFILE; nil for INTO variables,
// which the engine runs.
func intoFile(ctx *sql.Context, b sql.NodeExecBuilder, n *plan.Into, row sql.Row) (sql.RowIter, error) {
	name := n.Outfile
	if name == "" {
		name = n.Dumpfile
	}
	if name == "" {
		return nil, nil
	}
	iter, err := b.Build(ctx, n.Child, row)
	if err != nil {
		return nil, err
	}
	defer iter.Close(ctx)
	file, err := createOutput(name)
	if err != nil {
		return nil, err
	}
	// Rows are written as they come; a statement that fails leaves no
	// file behind.
	count, err := writeRows(ctx, bufio.NewWriter(file), n, iter)
	if err = errors.Join(err, file.Close()); err != nil {
		os.Remove(file.Name())
		return nil, err
	}
	return sql.RowsToRowIter(sql.Row{types.NewOkResult(count)}), nil
}

// writeRows writes iter's rows to w in n's layout and flushes it; a
// DUMPFILE takes one row, its values as they are.
func writeRows(ctx *sql.Context, w *bufio.Writer, n *plan.Into, iter sql.RowIter) (int, error) {
	sch := n.Child.Schema()
	out := outfileFormat{n: n}
	count := 0
	for {
		r, err := iter.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			return count, err
		}
		if count++; n.Dumpfile == "" {
			if err := out.line(ctx, w, sch, r); err != nil {
				return count, err
			}
			continue
		}
		if count > 1 {
			return count, mysql.NewSQLError(mysql.ERTooManyRows, "42000", "Result consisted of more than one row")
		}
		for i, v := range r {
			text, _, err := wireText(ctx, sch[i].Type, v)
			if err != nil {
				return count, err
			}
			w.Write(text)
		}
	}
	return count, w.Flush()
}

// createOutput creates a new file under the import directory, which a
// relative name is taken from; an existing file is MySQL's error 1086.
func createOutput(name string) (*os.File, error) {
	_, dir, _ := sql.SystemVariables.GetGlobal("secure_file_priv")
	root, ok := dir.(string)
	if !ok || root == "" {
		return nil, fileAccessOff("SELECT ... INTO OUTFILE")
	}
	if !filepath.IsAbs(name) {
		name = filepath.Join(root, name)
	}
	if !underDir(root, filepath.Dir(name)) {
		return nil, sql.ErrSecureFilePriv.New()
	}
	file, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, os.ErrExist) {
		return nil, mysql.NewSQLError(1086, "HY000", "File '%s' already exists", name)
	}
	return file, err
}

// wireText is v as MySQL writes it in a text result, and whether it is
// NULL.
func wireText(ctx *sql.Context, t sql.Type, v any) ([]byte, bool, error) {
	switch f := v.(type) {
	case nil:
		return nil, true, nil
	case float64:
		return []byte(mysqlFloatText(f, 64)), false, nil
	case float32:
		return []byte(mysqlFloatText(float64(f), 32)), false, nil
	}
	s, err := typedText(ctx, t, v)
	return []byte(s), false, err
}

// outfileFormat writes rows in an INTO OUTFILE's FIELDS and LINES layout.
type outfileFormat struct{ n *plan.Into }

func (f outfileFormat) line(ctx *sql.Context, w *bufio.Writer, sch sql.Schema, r sql.Row) error {
	n := f.n
	w.WriteString(n.LinesStartingBy)
	for i, v := range r {
		if i > 0 {
			w.WriteString(n.FieldsTerminatedBy)
		}
		text, null, err := wireText(ctx, sch[i].Type, v)
		if err != nil {
			return err
		}
		if null {
			if n.FieldsEscapedBy == "" {
				w.WriteString("NULL")
			} else {
				w.WriteString(n.FieldsEscapedBy + "N")
			}
			continue
		}
		enclose := n.FieldsEnclosedBy != "" && (!n.FieldsEnclosedByOpt || !isNumeric(sch[i].Type, v))
		if enclose {
			w.WriteString(n.FieldsEnclosedBy)
		}
		f.escaped(w, text)
		if enclose {
			w.WriteString(n.FieldsEnclosedBy)
		}
	}
	_, err := w.WriteString(n.LinesTerminatedBy)
	return err
}

// escaped writes text with the escape character before each character
// LOAD DATA would otherwise read as part of the layout.
func (f outfileFormat) escaped(w *bufio.Writer, text []byte) {
	n := f.n
	if n.FieldsEscapedBy == "" {
		w.Write(text)
		return
	}
	special := n.FieldsEscapedBy + n.FieldsEnclosedBy
	if n.FieldsEnclosedBy == "" {
		// Only bare fields can end at a terminator.
		special += n.FieldsTerminatedBy[:min(1, len(n.FieldsTerminatedBy))] + n.LinesTerminatedBy[:min(1, len(n.LinesTerminatedBy))]
	}
	for _, c := range text {
		switch {
		case c == 0:
			w.WriteString(n.FieldsEscapedBy + "0")
		case strings.IndexByte(special, c) >= 0:
			w.WriteString(n.FieldsEscapedBy)
			w.WriteByte(c)
		default:
			w.WriteByte(c)
		}
	}
}

// isNumeric says whether a value is a number, which OPTIONALLY ENCLOSED
// BY leaves bare; MySQL encloses every other value (text, dates, ENUM,
// JSON), as their results are strings.
func isNumeric(t sql.Type, v any) bool {
	if types.IsNumber(t) {
		return true
	}
	switch v.(type) {
	case int8, int16, int32, int64, uint8, uint16, uint32, uint64, float32, float64, decimal.Decimal:
		return true
	}
	return false
}
