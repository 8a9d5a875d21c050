package ml

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// catEncoding says how a preprocessor turns a categorical column into
// numbers.
type catEncoding uint8

const (
	// oneHot gives one 0/1 column per training level (the linear models,
	// k-means); unseen levels encode as all zeros.
	oneHot catEncoding = 1
	// ordinal gives one column holding the level's index in sorted order
	// (trees, naive Bayes); unseen levels take the most frequent level.
	ordinal catEncoding = 2
	// idIndex is ordinal for ALS's id columns, read as text whatever their
	// kind; unseen ids encode as -1 so the model can fall back.
	idIndex catEncoding = 3
)

// feature is the stored recipe for one input column.
type feature struct {
	Name string
	Kind Kind
	// Numeric: NULL becomes Fill; the value is then mapped to
	// (x-Center)/Scale (Center 0 and Scale 1 when not standardising).
	Fill, Center, Scale float64
	// Categorical: sorted training levels; NULL (and, for ordinal, unseen
	// levels) take level FillLevel, the most frequent one.
	Levels    []string
	FillLevel int
	index     map[string]int
	// fitCol and fitCodes keep each row's level from fitting, so that
	// encoding the training data does not hash every string again; they
	// are dropped once it is encoded (see prepare).
	fitCol   *Column
	fitCodes []int32
}

// preprocessor turns named columns into a dense row-major design matrix.
// It is fitted on training data and stored in the model, so prediction
// applies exactly the training-time encoding.
type preprocessor struct {
	Encoding    catEncoding
	Standardize bool
	// DropFirst leaves out the first level's one-hot column, making the
	// unpenalised linear model identifiable (dummy coding).
	DropFirst bool
	Nulls     NullPolicy
	Features  []feature
}

// finish builds the lookup maps; called once after fitting or decoding so
// that concurrent predictions only read.
func (p *preprocessor) finish() {
	for i := range p.Features {
		f := &p.Features[i]
		f.index = make(map[string]int, len(f.Levels))
		for j, l := range f.Levels {
			f.index[l] = j
		}
	}
}

func (f *feature) levelIndex(s string) (int, bool) {
	i, ok := f.index[s]
	return i, ok
}

// text reads row i of a categorical feature; numeric id columns (ALS's
// user and item) are read as their decimal text.
func (f *feature) text(c *Column, i int) string {
	if c.Kind == Numeric {
		return FormatLabel(c.Num[i])
	}
	return c.Str[i]
}

// width is the number of encoded columns the feature produces.
func (p *preprocessor) featureWidth(f *feature) int {
	if f.Kind == Numeric || p.Encoding != oneHot {
		return 1
	}
	if p.DropFirst {
		return len(f.Levels) - 1
	}
	return len(f.Levels)
}

// Width is the number of columns of the encoded design matrix.
func (p *preprocessor) Width() int {
	w := 0
	for i := range p.Features {
		w += p.featureWidth(&p.Features[i])
	}
	return w
}

// ColumnNames names every encoded column ("col" or "col=level").
func (p *preprocessor) ColumnNames() []string {
	var out []string
	for i := range p.Features {
		f := &p.Features[i]
		if f.Kind == Numeric || p.Encoding != oneHot {
			out = append(out, f.Name)
			continue
		}
		for j, l := range f.Levels {
			if j == 0 && p.DropFirst {
				continue
			}
			out = append(out, f.Name+"="+l)
		}
	}
	return out
}

func nullError(col string, row int) error {
	return fmt.Errorf("%w %q (row %d); use the impute NULL policy or filter the rows", ErrNullValue, col, row)
}

// fitPreprocessor learns levels, fill values and scales from the training
// features; categorical columns are coded on up to workers goroutines.
func fitPreprocessor(d *Dataset, enc catEncoding, standardize, dropFirst bool, nulls NullPolicy, workers int) (*preprocessor, error) {
	if len(d.Features) == 0 {
		return nil, ErrNoFeatures
	}
	p := &preprocessor{Encoding: enc, Standardize: standardize, DropFirst: dropFirst, Nulls: nulls}
	for ci := range d.Features {
		c := &d.Features[ci]
		f := feature{Name: c.Name, Kind: c.Kind, Scale: 1}
		if enc == idIndex {
			f.Kind = Categorical
		}
		valid := c.Len()
		if c.Null != nil {
			for i, null := range c.Null {
				if null {
					if nulls == NullReject {
						return nil, nullError(c.Name, i)
					}
					valid--
				}
			}
		}
		if valid == 0 {
			return nil, fmt.Errorf("%w: %q", ErrAllNull, c.Name)
		}
		if f.Kind == Numeric {
			if err := f.fitNumeric(c, valid, standardize); err != nil {
				return nil, err
			}
		} else {
			lv := codeLevels(c, workers, strings.Compare)
			f.Levels = lv.Levels
			for i, cnt := range lv.Counts {
				// Ties go to the smallest level, as SimpleImputer breaks them.
				if cnt > lv.Counts[f.FillLevel] {
					f.FillLevel = i
				}
			}
			// The codes are kept so that encoding the training data does
			// not hash every string again.
			f.fitCol, f.fitCodes = c, lv.Codes
		}
		p.Features = append(p.Features, f)
	}
	p.finish()
	return p, nil
}

