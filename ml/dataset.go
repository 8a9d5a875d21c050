package ml

import (
	"fmt"
	"math/rand/v2"
)

// Kind says how a column's values are held and encoded.
type Kind uint8

const (
	// Numeric columns hold float64 values (integers, decimals and floats
	// all arrive as float64).
	Numeric Kind = 1
	// Categorical columns hold text labels; the model encodes them itself.
	Categorical Kind = 2
)

func (k Kind) String() string {
	switch k {
	case Numeric:
		return "numeric"
	case Categorical:
		return "categorical"
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Column is one named column in columnar form, so the SQL layer can hand
// over Arrow buffers' values without boxing each row. Exactly one of Num
// and Str is used, by Kind. Null is nil when no row is NULL; otherwise
// Null[i] marks row i as NULL and the value slot is ignored.
type Column struct {
	Name string
	Kind Kind
	Num  []float64
	Str  []string
	Null []bool
}

// NumericColumn builds a numeric column; null may be nil.
func NumericColumn(name string, values []float64, null []bool) Column {
	return Column{Name: name, Kind: Numeric, Num: values, Null: null}
}

// CategoricalColumn builds a text column; null may be nil.
func CategoricalColumn(name string, values []string, null []bool) Column {
	return Column{Name: name, Kind: Categorical, Str: values, Null: null}
}

// Len is the number of rows in the column.
func (c *Column) Len() int {
	if c.Kind == Categorical {
		return len(c.Str)
	}
	return len(c.Num)
}

// IsNull reports whether row i is NULL.
func (c *Column) IsNull(i int) bool { return c.Null != nil && c.Null[i] }

func (c *Column) subset(idx []int) Column {
	out := Column{Name: c.Name, Kind: c.Kind}
	if c.Kind == Categorical {
		out.Str = make([]string, len(idx))
		for i, r := range idx {
			out.Str[i] = c.Str[r]
		}
	} else {
		out.Num = make([]float64, len(idx))
		for i, r := range idx {
			out.Num[i] = c.Num[r]
		}
	}
	if c.Null != nil {
		out.Null = make([]bool, len(idx))
		for i, r := range idx {
			out.Null[i] = c.Null[r]
		}
	}
	return out
}

// Dataset is a table of named feature columns and, except for clustering,
// a target column. Models bind features by name, so the column order here
// never matters to a trained model.
type Dataset struct {
	Features []Column
	Target   *Column
}

// Rows is the number of rows, taken from the first column.
func (d *Dataset) Rows() int {
	if d.Target != nil {
		return d.Target.Len()
	}
	if len(d.Features) > 0 {
		return d.Features[0].Len()
	}
	return 0
}

// Column finds a feature column by name.
func (d *Dataset) Column(name string) (*Column, bool) {
	for i := range d.Features {
		if d.Features[i].Name == name {
			return &d.Features[i], true
		}
	}
	return nil, false
}

// Validate checks that columns agree in length, names are unique and
// value slices match each column's kind.
func (d *Dataset) Validate() error {
	n := d.Rows()
	if n == 0 {
		return ErrEmptyDataset
	}
	seen := make(map[string]bool, len(d.Features))
	check := func(c *Column) error {
		if c.Kind != Numeric && c.Kind != Categorical {
			return fmt.Errorf("%w: column %q has kind %v", ErrColumnType, c.Name, c.Kind)
		}
		if c.Len() != n || (c.Null != nil && len(c.Null) != n) {
			return fmt.Errorf("%w: column %q", ErrColumnLength, c.Name)
		}
		return nil
	}
	for i := range d.Features {
		c := &d.Features[i]
		if seen[c.Name] {
			return fmt.Errorf("%w: %q", ErrDuplicateColumn, c.Name)
		}
		seen[c.Name] = true
		if err := check(c); err != nil {
			return err
		}
	}
	if d.Target != nil {
		return check(d.Target)
	}
	return nil
}

// Subset returns a new dataset holding the given rows, in that order.
func (d *Dataset) Subset(idx []int) *Dataset {
	out := &Dataset{Features: make([]Column, len(d.Features))}
	for i := range d.Features {
		out.Features[i] = d.Features[i].subset(idx)
	}
	if d.Target != nil {
		t := d.Target.subset(idx)
		out.Target = &t
	}
	return out
}

// Split shuffles the rows with seed and holds out validationFraction of
// them; see SplitIndices.
func (d *Dataset) Split(validationFraction float64, seed uint64) (train, validation *Dataset) {
	tr, va := SplitIndices(d.Rows(), validationFraction, seed)
	return d.Subset(tr), d.Subset(va)
}

// SplitIndices permutes 0..n-1 with a PCG generator seeded by seed and
// returns the first n-ceil(n*f) indices for training and the rest for
// validation. The permutation is stable across releases (math/rand/v2's
// PCG and Shuffle are specified), so a split can be reproduced outside Go
// by reading the indices back.
func SplitIndices(n int, validationFraction float64, seed uint64) (train, validation []int) {
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	r.Shuffle(n, func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
	nv := int(float64(n)*validationFraction + 0.999999)
	if validationFraction <= 0 {
		nv = 0
	}
	if nv > n {
		nv = n
	}
	return perm[:n-nv], perm[n-nv:]
}
