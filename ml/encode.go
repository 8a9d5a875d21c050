package ml

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
)

// FormatVersion is the model encoding's version (docs/format/model.md).
// It only moves forward; Decode refuses versions it does not know.
const FormatVersion = 1

var modelMagic = [4]byte{'S', 'Q', 'L', 'M'}

// Estimator kinds in the encoding.
const (
	kindLinear        = 1
	kindLogistic      = 2
	kindKMeans        = 3
	kindBayes         = 4
	kindTree          = 5
	kindBoosted       = 6
	kindFactorization = 7
)

type writer struct{ b []byte }

func (w *writer) u8(v uint8)    { w.b = append(w.b, v) }
func (w *writer) u32(v int)     { w.b = binary.LittleEndian.AppendUint32(w.b, uint32(v)) }
func (w *writer) f64(v float64) { w.b = binary.LittleEndian.AppendUint64(w.b, math.Float64bits(v)) }
func (w *writer) str(s string)  { w.u32(len(s)); w.b = append(w.b, s...) }
func (w *writer) bool(v bool) {
	if v {
		w.u8(1)
	} else {
		w.u8(0)
	}
}
func (w *writer) f64s(v []float64) {
	w.u32(len(v))
	for _, x := range v {
		w.f64(x)
	}
}
func (w *writer) i32s(v []int32) {
	w.u32(len(v))
	for _, x := range v {
		w.b = binary.LittleEndian.AppendUint32(w.b, uint32(x))
	}
}

// Encode serialises a model with its preprocessing and labels.
func Encode(m *Model) []byte {
	w := &writer{b: append([]byte(nil), modelMagic[:]...)}
	w.b = binary.LittleEndian.AppendUint16(w.b, FormatVersion)
	w.u8(uint8(m.task))
	w.str(string(m.algorithm))
	w.str(m.target)
	p := m.prep
	w.u8(uint8(p.Encoding))
	w.bool(p.Standardize)
	w.bool(p.DropFirst)
	w.u8(uint8(p.Nulls))
	w.u32(len(p.Features))
	for _, f := range p.Features {
		w.str(f.Name)
		w.u8(uint8(f.Kind))
		w.f64(f.Fill)
		w.f64(f.Center)
		w.f64(f.Scale)
		w.u32(len(f.Levels))
		for _, l := range f.Levels {
			w.str(l)
		}
		w.u32(f.FillLevel)
	}
	w.bool(m.labels.Numeric)
	w.u32(len(m.labels.Classes))
	for _, c := range m.labels.Classes {
		w.str(c)
	}
	switch e := m.est.(type) {
	case *Linear:
		w.u8(kindLinear)
		w.f64s(e.Coef)
		w.f64(e.Intercept)
	case *Logistic:
		w.u8(kindLogistic)
		w.u32(e.Classes)
		w.u32(e.P)
		w.f64s(e.Coef)
		w.f64s(e.Intercept)
		w.u32(e.Iter)
	case *KMeansModel:
		w.u8(kindKMeans)
		w.u32(e.K)
		w.u32(e.Dim)
		w.f64s(e.Centers)
		w.f64(e.Inertia)
		w.u32(e.Iter)
	case *Bayes:
		w.u8(kindBayes)
		w.u32(e.Classes)
		w.f64s(e.LogPrior)
		w.u32(len(e.Categorical))
		for _, c := range e.Categorical {
			w.bool(c)
		}
		w.f64s(e.Mean)
		w.f64s(e.Var)
		for _, lp := range e.LogProb {
			w.f64s(lp)
		}
	case *Tree:
		w.u8(kindTree)
		w.tree(e)
	case *Boosted:
		w.u8(kindBoosted)
		w.u32(e.Classes)
		w.u32(e.Outputs)
		w.f64s(e.Init)
		w.f64(e.LearningRate)
		w.u32(len(e.Trees))
		for _, t := range e.Trees {
			w.tree(t)
		}
	case *Factorization:
		w.u8(kindFactorization)
		w.u32(e.Rank)
		w.f64(e.Mean)
		w.u32(e.Users)
		w.u32(e.Items)
		w.f64s(e.U)
		w.f64s(e.V)
	default:
		panic(fmt.Sprintf("ml: Encode: unknown estimator %T", m.est))
	}
	return w.b
}

