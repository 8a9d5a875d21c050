package sqlext

import (
	"bufio"
	"strings"
	"testing"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/sqltypes"
)

// readAll splits input as LOAD DATA with format f would, writing each
// line's fields joined by | and NULL as <null>.
func readAll(t *testing.T, f loadFormat, input string) string {
	t.Helper()
	r := &loadReader{r: bufio.NewReaderSize(strings.NewReader(input), 16), f: f}
	var lines []string
	for {
		fields, ok, err := r.next()
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			return strings.Join(lines, "\n")
		}
		var out []string
		for _, f := range fields {
			if f.null {
				out = append(out, "<null>")
			} else {
				out = append(out, f.text)
			}
		}
		lines = append(lines, strings.Join(out, "|"))
	}
}

// TestLoadReader: fields and lines split as MySQL's LOAD DATA reads them.
func TestLoadReader(t *testing.T) {
	tab := loadFormat{fieldTerm: "\t", lineTerm: "\n", escape: '\\', hasEscape: true} // the defaults
	csv := loadFormat{fieldTerm: ",", lineTerm: "\n", enclose: '"', hasEnclose: true, escape: '\\', hasEscape: true}
	for _, c := range []struct {
		name  string
		f     loadFormat
		input string
		want  string
	}{
		{"defaults", tab, "1\ta b\n2\t\n", "1|a b\n2|"},
		{"no final terminator", tab, "1\tx\n2\ty", "1|x\n2|y"},
		{"escapes", tab, `a\tb\nc\\d\0\Ze\q` + "\n", "a\tb\nc\\d\x00\x1ae" + "q"},
		{"escaped terminators", tab, "a\\\tb\tc\\\nd\n", "a\tb|c\nd"},
		{"\\N alone is NULL", tab, `\N` + "\t" + `x\N` + "\t" + `\NN` + "\tNULL\n", "<null>|xN|NN|NULL"},
		{"enclosed", csv, `"a,b","c""d",e` + "\n", `a,b|c"d|e`},
		{"optionally enclosed and bare", csv, `1,"two",3` + "\n", "1|two|3"},
		{"a line terminator inside quotes", csv, "\"x\ny\",z\nnext\n", "x\ny|z\nnext"},
		{"bare NULL when enclosing", csv, `NULL,"NULL",\N,""` + "\n", "<null>|NULL|<null>|"},
		{"a quote inside a bare field", csv, `ab"c,d` + "\n", `ab"c|d`},
		{"a quote not before a terminator", csv, `"a"b",c` + "\n", `a"b|c`},
		{"end of input inside quotes", csv, `1,"open`, "1|open"},
		{"escape inside quotes", csv, `"a\"b\n"` + "\n", "a\"b\n"},
		{"no escape", loadFormat{fieldTerm: ",", lineTerm: "\n"}, `a\b,NULL` + "\n", `a\b|<null>`},
		{"long terminators", loadFormat{fieldTerm: "||", lineTerm: "\r\n"}, "a|b||c\r\nd||\r\n", "a|b|c\nd|"},
		{"lines starting by", loadFormat{fieldTerm: ",", lineTerm: "\n", lineStart: "xx"}, "skip me\nfooxx1,2\nxx3,4\n", "1|2\n3|4"},
		{"escape at the end of the input", tab, `a\`, `a\`},
		{"escape at the end inside quotes", csv, `"a\`, `a\`},
		{"a line terminator that begins like the field one", loadFormat{fieldTerm: ",", lineTerm: ",\n"}, "a,b,\nc,d,\n", "a|b\nc|d"},
		{"empty input", csv, "", ""},
		{"empty lines", tab, "\n\n", "\n"},
	} {
		if got := readAll(t, c.f, c.input); got != c.want {
			t.Errorf("%s: read %q, want %q", c.name, got, c.want)
		}
	}
}

// FuzzLoadReader: any input in any layout is read to its end without a
// panic, and no field holds more than the input did.
func FuzzLoadReader(f *testing.F) {
	f.Add("1,\"a,b\"\n2,\\N\n", ",", "\n", "", byte('"'), byte('\\'))
	f.Add("xx1||2\r\nskip\r\nxx3||\"4\r\n", "||", "\r\n", "xx", byte('"'), byte(0))
	f.Add("\"\"\"\t\\", "\t", "\n", "", byte('"'), byte('\\'))
	f.Fuzz(func(t *testing.T, input, fieldTerm, lineTerm, lineStart string, enclose, escape byte) {
		if fieldTerm == "" || lineTerm == "" {
			return
		}
		lf := loadFormat{fieldTerm: fieldTerm, lineTerm: lineTerm, lineStart: lineStart,
			enclose: enclose, hasEnclose: enclose != 0, escape: escape, hasEscape: escape != 0}
		r := &loadReader{r: bufio.NewReaderSize(strings.NewReader(input), 16), f: lf}
		for lines := 0; ; lines++ {
			fields, ok, err := r.next()
			if err != nil {
				t.Fatal(err)
			}
			if !ok {
				return
			}
			if lines > len(input) {
				t.Fatalf("%d lines from %d bytes", lines, len(input))
			}
			n := 0
			for _, f := range fields {
				n += len(f.text)
			}
			if n > len(input) {
				t.Fatalf("fields of %d bytes from %d", n, len(input))
			}
		}
	})
}

// TestPlainDate: the quick read of plain DATE and DATETIME text gives the
// engine's value wherever it answers, and leaves everything else (bad
// dates, other layouts, other types) to the engine.
func TestPlainDate(t *testing.T) {
	ctx := sql.NewEmptyContext()
	dt := types.MustCreateDatetimeType(sqltypes.Datetime, 0)
	for _, c := range []struct {
		typ  sql.Type
		text string
		read bool
	}{
		{types.Date, "2024-03-04", true},
		{types.Date, "2024-02-29", true},
		{types.Date, "1000-01-01", true},
		{types.Date, "9999-12-31", true},
		{types.Date, "2023-02-29", false},
		{types.Date, "2024-04-31", false},
		{types.Date, "2024-13-01", false},
		{types.Date, "2024-00-10", false},
		{types.Date, "0000-00-00", false},
		{types.Date, "0999-01-01", false},
		{types.Date, "2024/03/04", false},
		{types.Date, "2024-3-4", false},
		{types.Date, "20240304", false},
		{types.Date, "2024-03-04 10:11:12", false}, // MySQL truncates with a note
		{dt, "2024-03-04", true},
		{dt, "2024-03-04 23:59:59", true},
		{dt, "2024-03-04 24:00:00", false},
		{dt, "2024-03-04T10:11:12", false},
		{dt, "2024-03-04 10:11:12.5", false},
		{types.Timestamp, "2024-03-04", false},
		{types.LongText, "2024-03-04", false},
	} {
		got, ok := plainDate(c.typ, c.text)
		if ok != c.read {
			t.Errorf("%s %q: read %v, want %v", c.typ, c.text, ok, c.read)
			continue
		}
		if !ok {
			continue
		}
		want, _, err := c.typ.Convert(ctx, c.text)
		if err != nil {
			t.Errorf("%s %q: engine: %v", c.typ, c.text, err)
			continue
		}
		if conv, _, _ := c.typ.Convert(ctx, got); conv != want {
			t.Errorf("%s %q: %v, the engine reads %v", c.typ, c.text, conv, want)
		}
	}
}
