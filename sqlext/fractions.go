package sqlext

import (
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/sqltypes"
	querypb "github.com/dolthub/vitess/go/vt/proto/query"
)

// MySQL writes a DATETIME(n) or TIMESTAMP(n) value with exactly n
// fractional digits (2024-01-15 10:20:30.500000 for DATETIME(6), none
// for DATETIME), in a text result and as text (CAST AS CHAR, CONCAT, a
// text column it is stored in). The engine writes the digits the value
// has: 10:20:30.5, and 10:20:30 for .000000. rewriteFractions writes
// the DATETIME columns of text results, and asText the values it
// writes, with their type's digits. The engine's handler reports no
// digits for a TIMESTAMP column, so text results leave those as they
// are. (Binary results carry the value and the column's digits, which
// the client writes.)

// withFractionDigits is s, a date and time written by the engine, with
// exactly digits fractional digits.
func withFractionDigits(s string, digits int) string {
	if len(s) < len("2006-01-02 15:04:05") || strings.IndexByte(s, ' ') < 0 {
		return s
	}
	whole, frac, _ := strings.Cut(s, ".")
	if digits == 0 {
		return whole
	}
	if len(frac) > digits {
		return whole + "." + frac[:digits]
	}
	return whole + "." + frac + strings.Repeat("0", digits-len(frac))
}

// rewriteFractions writes the values of the DATETIME columns of rows
// with their column's digits.
func rewriteFractions(fields []*querypb.Field, rows [][]sqltypes.Value) {
	for c, f := range fields {
		if f.Type != querypb.Type_DATETIME && (f.Type != querypb.Type_TIMESTAMP || f.Decimals == 0) {
			continue
		}
		for _, row := range rows {
			if c >= len(row) || row[c].IsNull() {
				continue
			}
			raw := string(row[c].Raw())
			if out := withFractionDigits(raw, int(f.Decimals)); out != raw {
				row[c] = sqltypes.MakeTrusted(f.Type, []byte(out))
			}
		}
	}
}

// typedText is v, a value of t, as MySQL writes it in text: a DATETIME
// or TIMESTAMP with its type's fractional digits.
func typedText(ctx *sql.Context, t sql.Type, v any) (string, error) {
	s, err := t.SQL(ctx, nil, v)
	if err != nil {
		return "", err
	}
	if dt, ok := t.(sql.DatetimeType); ok && types.IsTime(t) && !types.IsDateType(t) {
		return withFractionDigits(s.ToString(), dt.Precision()), nil
	}
	return s.ToString(), nil
}

// hasFraction reports whether t is a DATETIME(n) or TIMESTAMP(n) with
// n > 0, which the engine writes as text with the value's digits.
func hasFraction(t sql.Type) bool {
	dt, ok := t.(sql.DatetimeType)
	return ok && types.IsTime(t) && dt.Precision() > 0
}
