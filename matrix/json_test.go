package matrix

import (
	"errors"
	"math"
	"strings"
	"testing"
)

func TestFromJSON(t *testing.T) {
	m, err := FromJSON(" [[1, 2.5], [-3e2, 4]] ")
	if err != nil {
		t.Fatal(err)
	}
	assertMatrix(t, m, mustRows(t, [][]float64{{1, 2.5}, {-300, 4}}), 0)
	special, err := FromJSON(`[["NaN", "Infinity", "-Infinity"]]`)
	if err != nil {
		t.Fatal(err)
	}
	if !math.IsNaN(special.data[0]) || !math.IsInf(special.data[1], 1) || !math.IsInf(special.data[2], -1) {
		t.Errorf("special values %v", special.data)
	}
	bad := []struct{ in, want string }{
		{"", "empty input"},
		{"   ", "empty input"},
		{"[]", "non-empty array of rows"},
		{"[1,2]", "row 0 is not an array"},
		{"[[]]", "row 0 is empty"},
		{"[[1,2],[3]]", "row 1 has 1 elements, row 0 has 2"},
		{`[[1,"x"]]`, `element [0][1]: "x" is not a number`},
		{"[[1,null]]", "element [0][1]: null is not a number"},
		{"[[1,true]]", "element [0][1]: bool is not a number"},
		{"[[1,[2]]]", "element [0][1]"},
		{"[[1e400]]", "out of the float64 range"},
		{"[[1,2]", "unexpected EOF"},
		{"[[1]] [[2]]", "unexpected data after the matrix"},
		{"{}", "non-empty array of rows"},
	}
	for _, c := range bad {
		_, err := FromJSON(c.in)
		if !errors.Is(err, ErrInvalidJSON) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("FromJSON(%q) error %v, want one containing %q", c.in, err, c.want)
		}
	}
}

func TestToJSON(t *testing.T) {
	m := mustRows(t, [][]float64{{1, 0.1, -2e-300}, {math.NaN(), math.Inf(1), math.Inf(-1)}})
	want := `[[1,0.1,-2e-300],["NaN","Infinity","-Infinity"]]`
	for name, x := range layouts(m) {
		if got := ToJSON(x); got != want {
			t.Errorf("%s: ToJSON = %s, want %s", name, got, want)
		}
	}
	r := mustRand(t, 5, 7, 3, 1)
	back, err := FromJSON(ToJSON(r))
	if err != nil {
		t.Fatal(err)
	}
	assertMatrix(t, back, r, 0)
}
