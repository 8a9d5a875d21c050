package sqlext

import (
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/shopspring/decimal"
)

// randomDoc is a random JSON value of the kinds the engine's documents
// hold, decimals among them when withDecimals.
func randomDoc(r *rand.Rand, depth int, withDecimals bool) any {
	kinds := 7
	if depth > 3 {
		kinds = 5
	}
	switch r.IntN(kinds) {
	case 0:
		return nil
	case 1:
		return r.IntN(2) == 0
	case 2:
		const chars = "ab\"\\\n\t\r\b\f\x01é/ {}:,"
		b := make([]byte, r.IntN(8))
		for i := range b {
			b[i] = chars[r.IntN(len(chars))]
		}
		return string(b)
	case 3:
		if withDecimals && r.IntN(2) == 0 {
			return decimal.New(r.Int64N(100000)-50000, -int32(r.IntN(4)))
		}
		return float64(r.IntN(2000)-1000) / []float64{1, 4, 3, 1e7}[r.IntN(4)]
	case 4:
		return r.Int64N(1<<40) - 1<<39
	case 5:
		a := make([]any, r.IntN(4))
		for i := range a {
			a[i] = randomDoc(r, depth+1, withDecimals)
		}
		return a
	default:
		m := map[string]any{}
		for i := r.IntN(5); i > 0; i-- {
			m[strconv.Itoa(r.IntN(200))+"k"[:r.IntN(2)]] = randomDoc(r, depth+1, withDecimals)
		}
		return m
	}
}

// TestEngineJSONFormat holds appendEngineJSON to the engine's writing of
// 2,000 random documents without decimals, byte for byte, and to it with
// each DECIMAL's trailing zeros put back for documents with them.
func TestEngineJSONFormat(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	for i := 0; i < 2000; i++ {
		doc := randomDoc(r, 0, false)
		want, err := types.JsonToMySqlString(types.JSONDocument{Val: doc})
		if err != nil {
			t.Fatal(err)
		}
		got, ok := appendEngineJSON(nil, doc)
		if !ok || string(got) != want {
			t.Fatalf("%#v:\n got %s\nwant %s", doc, got, want)
		}
	}
	doc := map[string]any{"amount": decimal.New(1050, -2), "n": []any{decimal.New(2000, -2), decimal.New(7, 0), 1.5}}
	got, _ := appendEngineJSON(nil, doc)
	if want := `{"n": [20.00, 7, 1.5], "amount": 10.50}`; string(got) != want {
		t.Errorf("got %s, want %s", got, want)
	}
}