func (w *writer) tree(t *Tree) {
	w.u32(t.Outputs)
	w.i32s(t.Feature)
	w.f64s(t.Threshold)
	w.i32s(t.Left)
	w.i32s(t.Right)
	w.f64s(t.Value)
}

// reader decodes with bounds checks; the first failure sticks, so callers
// check err once at the end of a section.
type reader struct {
	b   []byte
	err error
}

func (r *reader) fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("%w: "+format, append([]any{ErrFormat}, args...)...)
	}
}

func (r *reader) take(n int) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 || n > len(r.b) {
		r.fail("truncated")
		return nil
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}

func (r *reader) u8() uint8 {
	if b := r.take(1); b != nil {
		return b[0]
	}
	return 0
}

func (r *reader) u32() int {
	if b := r.take(4); b != nil {
		return int(binary.LittleEndian.Uint32(b))
	}
	return 0
}

func (r *reader) f64() float64 {
	if b := r.take(8); b != nil {
		return math.Float64frombits(binary.LittleEndian.Uint64(b))
	}
	return 0
}

func (r *reader) bool() bool {
	v := r.u8()
	if v > 1 {
		r.fail("boolean byte %d", v)
	}
	return v == 1
}

// count reads a length and checks that that many elements of size bytes
// can still follow, so a forged length cannot force a huge allocation.
func (r *reader) count(size int) int {
	n := r.u32()
	if r.err == nil && n > len(r.b)/size {
		r.fail("length %d exceeds the remaining %d bytes", n, len(r.b))
		return 0
	}
	return n
}

func (r *reader) str() string { return string(r.take(r.count(1))) }

func (r *reader) f64s() []float64 {
	n := r.count(8)
	out := make([]float64, n)
	for i := range out {
		out[i] = r.f64()
	}
	return out
}

func (r *reader) i32s() []int32 {
	n := r.count(4)
	out := make([]int32, n)
	for i := range out {
		out[i] = int32(r.u32())
	}
	return out
}

// Decode reads a model written by Encode. It validates every length and
// index a prediction would use, so bytes from an untrusted source yield
// an error wrapping ErrFormat, never a panic or a model that panics.
func Decode(b []byte) (*Model, error) {
	r := &reader{b: b}
	magic := r.take(4)
	if r.err != nil || [4]byte(magic) != modelMagic {
		return nil, fmt.Errorf("%w: not a model (bad magic)", ErrFormat)
	}
	vb := r.take(2)
	if r.err != nil {
		return nil, r.err
	}
	if v := binary.LittleEndian.Uint16(vb); v != FormatVersion {
		return nil, fmt.Errorf("%w: %d (this build reads %d)", ErrFormatVersion, v, FormatVersion)
	}
	m := &Model{task: Task(r.u8()), algorithm: Algorithm(r.str()), target: r.str()}
	p := &preprocessor{Encoding: catEncoding(r.u8()), Standardize: r.bool(), DropFirst: r.bool(), Nulls: NullPolicy(r.u8())}
	nf := r.count(1)
	for i := 0; i < nf && r.err == nil; i++ {
		f := feature{Name: r.str(), Kind: Kind(r.u8()), Fill: r.f64(), Center: r.f64(), Scale: r.f64()}
		nl := r.count(4)
		for j := 0; j < nl && r.err == nil; j++ {
			f.Levels = append(f.Levels, r.str())
		}
		f.FillLevel = r.u32()
		p.Features = append(p.Features, f)
	}
	m.labels.Numeric = r.bool()
	nc := r.count(4)
	for i := 0; i < nc && r.err == nil; i++ {
		m.labels.Classes = append(m.labels.Classes, r.str())
	}
	kind := r.u8()
	if r.err != nil {
		return nil, r.err
	}
	m.prep = p
	if err := m.checkHeader(); err != nil {
		return nil, err
	}
	var err error
	switch kind {
	case kindLinear:
		m.est, err = decodeLinear(r, m)
	case kindLogistic:
		m.est, err = decodeLogistic(r, m)
	case kindKMeans:
		m.est, err = decodeKMeans(r, m)
	case kindBayes:
		m.est, err = decodeBayes(r, m)
	case kindTree:
		var t *Tree
		t = r.tree()
		if r.err == nil {
			err = checkTree(t, p.Width(), max(len(m.labels.Classes), 1))
		}
		m.est = t
	case kindBoosted:
		m.est, err = decodeBoosted(r, m)
	case kindFactorization:
		m.est, err = decodeFactorization(r, m)
	default:
		return nil, fmt.Errorf("%w: estimator kind %d", ErrFormat, kind)
	}
	if err == nil {
		err = r.err
	}
	if err == nil && len(r.b) != 0 {
		err = fmt.Errorf("%w: %d trailing bytes", ErrFormat, len(r.b))
	}
	if err != nil {
		return nil, err
	}
	if algorithmKind[m.algorithm] != kind || !slices.Contains(algorithmTasks[m.algorithm], m.task) {
		return nil, fmt.Errorf("%w: algorithm %s, task %v, estimator kind %d", ErrFormat, m.algorithm, m.task, kind)
	}
	p.finish()
	return m, nil
}