// fitNumeric learns a numeric column's fill value (the mean of its valid
// rows) and, when standardising, its centre and scale.
func (f *feature) fitNumeric(c *Column, valid int, standardize bool) error {
	var sum float64
	for i, v := range c.Num {
		if c.Null == nil || !c.Null[i] {
			sum += v
		}
	}
	// A NaN or infinite value makes the sum so too; only then are the
	// rows searched for it (finite values can also overflow the sum).
	if math.IsNaN(sum) || math.IsInf(sum, 0) {
		for i, v := range c.Num {
			if (c.Null == nil || !c.Null[i]) && (math.IsNaN(v) || math.IsInf(v, 0)) {
				return fmt.Errorf("%w: column %q row %d is %v", ErrColumnType, c.Name, i, v)
			}
		}
	}
	f.Fill = sum / float64(valid)
	if !standardize {
		return nil
	}
	// Variance over all rows after imputation, as a SimpleImputer
	// followed by StandardScaler computes it.
	var ss float64
	for i, v := range c.Num {
		if c.Null == nil || !c.Null[i] {
			ss += (v - f.Fill) * (v - f.Fill)
		}
	}
	f.Center = f.Fill
	if sd := math.Sqrt(ss / float64(c.Len())); sd > 0 {
		f.Scale = sd
	}
	return nil
}

// bind finds every model feature in d by name.
func (p *preprocessor) bind(d *Dataset) ([]*Column, error) {
	cols := make([]*Column, len(p.Features))
	for i := range p.Features {
		f := &p.Features[i]
		c, ok := d.Column(f.Name)
		if !ok {
			return nil, fmt.Errorf("%w %q", ErrMissingColumn, f.Name)
		}
		if c.Kind != f.Kind && p.Encoding != idIndex {
			return nil, fmt.Errorf("%w %q: model expects %v, got %v", ErrColumnType, f.Name, f.Kind, c.Kind)
		}
		cols[i] = c
	}
	return cols, nil
}

// transformRange writes rows [lo,hi) of the bound columns into dst
// (row-major, Width() columns, zeroed by the caller), one feature at a
// time so that each column is read in order.
func (p *preprocessor) transformRange(cols []*Column, lo, hi int, dst []float64) error {
	w := p.Width()
	off := 0
	for fi := range p.Features {
		f, c := &p.Features[fi], cols[fi]
		if c.Null != nil && p.Nulls == NullReject {
			if i := slices.Index(c.Null[lo:hi], true); i >= 0 {
				return nullError(f.Name, lo+i)
			}
		}
		at := off
		for i := lo; i < hi; i, at = i+1, at+w {
			null := c.Null != nil && c.Null[i]
			if f.Kind == Numeric {
				v := c.Num[i]
				if null {
					v = f.Fill
				}
				dst[at] = (v - f.Center) / f.Scale
				continue
			}
			lvl, ok := f.FillLevel, true
			switch {
			case null:
			case f.fitCol == c:
				lvl = int(f.fitCodes[i])
			default:
				lvl, ok = f.levelIndex(f.text(c, i))
			}
			p.putLevel(f, lvl, ok, dst[at:at+p.featureWidth(f)])
		}
		off += p.featureWidth(f)
	}
	return nil
}

func (p *preprocessor) putLevel(f *feature, lvl int, known bool, row []float64) {
	switch p.Encoding {
	case ordinal:
		if !known {
			lvl = f.FillLevel
		}
		row[0] = float64(lvl)
		return
	case idIndex:
		if !known {
			lvl = -1
		}
		row[0] = float64(lvl)
		return
	}
	if !known {
		return
	}
	if p.DropFirst {
		lvl--
	}
	if lvl >= 0 {
		row[lvl] = 1
	}
}

// transform encodes the whole dataset, splitting the rows among up to
// workers goroutines; the error reported is that of the first share of
// rows that has one.
func (p *preprocessor) transform(d *Dataset, workers int) ([]float64, error) {
	cols, err := p.bind(d)
	if err != nil {
		return nil, err
	}
	n, width := d.Rows(), p.Width()
	x := make([]float64, n*width)
	workers = passWorkers(workers, n)
	errs := make([]error, workers)
	forWorkers(workers, n, func(w, lo, hi int) {
		errs[w] = p.transformRange(cols, lo, hi, x[lo*width:hi*width])
	})
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return x, nil
}

