package matrix

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"math"
	"strings"
	"testing"
)

func TestEncodeIdentityMatchesFormatDoc(t *testing.T) {
	id, err := Identity(2)
	if err != nil {
		t.Fatal(err)
	}
	// The example drawn byte by byte in docs/format/matrix.md.
	want := strings.Join([]string{
		"53514d5801020000",
		"0200000000000000", "0200000000000000", "0200000000000000",
		"0000000000000000", "0100000000000000", "0200000000000000",
		"0000000001000000",
		"000000000000f03f", "000000000000f03f",
	}, "")
	if got := hex.EncodeToString(Encode(id)); got != want {
		t.Fatalf("Encode(I2) =\n%s\nwant\n%s", got, want)
	}
}

func TestEncodeDecodeRoundTrip(t *testing.T) {
	negZero := math.Copysign(0, -1)
	cases := map[string]*Matrix{
		"dense":       mustRows(t, [][]float64{{1, 2, 3}, {4, 5, math.Inf(-1)}}),
		"dense nan":   mustRows(t, [][]float64{{math.NaN(), negZero}}),
		"csr":         sparse(t, [][]float64{{0, 2, 0}, {0, 0, 0}, {7, 0, 9}}),
		"random csr":  mustRand(t, 40, 30, 7, 0.1),
		"random":      mustRand(t, 9, 11, 8, 1),
		"empty dense": mustRows(t, nil),
	}
	z, _ := Zeros(0, 5)
	cases["0x5"] = z
	cases["0x5 csr"] = ToCSR(z)
	cases["3x0 csr"] = ToCSR(denseLike(3, 0))
	for name, m := range cases {
		t.Run(name, func(t *testing.T) {
			b := Encode(m)
			got, err := Decode(b)
			if err != nil {
				t.Fatal(err)
			}
			if got.layout != m.layout || got.rows != m.rows || got.cols != m.cols {
				t.Fatalf("decoded %v, want %v", got, m)
			}
			for k := range m.data {
				if math.Float64bits(got.data[k]) != math.Float64bits(m.data[k]) {
					t.Fatalf("value %d: bits of %v, want %v", k, got.data[k], m.data[k])
				}
			}
			if !bytes.Equal(Encode(got), b) {
				t.Fatal("re-encoding changed the bytes")
			}
		})
	}
}

// corruptCopy encodes m and lets edit change the bytes.
func corruptCopy(m *Matrix, edit func(b []byte) []byte) []byte { return edit(Encode(m)) }

func TestDecodeRejects(t *testing.T) {
	dense := mustRows(t, [][]float64{{1, 2}, {3, 4}})
	csr := sparse(t, [][]float64{{1, 0, 2}, {0, 3, 0}})
	put64 := func(off int, v uint64) func([]byte) []byte {
		return func(b []byte) []byte { binary.LittleEndian.PutUint64(b[off:], v); return b }
	}
	put32 := func(off int, v uint32) func([]byte) []byte {
		return func(b []byte) []byte { binary.LittleEndian.PutUint32(b[off:], v); return b }
	}
	// csr layout: header 32, ptr 3*8 = 24 (32..56), indices 3*4 (56..68), values.
	cases := []struct {
		name string
		b    []byte
		want error
	}{
		{"empty", nil, ErrCorrupt},
		{"short header", Encode(dense)[:31], ErrCorrupt},
		{"bad magic", corruptCopy(dense, func(b []byte) []byte { b[0] = 'X'; return b }), ErrCorrupt},
		{"version 0", corruptCopy(dense, func(b []byte) []byte { b[4] = 0; return b }), ErrUnknownVersion},
		{"version 2", corruptCopy(dense, func(b []byte) []byte { b[4] = 2; return b }), ErrUnknownVersion},
		{"layout 3", corruptCopy(dense, func(b []byte) []byte { b[5] = 3; return b }), ErrCorrupt},
		{"reserved", corruptCopy(dense, func(b []byte) []byte { b[7] = 1; return b }), ErrCorrupt},
		{"truncated dense", Encode(dense)[:60], ErrCorrupt},
		{"trailing byte", append(Encode(dense), 0), ErrCorrupt},
		{"dense nnz", corruptCopy(dense, put64(24, 5)), ErrCorrupt},
		{"huge rows", corruptCopy(dense, put64(8, 1<<40)), ErrCorrupt},
		{"rows*cols overflow", corruptCopy(dense, func(b []byte) []byte {
			binary.LittleEndian.PutUint64(b[8:], math.MaxInt32)
			binary.LittleEndian.PutUint64(b[16:], math.MaxInt32)
			binary.LittleEndian.PutUint64(b[24:], math.MaxInt32*math.MaxInt32)
			return b
		}), ErrCorrupt},
		{"huge nnz", corruptCopy(csr, put64(24, math.MaxUint64/4)), ErrCorrupt},
		{"nnz over rows*cols", corruptCopy(mustRows(t, nil), func(b []byte) []byte {
			b[5] = byte(LayoutCSR)
			binary.LittleEndian.PutUint64(b[24:], 1)
			return append(b, make([]byte, 8+12)...)
		}), ErrCorrupt},
		{"truncated csr", Encode(csr)[:70], ErrCorrupt},
		{"first ptr", corruptCopy(csr, put64(32, 1)), ErrCorrupt},
		{"decreasing ptr", corruptCopy(csr, put64(40, 3)), ErrCorrupt},
		{"ptr past nnz", corruptCopy(csr, put64(48, 4)), ErrCorrupt},
		{"last ptr short", corruptCopy(csr, put64(48, 2)), ErrCorrupt},
		{"column out of range", corruptCopy(csr, put32(56, 3)), ErrCorrupt},
		{"columns not increasing", corruptCopy(csr, put32(60, 0)), ErrCorrupt},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, err := Decode(c.b)
			if !errors.Is(err, c.want) {
				t.Fatalf("Decode = %v, %v; want error %v", m, err, c.want)
			}
		})
	}
}

func FuzzDecode(f *testing.F) {
	f.Add(Encode(mustRows(f, [][]float64{{1, 2}, {3, 4}})))
	f.Add(Encode(sparse(f, [][]float64{{0, 1}, {2, 0}})))
	f.Add([]byte("SQMX"))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := Decode(b)
		if err != nil {
			if m != nil {
				t.Fatal("error with a non-nil matrix")
			}
			return
		}
		out := Encode(m)
		if !bytes.Equal(out, b) {
			t.Fatalf("re-encoding differs:\n%x\n%x", out, b)
		}
		if _, err := Decode(out); err != nil {
			t.Fatalf("re-encoded value does not decode: %v", err)
		}
	})
}

func TestNewDenseEncodedMatchesEncode(t *testing.T) {
	m, vals, ok, err := NewDenseEncoded(3, 2)
	if err != nil {
		t.Fatal(err)
	}
	if !ok {
		t.Skip("host float layout differs from the format's")
	}
	for i := range vals {
		vals[i] = float64(i) - 2.5
	}
	want, err := NewDense(3, 2, []float64{-2.5, -1.5, -0.5, 0.5, 1.5, 2.5})
	if err != nil {
		t.Fatal(err)
	}
	if string(Encode(m)) != string(Encode(want)) {
		t.Fatal("the in-place encoding differs from Encode's")
	}
	back, err := Decode(Encode(m))
	if err != nil || back.Rows() != 3 || back.Cols() != 2 {
		t.Fatalf("decode: %v", err)
	}
	if _, _, _, err := NewDenseEncoded(1<<20, 1<<20); err == nil {
		t.Fatal("an oversized matrix was allocated")
	}
}
