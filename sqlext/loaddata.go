package sqlext

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/sqltypes"
)

// LOAD DATA reads its input as MySQL does: a field enclosed in the
// ENCLOSED BY character may hold the field and line terminators and a
// doubled enclosing character, OPTIONALLY enclosed fields may be bare,
// the ESCAPED BY character introduces \0 \b \n \r \t \Z and \N (NULL) and
// takes any other character literally, and a bare NULL reads as NULL when
// fields may be enclosed. The engine split each line at every field
// terminator, even inside quotes, refused a bare field when ENCLOSED BY
// was given, and dropped escape characters without reading what they
// escaped. An empty field is the empty string, which an integer or
// DECIMAL column refuses in strict mode (the engine stored 0, or the
// column's default). What a row's fields become otherwise (columns, user
// variables, SET, a column's default for a missing field) is as the
// engine had it.

// loadData builds LOAD DATA's rows; an INSERT above it writes them.
func loadData(ctx *sql.Context, n *plan.LoadData) (sql.RowIter, error) {
	in, err := openLoadInput(ctx, n)
	if err != nil {
		return nil, err
	}
	f := loadFormat{fieldTerm: n.FieldsTerminatedBy, lineTerm: n.LinesTerminatedBy, lineStart: n.LinesStartingBy}
	if n.FieldsEnclosedBy != "" {
		f.enclose, f.hasEnclose = n.FieldsEnclosedBy[0], true
	}
	if n.FieldsEscapedBy != "" {
		f.escape, f.hasEscape = n.FieldsEscapedBy[0], true
	}
	if f.fieldTerm == "" || f.lineTerm == "" {
		in.Close()
		return nil, sql.ErrUnsupportedFeature.New("LOAD DATA with an empty FIELDS or LINES TERMINATED BY")
	}
	names := n.ColNames
	if len(names) == 0 {
		for _, c := range n.DestSch {
			names = append(names, c.Name)
		}
	}
	// Each field goes to a column, in the order the statement lists
	// them, or to a user variable (-1).
	toCol := make([]int, len(n.UserVars))
	for field, next := 0, 0; field < len(n.UserVars) && next < len(names); field++ {
		if n.UserVars[field] != nil {
			toCol[field] = -1
			continue
		}
		if toCol[field] = n.DestSch.IndexOf(names[next], n.DestSch[0].Source); toCol[field] < 0 {
			in.Close()
			return nil, sql.ErrTableColumnNotFound.New(n.DestSch[0].Source, names[next])
		}
		next++
	}
	// The fields as a row, for user variables and SET, only when the
	// statement has either.
	evals := slices.ContainsFunc(n.UserVars, func(e sql.Expression) bool { return e != nil }) ||
		slices.ContainsFunc(n.SetExprs, func(e sql.Expression) bool { return e != nil })
	return &loadDataRows{n: n, in: in, r: &loadReader{r: bufio.NewReaderSize(in, 1<<16), f: f}, toCol: toCol, skip: n.IgnoreNum, evals: evals}, nil
}

// openLoadInput opens the client's file (LOCAL, when local_infile is ON)
// or one under the import directory, which a relative name is read from.
func openLoadInput(ctx *sql.Context, n *plan.LoadData) (io.ReadCloser, error) {
	if n.Local {
		if _, on, _ := sql.SystemVariables.GetGlobal("local_infile"); on != int8(1) {
			return nil, fmt.Errorf("local_infile needs to be set to 1 to use LOCAL")
		}
		return ctx.LoadInfile(n.File)
	}
	_, dir, _ := sql.SystemVariables.GetGlobal("secure_file_priv")
	root, ok := dir.(string)
	if !ok || root == "" {
		return nil, fileAccessOff("LOAD DATA INFILE")
	}
	name := n.File
	if !filepath.IsAbs(name) {
		name = filepath.Join(root, name)
	}
	if !underDir(root, name) {
		return nil, sql.ErrSecureFilePriv.New()
	}
	file, err := os.Open(name)
	if err != nil {
		return nil, sql.ErrLoadDataCannotOpen.New(err.Error())
	}
	return file, nil
}

// underDir reports whether name, with its links followed, is inside dir.
func underDir(dir, name string) bool {
	d, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return false
	}
	f, err := filepath.EvalSymlinks(name)
	if err != nil {
		return false
	}
	rel, err := filepath.Rel(d, f)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// loadDataRows turns each line of the input into a row of the columns
