package sqlext

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"reflect"
	"strconv"
	"testing"

	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/shopspring/decimal"

	"github.com/sqlearn/sqlearn/storage"
)

// randomDoc is a random JSON value of the kinds documents hold: integers
// of 64 bits either side of a DOUBLE's exact range, unsigned ones beyond
// a signed one's, DOUBLEs (whole ones among them), DECIMALs with their
// scale, and strings and keys with quotes and control characters.
func randomDoc(r *rand.Rand, depth int) any {
	kinds := 9
	if depth > 3 {
		kinds = 7
	}
	switch r.IntN(kinds) {
	case 0:
		return nil
	case 1:
		return r.IntN(2) == 0
	case 2:
		return randomText(r)
	case 3:
		return decimal.New(r.Int64N(100000)-50000, -int32(r.IntN(4)))
	case 4:
		switch r.IntN(4) {
		case 0:
			return float64(r.IntN(2000) - 1000) // whole: written 12.0
		case 1:
			return math.Ldexp(r.Float64(), r.IntN(2000)-1000)
		case 2:
			return math.Copysign(0, -1)
		}
		return float64(r.IntN(2000)-1000) / []float64{4, 3, 1e7}[r.IntN(3)]
	case 5:
		return int64(r.Uint64())
	case 6:
		return r.Uint64() | 1<<63
	case 7:
		a := make([]any, r.IntN(4))
		for i := range a {
			a[i] = randomDoc(r, depth+1)
		}
		return a
	default:
		m := map[string]any{}
		for i := r.IntN(5); i > 0; i-- {
			m[randomText(r)] = randomDoc(r, depth+1)
		}
		return m
	}
}

func randomText(r *rand.Rand) string {
	chars := []rune("ab\"\\\n\t\r\b\f\x01\x1fé/ {}:,")
	b := make([]rune, r.IntN(8))
	for i := range b {
		b[i] = chars[r.IntN(len(chars))]
	}
	return string(b)
}

