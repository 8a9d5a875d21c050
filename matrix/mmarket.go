package matrix

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// ReadMatrixMarket parses a Matrix Market file: "coordinate" with field
// real, integer or pattern and symmetry general, symmetric or
// skew-symmetric (giving a sparse matrix), or "array" real or integer
// general (giving a dense one). Values are read as float64, so an integer
// file may hold inf. Coordinate duplicates are summed and explicit zeros
// dropped; the mirrored half of a symmetric matrix is filled in.
func ReadMatrixMarket(r io.Reader) (*Matrix, error) {
	p := mmParser{sc: bufio.NewScanner(r)}
	p.sc.Buffer(make([]byte, 64*1024), 1<<20)
	h, err := p.header()
	if err != nil {
		return nil, err
	}
	size, err := p.fields("size line")
	if err != nil {
		return nil, err
	}
	if h.format == "array" {
		return p.array(size)
	}
	return p.coordinate(h, size)
}

type mmHeader struct{ format, field, symmetry string }

type mmParser struct {
	sc   *bufio.Scanner
	line int
}

func (p *mmParser) errorf(format string, args ...any) error {
	return fmt.Errorf("%w: line %d: "+format, append([]any{ErrMatrixMarket, p.line}, args...)...)
}

func (p *mmParser) header() (mmHeader, error) {
	if !p.sc.Scan() {
		if err := p.sc.Err(); err != nil {
			return mmHeader{}, fmt.Errorf("%w: %v", ErrMatrixMarket, err)
		}
		return mmHeader{}, fmt.Errorf("%w: empty input", ErrMatrixMarket)
	}
	p.line = 1
	f := strings.Fields(strings.ToLower(p.sc.Text()))
	if len(f) != 5 || f[0] != "%%matrixmarket" {
		return mmHeader{}, p.errorf("want a banner like %q", "%%MatrixMarket matrix coordinate real general")
	}
	h := mmHeader{format: f[2], field: f[3], symmetry: f[4]}
	if f[1] != "matrix" {
		return h, p.errorf("object %q is not supported (want matrix)", f[1])
	}
	switch h.format {
	case "coordinate", "array":
	default:
		return h, p.errorf("unknown format %q (want coordinate or array)", h.format)
	}
	switch h.field {
	case "real", "integer":
	case "pattern":
		if h.format == "array" {
			return h, p.errorf("field pattern is invalid with format array")
		}
	case "complex":
		return h, p.errorf("complex matrices are not supported")
	default:
		return h, p.errorf("unknown field %q (want real, integer or pattern)", h.field)
	}
	switch h.symmetry {
	case "general":
	case "symmetric", "skew-symmetric":
		if h.format == "array" {
			return h, p.errorf("only general array matrices are supported, not %s", h.symmetry)
		}
	case "hermitian":
		return h, p.errorf("hermitian matrices are not supported")
	default:
		return h, p.errorf("unknown symmetry %q (want general, symmetric or skew-symmetric)", h.symmetry)
	}
	return h, nil
}

// fields returns the next line that is neither blank nor a comment, split
// on white space.
func (p *mmParser) fields(what string) ([]string, error) {
	for p.sc.Scan() {
		p.line++
		t := strings.TrimSpace(p.sc.Text())
		if t == "" || t[0] == '%' {
			continue
		}
		return strings.Fields(t), nil
	}
	if err := p.sc.Err(); err != nil {
		return nil, p.errorf("%v", err)
	}
	return nil, fmt.Errorf("%w: unexpected end of input after line %d, want the %s", ErrMatrixMarket, p.line, what)
}

// ints parses n non-negative integers.
func (p *mmParser) ints(f []string, n int, what string) ([]int, error) {
	if len(f) != n {
		return nil, p.errorf("%s has %d fields, want %d", what, len(f), n)
	}
	out := make([]int, n)
	for k, s := range f {
		v, err := strconv.Atoi(s)
		if err != nil || v < 0 {
			return nil, p.errorf("%s: %q is not a non-negative integer", what, s)
		}
		out[k] = v
	}
	return out, nil
}