// LOAD DATA names (all of the table's, in order, when it names none).
type loadDataRows struct {
	n     *plan.LoadData
	in    io.ReadCloser
	r     *loadReader
	toCol []int
	skip  int64
	row   int // the rows read so far, as MySQL's messages count them

	evals bool    // the statement has user variables or SET
	raw   sql.Row // scratch for each line, when evals
	given []bool
}

func (l *loadDataRows) Next(ctx *sql.Context) (sql.Row, error) {
	for ; l.skip > 0; l.skip-- {
		if _, ok, err := l.r.next(); err != nil || !ok {
			return nil, firstErr(err, io.EOF)
		}
	}
	fields, ok, err := l.r.next()
	if err != nil || !ok {
		return nil, firstErr(err, io.EOF)
	}
	l.row++
	// The fields as the statement's user variables and SET see them.
	raw := l.raw[:0]
	if l.evals {
		for _, f := range fields {
			if f.null {
				raw = append(raw, nil)
			} else {
				raw = append(raw, f.text)
			}
		}
		l.raw = raw
	}
	// row[at] is the value of the at-th column the statement fills;
	// given[at] says it has one, else its column's default fills it.
	row := make(sql.Row, len(l.n.DestSch))
	if cap(l.given) < len(row) {
		l.given = make([]bool, len(row))
	}
	given := l.given[:len(row)]
	clear(given)
	at := 0
	for i := 0; i < len(fields) && i < len(l.n.UserVars); i++ {
		if set, ok := l.n.UserVars[i].(*expression.SetField); ok {
			if v, ok := set.LeftChild.(*expression.UserVar); ok {
				val, err := set.RightChild.Eval(ctx, raw)
				if err != nil {
					return nil, err
				}
				if err := ctx.SetUserVariable(ctx, v.Name, val, types.ApproximateTypeFromValue(val)); err != nil {
					return nil, err
				}
			}
			continue
		}
		if at >= len(row) {
			continue
		}
		given[at] = true
		switch col := l.n.DestSch[l.toCol[i]]; {
		case fields[i].null:
		case fields[i].text == "" && (types.IsInteger(col.Type) || types.IsDecimal(col.Type)):
			// The engine reads '' as 0 for these without a word; MySQL
			// refuses it in strict mode and warns otherwise.
			v, err := blankNumber(ctx, "", col.Name, numberKind(col.Type), int64(l.row), l.n.IsIgnore)
			if err != nil {
				return nil, err
			}
			row[at] = v
		default:
			row[at] = fields[i].text
			if d, ok := plainDate(col.Type, fields[i].text); ok {
				row[at] = d
			}
		}
		at++
	}
	if l.n.SetExprs != nil {
		at := 0
		for _, c := range l.toCol {
			if c < 0 {
				continue
			}
			if at >= len(row) {
				break
			}
			if set := l.n.SetExprs[c]; set != nil {
				v, err := set.Eval(ctx, raw)
				if err != nil {
					return nil, err
				}
				row[at], given[at] = v, true
			}
			at++
		}
	}
	if len(l.n.ColNames) > 0 {
		// The INSERT above fills the defaults of the columns the
		// statement does not name.
		return row, nil
	}
	// Without a column list the INSERT above fills no defaults, so a
	// missing field takes its column's here; one computed from other
	// columns waits for them.
	var later []int
	for i, ok := range given {
		if ok {
			continue
		}
		col := l.n.DestSch[i]
		if !col.Nullable && col.Default == nil && !col.AutoIncrement {
			return nil, sql.ErrInsertIntoNonNullableDefaultNullColumn.New(col.Name)
		}
		if col.Default == nil {
			continue
		}
		if !col.Default.IsLiteral() {
			later = append(later, i)
			continue
		}
		if row[i], err = col.Default.Eval(ctx, row); err != nil {
			return nil, err
		}
	}
	for _, i := range later {
		if row[i], err = l.n.DestSch[i].Default.Eval(ctx, row); err != nil {
			return nil, err
		}
	}
	return row, nil
}