// sameDoc reports whether two documents hold the same values of the same
// kinds: a DOUBLE's bits, a DECIMAL's digits and scale.
func sameDoc(a, b any) bool {
	switch x := a.(type) {
	case float64:
		y, ok := b.(float64)
		return ok && math.Float64bits(x) == math.Float64bits(y)
	case decimal.Decimal:
		y, ok := b.(decimal.Decimal)
		return ok && x.Equal(y) && x.Exponent() == y.Exponent()
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !sameDoc(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			if w, ok := y[k]; !ok || !sameDoc(v, w) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(a, b)
}

// TestJSONWrittenReadsBack: a document appendJSON writes is valid JSON,
// and parseStoredJSON reads back what storedJSON writes with every value
// of its kind, for 5,000 random documents. A DECIMAL whose digits are a DOUBLE's shortest
// (1.5) reads back as that DOUBLE, and one of scale 0 as an integer: the
// values that change kind, though not text.
func TestJSONWrittenReadsBack(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	for i := 0; i < 5000; i++ {
		doc := randomDoc(r, 0)
		shown, ok := appendJSON(nil, doc)
		if !ok || !json.Valid(shown) {
			t.Fatalf("%#v written as %s, ok %v", doc, shown, ok)
		}
		b, err := storedJSON(types.JSONDocument{Val: doc})
		if err != nil {
			t.Fatalf("%#v: %v", doc, err)
		}
		back, err := parseStoredJSON([]byte(b))
		if err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		if want := doublesForShortDecimals(doc); !sameDoc(back, want) {
			t.Fatalf("%s read back as %#v, want %#v", b, back, want)
		}
		// The quick reading of documents whose numbers allow it agrees
		// with the reading of every number's text, on both texts.
		for _, text := range [][]byte{[]byte(b), shown} {
			for _, stored := range []bool{false, true} {
				quick, err := decodeJSON(text, stored)
				exact, exactErr := decodeExact(text, stored)
				if (err == nil) != (exactErr == nil) || !sameDoc(quick, exact) {
					t.Fatalf("%s (stored %v): %#v, %v; read number by number %#v, %v", text, stored, quick, err, exact, exactErr)
				}
			}
		}
	}
}

// doublesForShortDecimals is doc with each DECIMAL written with a
// DOUBLE's shortest digits replaced by that DOUBLE, and each whole one
// (scale 0) by the integer.
func doublesForShortDecimals(doc any) any {
	return mapLeaves(doc, func(v any) any {
		x, ok := v.(decimal.Decimal)
		if !ok {
			return v
		}
		if x.Exponent() >= 0 {
			return x.IntPart()
		}
		text, _ := appendJSON(nil, x)
		if f, _ := strconv.ParseFloat(string(text), 64); string(storage.AppendJSONDouble(nil, f)) == string(text) {
			return f
		}
		return x
	})
}

// TestJSONAsMySQLWritesIt: JSON text read by parseJSON and written by
// appendJSON gives MySQL 8.0's text: integers of 64 bits exact, other
// numbers DOUBLEs written with their shortest digits and ".0" when whole,
// a number past 64 bits a DOUBLE (MySQL's 1.8446744073709552e19), keys
// escaped and ordered shorter first.
func TestJSONAsMySQLWritesIt(t *testing.T) {
	for in, want := range map[string]string{
		`{"a": 1.0, "b": 9007199254740993, "c": 18446744073709551615, "d": -9223372036854775808}`: `{"a": 1.0, "b": 9007199254740993, "c": 18446744073709551615, "d": -9223372036854775808}`,
		`{"abc": 18446744073709551616}`:                       `{"abc": 1.8446744073709552e19}`,
		`[1e2, 0.1e-5, 1E+300, -0.0, -0, 1.50]`:               `[100.0, 0.000001, 1e300, -0.0, 0, 1.5]`,
		`[123456789012345.0, 1234567890123456.0, 0.1, 1e-20]`: `[123456789012345.0, 1.234567890123456e15, 0.1, 1e-20]`,
		`{"bb":1,"a":2,"c":{"a\"b":"x\u0001y\n"}}`:            `{"a": 2, "c": {"a\"b": "x\u0001y\n"}, "bb": 1}`,
		` [true, false, null, "é"] `:                          `[true, false, null, "é"]`,
	} {
		doc, err := parseJSON([]byte(in))
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		if got, _ := appendJSON(nil, doc); string(got) != want {
			t.Errorf("%s written as %s, want %s", in, got, want)
		}
	}
	for _, bad := range []string{`1e400`, `[-1e309]`, `{"a": 1} x`, `[1,]`, ``, `{"a" 1}`} {
		if doc, err := parseJSON([]byte(bad)); err == nil {
			t.Errorf("%q read as %#v, want an error", bad, doc)
		}
	}
	doc := map[string]any{"amount": decimal.New(1050, -2), "n": []any{decimal.New(2000, -2), decimal.New(7, 0), 1.5, 2.0}}
	if got, _ := appendJSON(nil, doc); string(got) != `{"n": [20.00, 7, 1.5, 2.0], "amount": 10.50}` {
		t.Errorf("got %s", got)
	}
}

// BenchmarkReadStoredJSON times reading a stored document back:
// parseStoredJSON on one whose numbers are plain (the quick reading) and
// on one with a whole DOUBLE (read number by number), against
// encoding/json's reading of the plain one into floats, which the engine
// did before numbers were kept exactly.
func BenchmarkReadStoredJSON(b *testing.B) {
	plain := []byte(`{"d":{"d":3,"h":2.5,"w":1.25},"id":12345,"ok":true,"name":"widget","tags":["a","b","c"],"price":10.5}`)
	whole := []byte(`{"d":{"d":3,"h":2.0,"w":1.25},"id":12345,"ok":true,"name":"widget","tags":["a","b","c"],"price":10.5}`)
	b.Run("plain", func(b *testing.B) {
		for b.Loop() {
			if _, err := parseStoredJSON(plain); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("whole-double", func(b *testing.B) {
		for b.Loop() {
			if _, err := parseStoredJSON(whole); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("floats-only", func(b *testing.B) {
		for b.Loop() {
			var v any
			if err := json.Unmarshal(plain, &v); err != nil {
				b.Fatal(err)
			}
		}
	})
}
