package sqlext

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/types"
)

// TestTextInRangeAgreesWithConversion: textInRange, which spares
// storedInRange the conversion of plain decimal text, says in range only
// of text the type's own conversion takes whole and in range, over the
// integer and DECIMAL types at their bounds and random text; and it says
// so of the usual values (so that it spares something).
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
}