// plainDate reads the text of a DATE or DATETIME field that is exactly
// YYYY-MM-DD (or, for DATETIME, YYYY-MM-DD hh:mm:ss) and a valid date in
// MySQL's range, which most files hold, without the engine's parse, which
// tries its layouts one by one and builds an error for each that fails.
// Any other text is left to the engine.
func plainDate(t sql.Type, s string) (time.Time, bool) {
	if len(s) != 10 && len(s) != 19 {
		return time.Time{}, false
	}
	switch t.Type() {
	case sqltypes.Date:
		if len(s) != 10 {
			return time.Time{}, false
		}
	case sqltypes.Datetime:
	default:
		return time.Time{}, false
	}
	num := func(from, to int) int {
		n := 0
		for i := from; i < to; i++ {
			c := s[i]
			if c < '0' || c > '9' {
				return -1
			}
			n = n*10 + int(c-'0')
		}
		return n
	}
	y, m, d := num(0, 4), num(5, 7), num(8, 10)
	if s[4] != '-' || s[7] != '-' || y < 1000 || m < 1 || m > 12 || d < 1 {
		return time.Time{}, false
	}
	if d > daysIn(y, m) {
		return time.Time{}, false
	}
	hh, mm, ss := 0, 0, 0
	if len(s) == 19 {
		hh, mm, ss = num(11, 13), num(14, 16), num(17, 19)
		if s[10] != ' ' || s[13] != ':' || s[16] != ':' || hh < 0 || hh > 23 || mm < 0 || mm > 59 || ss < 0 || ss > 59 {
			return time.Time{}, false
		}
	}
	return time.Date(y, time.Month(m), d, hh, mm, ss, 0, time.UTC), true
}

func (l *loadDataRows) Close(*sql.Context) error { return l.in.Close() }

func firstErr(err, otherwise error) error {
	if err != nil {
		return err
	}
	return otherwise
}

// loadFormat is the layout LOAD DATA's FIELDS and LINES clauses give.
type loadFormat struct {
	fieldTerm, lineTerm, lineStart string
	enclose, escape                byte
	hasEnclose, hasEscape          bool
}

// loadField is one field: its text, or NULL.
type loadField struct {
	text string
	null bool
}

// loadReader reads LOAD DATA input line by line, as MySQL splits it.
// Runs of ordinary bytes are copied from the buffered input at once; only
// a byte that may begin a terminator, an escape or an enclosing character
// is looked at on its own.
type loadReader struct {
	r *bufio.Reader
	f loadFormat

	// line holds the current line's fields, unescaped, one after the
	// other; spans marks where each ends and whether it is NULL. A line
	// becomes one string that its fields are cut from.
	line   []byte
	spans  []loadSpan
	fields []loadField
	// bare and quoted flag the bytes a bare and an enclosed field must
	// stop at.
	bare, quoted *[256]bool
}

type loadSpan struct {
	end  int
	null bool
}

// at reports whether the input continues with s, without reading it.
func (l *loadReader) at(s string) bool {
	b, _ := l.r.Peek(len(s))
	return len(b) == len(s) && string(b) == s
}

// terminator is the length of the field or line terminator the input
// continues with (0 for neither), and whether it ends the line. Of two
// that both match (a line terminator ",\n" after fields ended by ","),
// the longer wins.
func (l *loadReader) terminator() (n int, line bool) {
	field, lineTerm := l.f.fieldTerm, l.f.lineTerm
	if len(lineTerm) >= len(field) && l.at(lineTerm) {
		return len(lineTerm), true
	}
	if l.at(field) {
		return len(field), false
	}
	if l.at(lineTerm) {
		return len(lineTerm), true
	}
	return 0, false
}

// plain copies the ordinary bytes the input continues with into the line,
// up to the next byte stop flags; copied says whether there were any.
func (l *loadReader) plain(stop *[256]bool) (copied bool, err error) {
	for {
		n := max(l.r.Buffered(), 1)
		chunk, err := l.r.Peek(n)
		if len(chunk) == 0 {
			return copied, err
		}
		i := 0
		for i < len(chunk) && !stop[chunk[i]] {
			i++
		}
		l.line = append(l.line, chunk[:i]...)
		l.r.Discard(i)
		copied = copied || i > 0
		if i < len(chunk) {
			return copied, nil
		}
	}
}

func (l *loadReader) stops() {
	if l.bare != nil {
		return
	}
	l.bare, l.quoted = new([256]bool), new([256]bool)
	l.bare[l.f.fieldTerm[0]], l.bare[l.f.lineTerm[0]] = true, true
	if l.f.hasEscape {
		l.bare[l.f.escape], l.quoted[l.f.escape] = true, true
	}
	if l.f.hasEnclose {
		l.quoted[l.f.enclose] = true
	}
}