func (p *mmParser) value(s string) (float64, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, p.errorf("%q is not a number", s)
	}
	return v, nil
}

func (p *mmParser) array(size []string) (*Matrix, error) {
	dims, err := p.ints(size, 2, "array size line")
	if err != nil {
		return nil, err
	}
	m, err := newDense(dims[0], dims[1])
	if err != nil {
		return nil, err
	}
	// Array files list the values column by column.
	for k := range m.data {
		f, err := p.fields(fmt.Sprintf("value %d of %d", k+1, len(m.data)))
		if err != nil {
			return nil, err
		}
		if len(f) != 1 {
			return nil, p.errorf("want one value, have %d fields", len(f))
		}
		v, err := p.value(f[0])
		if err != nil {
			return nil, err
		}
		m.data[(k%m.rows)*m.cols+k/m.rows] = v
	}
	return m, p.trailing()
}

func (p *mmParser) coordinate(h mmHeader, size []string) (*Matrix, error) {
	dims, err := p.ints(size, 3, "coordinate size line")
	if err != nil {
		return nil, err
	}
	rows, cols, entries := dims[0], dims[1], dims[2]
	if err := checkDims(rows, cols); err != nil {
		return nil, err
	}
	stored := int64(entries)
	if h.symmetry != "general" {
		stored *= 2
	}
	if err := checkElements(stored, fmt.Sprintf("a %dx%d matrix with %d entries", rows, cols, entries)); err != nil {
		return nil, err
	}
	if err := checkElements(int64(rows), fmt.Sprintf("a sparse matrix with %d rows", rows)); err != nil {
		return nil, err
	}
	if (h.symmetry != "general") && rows != cols {
		return nil, p.errorf("a %s matrix must be square, not %dx%d", h.symmetry, rows, cols)
	}
	// The declared count is not trusted for the allocation: the entries
	// still have to be read.
	capacity := min(int(stored), 1<<16)
	is, js, vs := make([]int, 0, capacity), make([]int, 0, capacity), make([]float64, 0, capacity)
	want := 3
	if h.field == "pattern" {
		want = 2
	}
	for k := range entries {
		f, err := p.fields(fmt.Sprintf("entry %d of %d", k+1, entries))
		if err != nil {
			return nil, err
		}
		if len(f) != want {
			return nil, p.errorf("entry has %d fields, want %d", len(f), want)
		}
		ij, err := p.ints(f[:2], 2, "entry")
		if err != nil {
			return nil, err
		}
		i, j := ij[0]-1, ij[1]-1
		if i < 0 || i >= rows || j < 0 || j >= cols {
			return nil, p.errorf("entry (%d, %d) outside %dx%d (indices count from 1)", ij[0], ij[1], rows, cols)
		}
		v := 1.0
		if want == 3 {
			if v, err = p.value(f[2]); err != nil {
				return nil, err
			}
		}
		is, js, vs = append(is, i), append(js, j), append(vs, v)
		switch {
		case i == j && h.symmetry == "skew-symmetric" && v != 0:
			return nil, p.errorf("skew-symmetric matrix with a nonzero diagonal entry (%d, %d)", ij[0], ij[1])
		case i != j && h.symmetry == "symmetric":
			is, js, vs = append(is, j), append(js, i), append(vs, v)
		case i != j && h.symmetry == "skew-symmetric":
			is, js, vs = append(is, j), append(js, i), append(vs, -v)
		}
	}
	if err := p.trailing(); err != nil {
		return nil, err
	}
	return buildCSR(rows, cols, is, js, vs), nil
}

// trailing rejects data after the declared entries, which would mean the
// size line undercounts them.
func (p *mmParser) trailing() error {
	f, err := p.fields("end")
	if err == nil {
		return p.errorf("more entries than the size line declares: %q", strings.Join(f, " "))
	}
	if p.sc.Err() != nil {
		return err
	}
	return nil
}
