package sqlext

import (
	"bytes"
	"math"
	"strconv"
	"strings"

	"github.com/dolthub/vitess/go/mysql"
	"github.com/dolthub/vitess/go/sqltypes"
	querypb "github.com/dolthub/vitess/go/vt/proto/query"
)

// The engine writes a DOUBLE or FLOAT into a text result as Go's %g
// does: 1500000 became "1.5e+06" and 1e-7 "1e-07", which the mariadb
// client and BI tools then showed as they came. MySQL writes the
// shortest digits that read back as the value (for FLOAT, the value to 6
// significant digits) in positional notation unless the number is very
// large or very small: 1500000, 0.0000001, 1e15, 1e-16.
// withMySQLFloats rewrites the float columns of text results that way
// (and the fractions and zero YEARs the engine writes otherwise).
// Binary results (prepared statements) carry the value's bits and need
// nothing.
func withMySQLFloats(cb mysql.ResultSpoolFn) mysql.ResultSpoolFn {
	// The engine streams a result: its fields come with the first part,
	// and later parts carry rows alone.
	var fields []*querypb.Field
	return func(res *sqltypes.Result, more bool) error {
		if res != nil {
			if len(res.Fields) > 0 {
				fields = res.Fields
				timeFieldDecimals(fields) // timewire.go
			}
			if len(res.Rows) > 0 {
				rewriteFloats(fields, res.Rows)
				rewriteFractions(fields, res.Rows) // fractions.go
				rewriteZeroYears(fields, res.Rows)
			}
		}
		return cb(res, more)
	}
}

// rewriteZeroYears writes YEAR 0 as MySQL writes it, 0000 (the engine
// wrote 0; every other YEAR has four digits).
func rewriteZeroYears(fields []*querypb.Field, rows [][]sqltypes.Value) {
	for c, f := range fields {
		if f.Type != querypb.Type_YEAR {
			continue
		}
		for _, row := range rows {
			if c < len(row) && !row[c].IsNull() && string(row[c].Raw()) == "0" {
				row[c] = sqltypes.MakeTrusted(querypb.Type_YEAR, []byte("0000"))
			}
		}
	}
}

func rewriteFloats(fields []*querypb.Field, rows [][]sqltypes.Value) {
	for c, f := range fields {
		bits := 0
		switch f.Type {
		case querypb.Type_FLOAT64:
			bits = 64
		case querypb.Type_FLOAT32:
			bits = 32
		default:
			continue
		}
		for _, row := range rows {
			if c >= len(row) || row[c].IsNull() {
				continue
			}
			raw := row[c].Raw()
			if bits == 64 && bytes.IndexByte(raw, 'e') < 0 && string(raw) != "-0" {
				// The engine's shortest %g is positional only from 1e-4
				// to below 1e6, where MySQL writes the same digits.
				continue
			}
			v, err := strconv.ParseFloat(string(raw), 64)
			if err != nil {
				continue
			}
			row[c] = sqltypes.MakeTrusted(f.Type, []byte(mysqlFloatText(v, bits)))
		}
	}
}

// mysqlFloatText formats v as MySQL and MariaDB write a DOUBLE (bits 64)
// or FLOAT (bits 32) in a text result. With v = 0.d1d2...dn × 10^e, the
// digits are the shortest that read back as v (6 significant digits at
// most for a FLOAT); positional notation holds for -14 <= e <= 15,
// otherwise d1.d2...dn e(e-1), with no '+' and no leading zeros in the
// exponent. The bounds and the form were read off MariaDB 10.11
// (TestFloatTextMatchesMySQL).
func mysqlFloatText(v float64, bits int) string {
	switch {
	case v == 0:
		return "0"
	case math.IsInf(v, 0) || math.IsNaN(v):
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	var s string
	if bits == 32 {
		s = strconv.FormatFloat(v, 'e', 5, 32)
	} else {
		s = strconv.FormatFloat(v, 'e', -1, 64)
	}
	neg := s[0] == '-'
	if neg {
		s = s[1:]
	}
	mant, exp, _ := strings.Cut(s, "e")
	digits := strings.TrimRight(strings.Replace(mant, ".", "", 1), "0")
	if digits == "" {
		digits = "0"
	}
	x, _ := strconv.Atoi(exp)
	e := x + 1 // v = 0.digits × 10^e
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	switch {
	case e < -14 || e > 15:
		b.WriteByte(digits[0])
		if len(digits) > 1 {
			b.WriteByte('.')
			b.WriteString(digits[1:])
		}
		b.WriteByte('e')
		b.WriteString(strconv.Itoa(e - 1))
	case e <= 0:
		b.WriteString("0.")
		b.WriteString(strings.Repeat("0", -e))
		b.WriteString(digits)
	case e < len(digits):
		b.WriteString(digits[:e])
		b.WriteByte('.')
		b.WriteString(digits[e:])
	default:
		b.WriteString(digits)
		b.WriteString(strings.Repeat("0", e-len(digits)))
	}
	return b.String()
}
