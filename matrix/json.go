package matrix

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// JSON has no NaN or infinities; these strings stand for them (JavaScript's
// spellings), so ToJSON output always parses back.
const (
	jsonNaN    = "NaN"
	jsonPosInf = "Infinity"
	jsonNegInf = "-Infinity"
)

func invalidJSON(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrInvalidJSON}, args...)...)
}

// FromJSON parses a dense matrix written as an array of rows, such as
// [[1,2],[3,4]]. Every row must hold the same number of numbers; the
// strings "NaN", "Infinity" and "-Infinity" are accepted as elements.
func FromJSON(s string) (*Matrix, error) {
	if strings.TrimSpace(s) == "" {
		return nil, invalidJSON("empty input")
	}
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var top any
	if err := dec.Decode(&top); err != nil {
		return nil, invalidJSON("%v", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, invalidJSON("unexpected data after the matrix")
	}
	rows, ok := top.([]any)
	if !ok || len(rows) == 0 {
		return nil, invalidJSON("expected a non-empty array of rows, like [[1,2],[3,4]]")
	}
	cols := -1
	for i, r := range rows {
		row, ok := r.([]any)
		if !ok {
			return nil, invalidJSON("row %d is not an array", i)
		}
		if len(row) == 0 {
			return nil, invalidJSON("row %d is empty", i)
		}
		if cols >= 0 && len(row) != cols {
			return nil, invalidJSON("row %d has %d elements, row 0 has %d", i, len(row), cols)
		}
		cols = len(row)
	}
	m, err := newDense(len(rows), cols)
	if err != nil {
		return nil, err
	}
	for i, r := range rows {
		for j, e := range r.([]any) {
			v, err := jsonNumber(e)
			if err != nil {
				return nil, invalidJSON("element [%d][%d]: %v", i, j, err)
			}
			m.data[i*cols+j] = v
		}
	}
	return m, nil
}

func jsonNumber(e any) (float64, error) {
	switch e := e.(type) {
	case json.Number:
		v, err := strconv.ParseFloat(string(e), 64)
		if err != nil {
			return 0, fmt.Errorf("%s is out of the float64 range", e)
		}
		return v, nil
	case string:
		switch e {
		case jsonNaN:
			return math.NaN(), nil
		case jsonPosInf:
			return math.Inf(1), nil
		case jsonNegInf:
			return math.Inf(-1), nil
		}
		return 0, fmt.Errorf("%q is not a number", e)
	case nil:
		return 0, errors.New("null is not a number")
	}
	return 0, fmt.Errorf("%T is not a number", e)
}

// ToJSON writes m as an array of rows, each number in the shortest form
// that parses back to the same float64.
func ToJSON(m *Matrix) string {
	var b strings.Builder
	b.WriteByte('[')
	for i := range m.rows {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('[')
		for j := range m.cols {
			if j > 0 {
				b.WriteByte(',')
			}
			writeJSONFloat(&b, m.at(i, j))
		}
		b.WriteByte(']')
	}
	b.WriteByte(']')
	return b.String()
}

func writeJSONFloat(b *strings.Builder, v float64) {
	switch {
	case math.IsNaN(v):
		b.WriteString(`"` + jsonNaN + `"`)
	case math.IsInf(v, 1):
		b.WriteString(`"` + jsonPosInf + `"`)
	case math.IsInf(v, -1):
		b.WriteString(`"` + jsonNegInf + `"`)
	default:
		var buf [32]byte
		b.Write(strconv.AppendFloat(buf[:0], v, 'g', -1, 64))
	}
}
