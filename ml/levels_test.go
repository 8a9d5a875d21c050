package ml

import (
	"math"
	"slices"
	"strings"
	"testing"
)

// TestCodeLevels checks that coding a column gives the same sorted levels,
// counts and codes whatever the number of workers, and that numeric rows
// group by their text.
func TestCodeLevels(t *testing.T) {
	const n = 3 * minRowsPerWorker
	text, num := make([]string, n), make([]float64, n)
	many := make([]string, n) // more levels than codeStrings compares
	null := make([]bool, n)
	for i := range text {
		text[i] = string(rune('a' + (i*7)%5))
		many[i] = "level " + string(rune('A'+(i*13)%40))
		num[i] = float64((i*7)%5) - 2
		null[i] = i%11 == 3
	}
	// Two NaN payloads and both zeros: NaNs share the text "NaN", the
	// zeros do not ("0" and "-0").
	num[1], num[2], num[4] = math.NaN(), math.Float64frombits(0x7ff8000000000001), math.Copysign(0, -1)
	for _, tc := range []struct {
		name string
		col  Column
	}{
		{"text", CategoricalColumn("c", text, null)},
		{"many levels", CategoricalColumn("m", many, null)},
		{"numeric", NumericColumn("x", num, null)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			one := codeLevels(&tc.col, 1, strings.Compare)
			if !slices.IsSorted(one.Levels) {
				t.Fatalf("levels %q are not sorted", one.Levels)
			}
			total := 0
			for i, k := range one.Codes {
				if null[i] != (k < 0) {
					t.Fatalf("row %d: code %d, null %v", i, k, null[i])
				}
				if k >= 0 {
					total++
					if tc.col.Kind == Categorical && one.Levels[k] != tc.col.Str[i] {
						t.Fatalf("row %d: level %q, want %q", i, one.Levels[k], tc.col.Str[i])
					}
					if tc.col.Kind == Numeric && one.Levels[k] != FormatLabel(num[i]) {
						t.Fatalf("row %d: level %q, want %q", i, one.Levels[k], FormatLabel(num[i]))
					}
				}
			}
			sum := 0
			for _, c := range one.Counts {
				sum += c
			}
			if sum != total {
				t.Fatalf("counts add to %d, want %d", sum, total)
			}
			if len(slices.Compact(slices.Clone(one.Levels))) != len(one.Levels) {
				t.Fatalf("levels %q repeat", one.Levels)
			}
			for _, want := range []string{"NaN", "0", "-0"} {
				if tc.col.Kind == Numeric && !slices.Contains(one.Levels, want) {
					t.Fatalf("levels %q lack %q", one.Levels, want)
				}
			}
			for _, workers := range []int{2, 3} {
				got := codeLevels(&tc.col, workers, strings.Compare)
				if !slices.Equal(got.Levels, one.Levels) || !slices.Equal(got.Counts, one.Counts) || !slices.Equal(got.Codes, one.Codes) {
					t.Errorf("%d workers: levels %q counts %v differ from one worker's %q %v (or the codes do)",
						workers, got.Levels, got.Counts, one.Levels, one.Counts)
				}
			}
		})
	}
}