var algorithmKind = map[Algorithm]uint8{
	LinearRegression: kindLinear, Ridge: kindLinear, LogisticRegression: kindLogistic,
	KMeans: kindKMeans, NaiveBayes: kindBayes, DecisionTree: kindTree,
	GradientBoosting: kindBoosted, ALS: kindFactorization,
}

func formatErr(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrFormat}, args...)...)
}

// checkHeader validates the parts shared by every model.
func (m *Model) checkHeader() error {
	if _, ok := taskNames[m.task]; !ok {
		return formatErr("task %d", m.task)
	}
	if _, ok := algorithmKind[m.algorithm]; !ok {
		return formatErr("algorithm %q", m.algorithm)
	}
	p := m.prep
	if p.Encoding < oneHot || p.Encoding > idIndex || p.Nulls > NullReject {
		return formatErr("encoding %d, null policy %d", p.Encoding, p.Nulls)
	}
	if len(p.Features) == 0 {
		return formatErr("no features")
	}
	seen := map[string]bool{}
	for _, f := range p.Features {
		if seen[f.Name] {
			return formatErr("duplicate feature %q", f.Name)
		}
		seen[f.Name] = true
		switch f.Kind {
		case Numeric:
			if len(f.Levels) != 0 {
				return formatErr("numeric feature %q has levels", f.Name)
			}
		case Categorical:
			if len(f.Levels) == 0 || f.FillLevel >= len(f.Levels) {
				return formatErr("categorical feature %q: %d levels, fill %d", f.Name, len(f.Levels), f.FillLevel)
			}
		default:
			return formatErr("feature %q kind %d", f.Name, f.Kind)
		}
	}
	if p.Width() < 1 {
		return formatErr("no encoded columns")
	}
	if m.task == Classification && len(m.labels.Classes) < 2 {
		return formatErr("classifier with %d classes", len(m.labels.Classes))
	}
	if m.task != Classification && len(m.labels.Classes) != 0 {
		return formatErr("%v model with class labels", m.task)
	}
	return nil
}

func wantLen(what string, got, want int) error {
	if got != want {
		return formatErr("%s has %d values, want %d", what, got, want)
	}
	return nil
}

func decodeLinear(r *reader, m *Model) (estimator, error) {
	l := &Linear{Coef: r.f64s(), Intercept: r.f64()}
	if r.err != nil {
		return nil, r.err
	}
	return l, wantLen("coefficients", len(l.Coef), m.prep.Width())
}

func decodeLogistic(r *reader, m *Model) (estimator, error) {
	l := &Logistic{Classes: r.u32(), P: r.u32(), Coef: r.f64s(), Intercept: r.f64s(), Iter: r.u32()}
	if r.err != nil {
		return nil, r.err
	}
	rows := l.Classes
	if rows == 2 {
		rows = 1
	}
	if l.Classes != len(m.labels.Classes) || l.P != m.prep.Width() {
		return nil, formatErr("logistic shape %d×%d", l.Classes, l.P)
	}
	if err := wantLen("intercepts", len(l.Intercept), rows); err != nil {
		return nil, err
	}
	return l, wantLen("coefficients", len(l.Coef), rows*l.P)
}

func decodeKMeans(r *reader, m *Model) (estimator, error) {
	k := &KMeansModel{K: r.u32(), Dim: r.u32(), Centers: r.f64s(), Inertia: r.f64(), Iter: r.u32()}
	if r.err != nil {
		return nil, r.err
	}
	if k.K < 1 || k.Dim != m.prep.Width() {
		return nil, formatErr("k-means shape %d×%d", k.K, k.Dim)
	}
	return k, wantLen("centres", len(k.Centers), k.K*k.Dim)
}

