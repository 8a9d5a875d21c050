package udf

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/shopspring/decimal"

	"github.com/sqlearn/sqlearn/matrix"
)

// bytesOf accepts what the engine hands a function for a BLOB or string
// argument: []byte from columns and user variables, string from literals,
// and wrappers around large values.
func bytesOf(ctx *sql.Context, v any) ([]byte, bool) {
	switch x := v.(type) {
	case []byte:
		return x, true
	case string:
		return []byte(x), true
	case sql.BytesWrapper:
		b, err := x.Unwrap(ctx)
		return b, err == nil
	case sql.StringWrapper:
		s, err := x.Unwrap(ctx)
		return []byte(s), err == nil
	}
	return nil, false
}

func (c *call) matrix(i int) (*matrix.Matrix, error) {
	b, ok := bytesOf(c.ctx, c.args[i])
	if !ok {
		return nil, fmt.Errorf("%w: argument %d is a %s, not a matrix BLOB", ErrNotMatrix, i+1, typeName(c.args[i]))
	}
	m, err := matrix.Decode(b)
	if err != nil {
		return nil, fmt.Errorf("%w: argument %d: %w", ErrNotMatrix, i+1, err)
	}
	return m, nil
}

func (c *call) str(i int) (string, error) {
	switch x := c.args[i].(type) {
	case string:
		return x, nil
	case []byte:
		return string(x), nil
	case sql.StringWrapper:
		return x.Unwrap(c.ctx)
	case sql.JSONWrapper:
		v, err := x.ToInterface()
		if err != nil {
			return "", err
		}
		b, err := json.Marshal(v)
		return string(b), err
	}
	return "", c.argErr(i, "must be a string, got %s", typeName(c.args[i]))
}

// float converts a numeric argument. Strings must be whole numbers in
// decimal notation: MySQL would quietly turn 'abc' into 0, which for a
// matrix size or exponent hides a mistake.
func (c *call) float(i int) (float64, error) {
	if f, ok := numeric(c.args[i]); ok {
		return f, nil
	}
	switch c.args[i].(type) {
	case string, []byte:
		s, _ := c.str(i)
		f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil {
			return 0, c.argErr(i, "must be a number, got '%s'", s)
		}
		return f, nil
	}
	return 0, c.argErr(i, "must be a number, got %s", typeName(c.args[i]))
}

// numeric converts the Go values the engine uses for numbers.
func numeric(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case float32:
		return float64(x), true
	case int:
		return float64(x), true
	case int8:
		return float64(x), true
	case int16:
		return float64(x), true
	case int32:
		return float64(x), true
	case int64:
		return float64(x), true
	case uint8:
		return float64(x), true
	case uint16:
		return float64(x), true
	case uint32:
		return float64(x), true
	case uint64:
		return float64(x), true
	case decimal.Decimal:
		f, _ := x.Float64()
		return f, true
	case bool:
		if x {
			return 1, true
		}
		return 0, true
	}
	return 0, false
}

// ints converts n integral arguments starting at from.
func (c *call) ints(from, n int) ([]int, error) {
	out := make([]int, n)
	for k := range out {
		v, err := c.int(from + k)
		if err != nil {
			return nil, err
		}
		out[k] = v
	}
	return out, nil
}

// int converts an integral argument; 2.5 rows is an error, not 2.
func (c *call) int(i int) (int, error) {
	switch x := c.args[i].(type) {
	case int64:
		return int(x), nil
	case uint64:
		if x > math.MaxInt64 {
			return 0, c.argErr(i, "is out of range: %d", x)
		}
		return int(x), nil
	}
	f, err := c.float(i)
	if err != nil {
		return 0, err
	}
	if f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return 0, c.argErr(i, "must be an integer, got %v", f)
	}
	return int(f), nil
}

func typeName(v any) string {
	switch v.(type) {
	case nil:
		return "NULL"
	case int8, int16, int32, int64, uint8, uint16, uint32, uint64, int, uint:
		return "integer"
	case float32, float64, decimal.Decimal:
		return "number"
	case string:
		return "string"
	case sql.JSONWrapper:
		return "JSON value"
	}
	return fmt.Sprintf("%T", v)
}