// encodeRow encodes one row given as column name → value, the shape
// ML_PREDICT_ROW receives. Columns the model does not use are ignored.
func (p *preprocessor) encodeRow(row map[string]any, dst []float64) error {
	clear(dst)
	off := 0
	for fi := range p.Features {
		f := &p.Features[fi]
		fw := p.featureWidth(f)
		out := dst[off : off+fw]
		off += fw
		v, ok := row[f.Name]
		if !ok {
			return fmt.Errorf("%w %q", ErrMissingColumn, f.Name)
		}
		if v == nil {
			if p.Nulls == NullReject {
				return fmt.Errorf("%w %q", ErrNullValue, f.Name)
			}
			if f.Kind == Numeric {
				out[0] = (f.Fill - f.Center) / f.Scale
			} else {
				p.putLevel(f, f.FillLevel, true, out)
			}
			continue
		}
		if f.Kind == Numeric {
			x, err := toFloat(v)
			if err != nil {
				return fmt.Errorf("%w %q: %v", ErrColumnType, f.Name, err)
			}
			out[0] = (x - f.Center) / f.Scale
			continue
		}
		s, err := toText(v)
		if err != nil {
			return fmt.Errorf("%w %q: %v", ErrColumnType, f.Name, err)
		}
		lvl, known := f.levelIndex(s)
		p.putLevel(f, lvl, known, out)
	}
	return nil
}

// toFloat accepts the value types a JSON object or a SQL row can carry
// for a numeric column.
func toFloat(v any) (float64, error) {
	switch x := v.(type) {
	case float64:
		return x, nil
	case float32:
		return float64(x), nil
	case int:
		return float64(x), nil
	case int8:
		return float64(x), nil
	case int16:
		return float64(x), nil
	case int32:
		return float64(x), nil
	case int64:
		return float64(x), nil
	case uint8:
		return float64(x), nil
	case uint16:
		return float64(x), nil
	case uint32:
		return float64(x), nil
	case uint64:
		return float64(x), nil
	case bool:
		if x {
			return 1, nil
		}
		return 0, nil
	case json.Number:
		return x.Float64()
	case string:
		return strconv.ParseFloat(x, 64)
	case []byte:
		return strconv.ParseFloat(string(x), 64)
	}
	return 0, fmt.Errorf("expected a number, got %T", v)
}

// toText accepts text, and numbers written the way FormatLabel writes
// them, for a categorical column.
func toText(v any) (string, error) {
	switch x := v.(type) {
	case string:
		return x, nil
	case []byte:
		return string(x), nil
	case json.Number:
		return x.String(), nil
	}
	f, err := toFloat(v)
	if err != nil {
		return "", fmt.Errorf("expected text, got %T", v)
	}
	return FormatLabel(f), nil
}

// FormatLabel writes a numeric class label or category as text: the
// shortest decimal that reads back to the same float64.
func FormatLabel(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// labels maps a classification target onto class indices. Classes from a
// numeric column sort numerically and predict as float64; text classes
// sort as strings.
type labels struct {
	Classes []string
	Numeric bool
}

func (l *labels) value(k int) any {
	if l.Numeric {
		v, _ := strconv.ParseFloat(l.Classes[k], 64)
		return v
	}
	return l.Classes[k]
}

// fitLabels finds the classes of a target column and each row's class,
// coding the rows on up to workers goroutines.
func fitLabels(c *Column, workers int) (labels, []int, error) {
	if c.Null != nil {
		if i := slices.Index(c.Null, true); i >= 0 {
			return labels{}, nil, fmt.Errorf("%w %q (target, row %d)", ErrNullValue, c.Name, i)
		}
	}
	l := labels{Numeric: c.Kind == Numeric}
	order := strings.Compare
	if l.Numeric {
		order = func(a, b string) int {
			x, _ := strconv.ParseFloat(a, 64)
			y, _ := strconv.ParseFloat(b, 64)
			return cmp.Compare(x, y)
		}
	}
	lv := codeLevels(c, workers, order)
	l.Classes = lv.Levels
	if len(l.Classes) < 2 {
		return l, nil, fmt.Errorf("%w: %q has only %q", ErrSingleClass, c.Name, l.Classes[0])
	}
	y := make([]int, len(lv.Codes))
	for i, k := range lv.Codes {
		y[i] = int(k)
	}
	return l, y, nil
}

// classIndex maps a target column onto an already fitted label set; rows
// whose class the model never saw get -1.
func (l *labels) classIndex(c *Column) ([]int, error) {
	index := make(map[string]int, len(l.Classes))
	for i, s := range l.Classes {
		index[s] = i
	}
	y := make([]int, c.Len())
	for i := range y {
		if c.IsNull(i) {
			return nil, fmt.Errorf("%w %q (target, row %d)", ErrNullValue, c.Name, i)
		}
		s := ""
		if c.Kind == Numeric {
			s = FormatLabel(c.Num[i])
		} else {
			s = c.Str[i]
		}
		k, ok := index[s]
		if !ok {
			k = -1
		}
		y[i] = k
	}
	return y, nil
}

// numericTarget checks a regression target and returns its values.
func numericTarget(c *Column) ([]float64, error) {
	if c.Kind != Numeric {
		return nil, fmt.Errorf("%w: %q is %v", ErrTargetType, c.Name, c.Kind)
	}
	for i := range c.Num {
		if c.IsNull(i) {
			return nil, fmt.Errorf("%w %q (target, row %d)", ErrNullValue, c.Name, i)
		}
		if math.IsNaN(c.Num[i]) || math.IsInf(c.Num[i], 0) {
			return nil, fmt.Errorf("%w: target %q row %d is %v", ErrTargetType, c.Name, i, c.Num[i])
		}
	}
	return c.Num, nil
}