// next reads a line's fields; ok is false at the end of the input. The
// fields are valid until the next call.
func (l *loadReader) next() (fields []loadField, ok bool, err error) {
	l.stops()
	if _, err := l.r.Peek(1); err != nil {
		return nil, false, eofIsNil(err)
	}
	if l.f.lineStart != "" {
		// A line without the prefix is skipped; text before it is not
		// part of the line.
		for !l.at(l.f.lineStart) {
			if l.at(l.f.lineTerm) {
				l.r.Discard(len(l.f.lineTerm))
			} else if _, err := l.r.ReadByte(); err != nil {
				return nil, false, eofIsNil(err)
			}
		}
		l.r.Discard(len(l.f.lineStart))
	}
	l.line, l.spans = l.line[:0], l.spans[:0]
	for {
		null, lineEnd, err := l.field()
		if err != nil {
			return nil, false, err
		}
		l.spans = append(l.spans, loadSpan{end: len(l.line), null: null})
		if lineEnd {
			break
		}
	}
	text := string(l.line)
	l.fields = l.fields[:0]
	from := 0
	for _, s := range l.spans {
		l.fields = append(l.fields, loadField{text: text[from:s.end], null: s.null})
		from = s.end
	}
	return l.fields, true, nil
}

// field reads one field into the line and the terminator after it;
// lineEnd says the terminator ended the line (or the input ended).
func (l *loadReader) field() (null, lineEnd bool, err error) {
	start := len(l.line)
	if l.f.hasEnclose {
		if b, err := l.r.Peek(1); err == nil && b[0] == l.f.enclose {
			l.r.Discard(1)
			lineEnd, err := l.enclosed()
			return false, lineEnd, err
		}
	}
	escapedN := false // the field is the escape sequence \N alone
	for {
		copied, err := l.plain(l.bare)
		if err == io.EOF {
			lineEnd = true
			break
		}
		if err != nil {
			return false, false, err
		}
		if copied {
			escapedN = false
		}
		if term, line := l.terminator(); term > 0 {
			l.r.Discard(term)
			lineEnd = line
			break
		}
		b, err := l.r.ReadByte()
		if err != nil {
			return false, false, err
		}
		if !l.f.hasEscape || b != l.f.escape {
			escapedN = false
			l.line = append(l.line, b)
			continue
		}
		first := len(l.line) == start
		c, err := l.afterEscape(b)
		if err != nil {
			return false, false, err
		}
		escapedN = first && c == 'N'
	}
	text := l.line[start:]
	null = escapedN && string(text) == "N" || (l.f.hasEnclose || !l.f.hasEscape) && string(text) == "NULL"
	return null, lineEnd, nil
}

// enclosed reads the rest of a field after its opening enclosing
// character: up to the closing one that a terminator, or the end of the
// input, follows. A doubled enclosing character stands for one; one
// followed by anything else is kept as text.
func (l *loadReader) enclosed() (lineEnd bool, err error) {
	for {
		if _, err := l.plain(l.quoted); err == io.EOF {
			return true, nil
		} else if err != nil {
			return false, err
		}
		b, err := l.r.ReadByte()
		if err != nil {
			return false, err
		}
		switch {
		case l.f.hasEscape && b == l.f.escape:
			if _, err := l.afterEscape(b); err != nil {
				return false, err
			}
		case b == l.f.enclose:
			if next, err := l.r.Peek(1); err == nil && next[0] == l.f.enclose {
				l.r.Discard(1)
				l.line = append(l.line, b)
				continue
			}
			if term, line := l.terminator(); term > 0 {
				l.r.Discard(term)
				return line, nil
			}
			if _, err := l.r.Peek(1); err == io.EOF {
				return true, nil
			}
			l.line = append(l.line, b)
		default:
			l.line = append(l.line, b)
		}
	}
}

// afterEscape reads the character after the escape character esc and
// adds what the pair stands for to the field; c is the character read, 0
// at the end of the input, where esc stands for itself.
func (l *loadReader) afterEscape(esc byte) (c byte, err error) {
	c, err = l.r.ReadByte()
	if err == io.EOF {
		l.line = append(l.line, esc)
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	l.line = append(l.line, unescape(c))
	return c, nil
}

// unescape is the character the escape character followed by c stands
// for.
func unescape(c byte) byte {
	if i := bytes.IndexByte([]byte("0bnrtZ"), c); i >= 0 {
		return "\x00\b\n\r\t\x1a"[i]
	}
	return c
}

func eofIsNil(err error) error {
	if err == io.EOF {
		return nil
	}
	return err
}
