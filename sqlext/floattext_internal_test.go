package sqlext

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// TestFloatTextMatchesMySQL holds mysqlFloatText to what MariaDB 10.11
// (mariadb-server on Debian 12) wrote for the same DOUBLE and FLOAT
// values in its text results.
func TestFloatTextMatchesMySQL(t *testing.T) {
	doubles := map[float64]string{
		1.5e6: "1500000", 123456789: "123456789", 1e14: "100000000000000", 1e15: "1e15",
		1e16: "1e16", 1e20: "1e20", 0.0001: "0.0001", 0.00001: "0.00001", 1.0 / 3: "0.3333333333333333",
		1e-7: "0.0000001", 123456.789: "123456.789", 1.5e300: "1.5e300", -2.5e-10: "-0.00000000025",
		99999999999999999: "1e17", 0.30000000000000004: "0.30000000000000004", 1e-15: "0.000000000000001",
		1e-16: "1e-16", 1.234e-14: "0.00000000000001234", 1e-20: "1e-20",
		123456789012345: "123456789012345", 1234567890123456: "1.234567890123456e15", 1.5e15: "1.5e15",
		0.1234567890123456789: "0.12345678901234568", 12345.678901234567: "12345.678901234567",
		1.7976931348623157e308: "1.7976931348623157e308", 5e-324: "5e-324", -1e-5: "-0.00001",
		2.5e-5: "0.000025", 1.25e-17: "1.25e-17", 123.456e-12: "0.000000000123456",
		0.12345678901234568e-14: "0.0000000000000012345678901234568", 9.99e14: "999000000000000",
		-1e15: "-1e15", -1.5e-15: "-0.0000000000000015", 3e-16: "3e-16", 0: "0", -1.5e6: "-1500000",
		1e15 - 1: "999999999999999", 2e-14: "0.00000000000002", 1.5e-14: "0.000000000000015",
		1e-14: "0.00000000000001", 1.5: "1.5", 10: "10", 100: "100",
	}
	for v, want := range doubles {
		if got := mysqlFloatText(v, 64); got != want {
			t.Errorf("DOUBLE %v: %q, want %q", v, got, want)
		}
	}
	floats := map[float32]string{
		1500000: "1500000", 0.1: "0.1", 1e-7: "0.0000001", 123456.789: "123457", 3.4e38: "3.4e38",
		1.23456789: "1.23457", 1e7: "10000000", 1.5e10: "15000000000", 1e15: "1e15", 1e16: "1e16",
		1e-5: "0.00001", 1e-10: "0.0000000001", 1e-14: "0.00000000000001", 1e-15: "0.000000000000001",
		123456789: "123457000", 0.000123456789: "0.000123457", -2.5: "-2.5",
	}
	for v, want := range floats {
		if got := mysqlFloatText(float64(v), 32); got != want {
			t.Errorf("FLOAT %v: %q, want %q", v, got, want)
		}
	}
	if got := mysqlFloatText(negZero(), 64); got != "0" {
		t.Errorf("DOUBLE -0: %q, want \"0\"", got)
	}
}

func negZero() float64 {
	z := 0.0
	return -z
}

// TestFloatTextSkipsWhatIsAlreadyMySQLs pins the shortcut of rewriteFloats:
// where Go's shortest %g writes a DOUBLE without an exponent, MySQL's text
// is the same.
func TestFloatTextSkipsWhatIsAlreadyMySQLs(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for i := 0; i < 100000; i++ {
		v := math.Pow(10, rng.Float64()*30-15) * (rng.Float64() + 0.5)
		if rng.IntN(2) == 0 {
			v = -v
		}
		g := strconv.FormatFloat(v, 'g', -1, 64)
		if strings.ContainsRune(g, 'e') {
			continue
		}
		if m := mysqlFloatText(v, 64); m != g {
			t.Fatalf("%v: Go writes %q, MySQL %q", v, g, m)
		}
	}
}
