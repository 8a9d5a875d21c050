package sqlext

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/sqltypes"
	querypb "github.com/dolthub/vitess/go/vt/proto/query"
)

// timeFieldDecimals gives each TIME column of a result its fractional
// digits as its decimals, read from its length (MaxTextResponseByteLength):
// the engine gives a TIME none, and a client of the binary protocol
// (the Go driver) then drops the fraction of a TIME(n) value.
func timeFieldDecimals(fields []*querypb.Field) {
	for _, f := range fields {
		if f.Type == querypb.Type_TIME && f.Decimals == 0 && f.ColumnLength > timeTextLength+1 && f.ColumnLength <= timeTextLength+1+maxTimeDigits {
			f.Decimals = f.ColumnLength - timeTextLength - 1
		}
		if f.Type == querypb.Type_TIMESTAMP && f.Decimals == 0 && f.ColumnLength > timestampMarked && f.ColumnLength <= timestampMarked+maxTimeDigits {
			// resultTimestampType's mark: the engine gives a TIMESTAMP(n)
			// no decimals, though it gives a DATETIME(n) its n, and the
			// length of TIMESTAMP(6) whatever n is.
			n := f.ColumnLength - timestampMarked
			f.Decimals, f.ColumnLength = n, datetimeTextLength+1+n
		}
	}
}

// datetimeTextLength is the length of a DATETIME or TIMESTAMP of no
// fractional digits written as text; timestampMarked, the engine's length
// of every TIMESTAMP (that of TIMESTAMP(6)).
const (
	datetimeTextLength = 19
	timestampMarked    = datetimeTextLength + 1 + maxTimeDigits
)

// resultTimestampType is a TIMESTAMP(n) as the type of a result's column
// (doubleDecimalsRule). Its length is MySQL's for n = 0 (19); for n of 1
// to 6 it is the engine's length plus n, past any length a TIMESTAMP
// column has, a mark from which timeFieldDecimals gives the column n
// decimals and MySQL's length, 20+n. Its values are written as the engine
// writes them.
type resultTimestampType struct {
	sql.DatetimeType
}

func (t resultTimestampType) MaxTextResponseByteLength(*sql.Context) uint32 {
	if n := t.Precision(); n > 0 {
		return uint32(timestampMarked + n)
	}
	return datetimeTextLength
}

// withTimeDecimals wraps the result callback of a prepared statement
// (see timeFieldDecimals).
func withTimeDecimals(cb func(*sqltypes.Result) error) func(*sqltypes.Result) error {
	return func(res *sqltypes.Result) error {
		if res != nil {
			timeFieldDecimals(res.Fields)
		}
		return cb(res)
	}
}

// resultTimeType is the engine's TIME as the type of a result's column
// (doubleDecimalsRule): with the length of a TIME of no fractional
// digits, as MySQL gives TIMEDIFF or SEC_TO_TIME of whole seconds, where
// the engine's length would read as TIME(6)'s (timeFieldDecimals). Its
// values are written as the engine writes them.
type resultTimeType struct {
	types.TimespanType_
}

func (resultTimeType) MaxTextResponseByteLength(*sql.Context) uint32 { return timeTextLength }
