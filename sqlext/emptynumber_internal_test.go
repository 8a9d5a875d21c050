package sqlext

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/types"
)

// TestTextInRangeAgreesWithConversion: textInRange, which spares
// storedInRange and valueCheck the conversion of plain decimal text, says
// in range only of text the type's own conversion takes whole and in
// range, over the integer and DECIMAL types at their bounds and random
// text; integerFits, which spares valueCheck the conversion of Go
// integers, likewise of integers; and each says so of the usual values
// (so that it spares something).
func TestTextInRangeAgreesWithConversion(t *testing.T) {
	ctx := sql.NewEmptyContext()
	typs := []sql.Type{types.Int8, types.Uint8, types.Int16, types.Uint16, types.Int24, types.Uint24, types.Int32, types.Uint32,
		types.Int64, types.Uint64, types.MustCreateDecimalType(6, 2), types.MustCreateDecimalType(4, 4),
		types.MustCreateDecimalType(10, 0), types.MustCreateDecimalType(2, 0), types.MustCreateDecimalType(65, 30)}
	texts := []string{"0", "-0", "+5", "127", "128", "-128", "-129", "255", "256", "-1", "32767", "32768", "65535", "65536",
		"8388607", "8388608", "-8388609", "16777215", "16777216", "2147483647", "2147483648", "-2147483649", "4294967295",
		"4294967296", "9223372036854775807", "9223372036854775808", "-9223372036854775808", "18446744073709551615",
		"999999999999999999", "9999.99", "9999.995", "-9999.99", "10000", "99.999", "0.9999", "0.99995", ".5", "5.", "1e3",
		"", "-", "+", "00012", "0000000000000000000000000127", "12a", " 12", "12 ", "1.5", "99", "100", "9999999999", "0.5"}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		s := ""
		if rng.IntN(3) == 0 {
			s = "-"
		}
		for range 1 + rng.IntN(12) {
			s += fmt.Sprint(rng.IntN(10))
		}
		if rng.IntN(2) == 0 {
			s += "."
			for range 1 + rng.IntN(5) {
				s += fmt.Sprint(rng.IntN(10))
			}
		}
		texts = append(texts, s)
	}
	spared := map[string]bool{}
	for _, typ := range typs {
		for _, s := range texts {
			if !textInRange(typ, s) {
				continue
			}
			spared[typ.String()] = true
			if _, inRange, err := typ.Convert(ctx, s); err != nil || inRange != sql.InRange {
				t.Errorf("%s: %q taken as in range; the conversion gives %v, %v", typ, s, inRange, err)
			}
		}
	}
	for _, typ := range typs {
		if !spared[typ.String()] {
			t.Errorf("%s: no text taken as in range", typ)
		}
	}
	// integerFits, which spares the conversion of Go integers, likewise.
	ints := []any{int8(-128), int8(127), int16(-32768), int16(32767), int32(-1), int32(2147483647), int64(-9223372036854775808),
		int64(8388607), int64(8388608), int64(-8388609), int64(4294967295), int64(4294967296), int(-1), int(200),
		uint8(255), uint16(65535), uint32(4294967295), uint64(18446744073709551615), uint64(9223372036854775807), uint64(16777216)}
	for range 2000 {
		ints = append(ints, int64(rng.Uint64()>>rng.IntN(64)), -int64(rng.Uint64()>>(1+rng.IntN(63))), rng.Uint64()>>rng.IntN(64))
	}
	fitted := map[string]bool{}
	for _, typ := range typs {
		for _, v := range ints {
			if !integerFits(typ, v) {
				continue
			}
			fitted[typ.String()] = true
			if _, inRange, err := typ.Convert(ctx, v); err != nil || inRange != sql.InRange {
				t.Errorf("%s: %T %v taken as fitting; the conversion gives %v, %v", typ, v, v, inRange, err)
			}
		}
	}
	for _, typ := range typs[:10] {
		if !fitted[typ.String()] {
			t.Errorf("%s: no integer taken as fitting", typ)
		}
	}
}

// BenchmarkColumnValueError is valueCheck's check of an integer and of
// number text bound for an INT column, per value.
func BenchmarkColumnValueError(b *testing.B) {
	ctx := sql.NewEmptyContext()
	col := &sql.Column{Name: "n", Type: types.Int32}
	for _, v := range []any{int64(12345), "12345"} {
		b.Run(fmt.Sprintf("%T", v), func(b *testing.B) {
			for b.Loop() {
				if err := columnValueError(ctx, col, v, 1); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