func decodeBayes(r *reader, m *Model) (estimator, error) {
	b := &Bayes{Classes: r.u32(), LogPrior: r.f64s()}
	p := m.prep.Width()
	n := r.count(1)
	if r.err != nil {
		return nil, r.err
	}
	if n != p || m.prep.Encoding != ordinal || b.Classes != len(m.labels.Classes) {
		return nil, formatErr("naive Bayes over %d columns, %d classes", n, b.Classes)
	}
	b.Categorical = make([]bool, n)
	for j := range b.Categorical {
		b.Categorical[j] = r.bool()
	}
	b.Mean, b.Var = r.f64s(), r.f64s()
	b.LogProb = make([][]float64, n)
	for j := range b.LogProb {
		b.LogProb[j] = r.f64s()
	}
	if r.err != nil {
		return nil, r.err
	}
	if err := wantLen("log priors", len(b.LogPrior), b.Classes); err != nil {
		return nil, err
	}
	if len(b.Mean) != b.Classes*p || len(b.Var) != b.Classes*p {
		return nil, formatErr("naive Bayes moments")
	}
	for j, f := range m.prep.Features {
		if b.Categorical[j] != (f.Kind == Categorical) {
			return nil, formatErr("naive Bayes column %d kind", j)
		}
		want := 0
		if b.Categorical[j] {
			want = b.Classes * len(f.Levels)
		}
		if err := wantLen("category log-probabilities", len(b.LogProb[j]), want); err != nil {
			return nil, err
		}
	}
	return b, nil
}

func (r *reader) tree() *Tree {
	return &Tree{Outputs: r.u32(), Feature: r.i32s(), Threshold: r.f64s(), Left: r.i32s(), Right: r.i32s(), Value: r.f64s()}
}

// checkTree makes every walk from the root end at a leaf inside the
// arrays: children must come after their parent, which also rules out
// cycles.
func checkTree(t *Tree, width, outputs int) error {
	n := len(t.Feature)
	if n == 0 || t.Outputs != outputs || len(t.Threshold) != n || len(t.Left) != n || len(t.Right) != n || len(t.Value) != n*outputs {
		return formatErr("tree arrays")
	}
	for i := 0; i < n; i++ {
		if t.Feature[i] < 0 {
			continue
		}
		if int(t.Feature[i]) >= width || int(t.Left[i]) <= i || int(t.Right[i]) <= i || int(t.Left[i]) >= n || int(t.Right[i]) >= n {
			return formatErr("tree node %d", i)
		}
	}
	return nil
}

func decodeBoosted(r *reader, m *Model) (estimator, error) {
	b := &Boosted{Classes: r.u32(), Outputs: r.u32(), Init: r.f64s(), LearningRate: r.f64()}
	nt := r.count(4)
	for i := 0; i < nt && r.err == nil; i++ {
		b.Trees = append(b.Trees, r.tree())
	}
	if r.err != nil {
		return nil, r.err
	}
	want := 1
	if b.Classes > 2 {
		want = b.Classes
	}
	if b.Classes != len(m.labels.Classes) || b.Outputs != want || len(b.Init) != want || nt%want != 0 {
		return nil, formatErr("boosted shape")
	}
	for _, t := range b.Trees {
		if err := checkTree(t, m.prep.Width(), 1); err != nil {
			return nil, err
		}
	}
	return b, nil
}

func decodeFactorization(r *reader, m *Model) (estimator, error) {
	f := &Factorization{Rank: r.u32(), Mean: r.f64(), Users: r.u32(), Items: r.u32(), U: r.f64s(), V: r.f64s()}
	if r.err != nil {
		return nil, r.err
	}
	p := m.prep
	if p.Encoding != idIndex || len(p.Features) != 2 || f.Rank < 1 ||
		f.Users != len(p.Features[0].Levels) || f.Items != len(p.Features[1].Levels) {
		return nil, formatErr("factorisation shape")
	}
	if len(f.U) != f.Users*f.Rank || len(f.V) != f.Items*f.Rank {
		return nil, formatErr("factor sizes")
	}
	return f, nil
}
