package gpu

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"time"
)

// profileKeyer lets a device name the hardware behind it in more detail
// than Name, so a cached profile is not reused on a different card.
type profileKeyer interface{ profileKey() string }

// ProfileKey identifies d, the BLAS and the processor count: a profile
// measured under one key says nothing about another.
func ProfileKey(d Device) string {
	name := d.Name()
	if k, ok := d.(profileKeyer); ok {
		name = k.profileKey()
	}
	return fmt.Sprintf("%s|blas=%s|%s|procs=%d", name, BLASName(), runtime.GOARCH, runtime.GOMAXPROCS(0))
}

// CalibrateOptions sizes the calibration runs. The defaults take well
// under a second on each device; tests shrink them.
type CalibrateOptions struct {
	GemmN    int           // side of the square GEMM timed for the rate
	StreamN  int           // elements of the element-wise runs
	SparseN  int           // side of the sparse operand (1% dense)
	CopyN    int           // float64 elements per timed copy
	MinTime  time.Duration // each measurement repeats until this long
	ResidGem int           // GEMM side on a Resident device, where it is fast
}

// DefaultCalibrateOptions suits a start-up calibration.
func DefaultCalibrateOptions() CalibrateOptions {
	return CalibrateOptions{GemmN: 256, StreamN: 1 << 20, SparseN: 2000, CopyN: 1 << 23, MinTime: 20 * time.Millisecond, ResidGem: 2048}
}

// Calibrate measures d with short runs. A Resident device is timed on its
// own buffers, so kernel and copy speeds come apart; any other device is
// taken to share host memory and is timed through its host-slice methods.
func Calibrate(d Device, o CalibrateOptions) (Profile, error) {
	p := Profile{Key: ProfileKey(d)}
	if r, ok := d.(Resident); ok {
		if err := calibrateResident(d, r, o, &p); err != nil {
			return Profile{}, err
		}
	} else {
		calibrateHost(d, o, &p)
	}
	if !p.valid() {
		return Profile{}, fmt.Errorf("%w: calibration of %s gave %+v", ErrProfile, d.Name(), p)
	}
	return p, nil
}

// timeIt returns the mean duration of fn in seconds, after one warm-up
// call, repeating until at least min has passed.
func timeIt(min time.Duration, fn func() error) (float64, error) {
	if err := fn(); err != nil {
		return 0, err
	}
	start := time.Now()
	reps := 0
	for {
		if err := fn(); err != nil {
			return 0, err
		}
		reps++
		if el := time.Since(start); el >= min {
			return el.Seconds() / float64(reps), nil
		}
	}
}

func mustTime(min time.Duration, fn func()) float64 {
	s, _ := timeIt(min, func() error { fn(); return nil })
	return s
}

// randomCSR builds an n×n matrix with about one percent of entries set.
func randomCSR(n int) CSR {
	s := CSR{Rows: n, Cols: n, Indptr: make([]int, n+1)}
	seed := uint64(7)
	for i := range n {
		for j := range n {
			seed = seed*6364136223846793005 + 1442695040888963407
			if seed>>57 == 0 { // 1 in 128
				s.Indices = append(s.Indices, int32(j))
				s.Values = append(s.Values, float64(seed>>40)/(1<<24))
			}
		}
		s.Indptr[i+1] = len(s.Values)
	}
	return s
}

func filled(n int) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = 1 + float64(i%17)/16
	}
	return x
}

func calibrateHost(d Device, o CalibrateOptions, p *Profile) {
	one := []float64{1}
	p.Overhead = mustTime(o.MinTime, func() { d.Binary(Add, one, one, one) })

	n := o.GemmN
	a, c := filled(n*n), make([]float64, n*n)
	t := mustTime(o.MinTime, func() { d.Gemm(false, false, n, n, n, 1, a, n, a, n, 0, c, n) })
	p.GemmRate = 2 * float64(n) * float64(n) * float64(n) / t
	p.SgemmRate = p.GemmRate
	if s, ok := d.(Sgemmer); ok {
		a32, c32 := make([]float32, n*n), make([]float32, n*n)
		for i := range a32 {
			a32[i] = float32(a[i])
		}
		t := mustTime(o.MinTime, func() { s.Sgemm(false, false, n, n, n, 1, a32, n, a32, n, 0, c32, n) })
		p.SgemmRate = 2 * float64(n) * float64(n) * float64(n) / t
	}

	x, y := filled(o.StreamN), filled(o.StreamN)
	t = mustTime(o.MinTime, func() { d.Binary(Add, x, x, y) })
	p.StreamRate = 24 * float64(o.StreamN) / t

	sp := randomCSR(o.SparseN)
	const cols = 32
	b, out := filled(o.SparseN*cols), make([]float64, o.SparseN*cols)
	t = mustTime(o.MinTime, func() { d.SpMM(sp, b, cols, out) })
	p.SparseRate = 2 * float64(len(sp.Values)) * cols / t
}

func calibrateResident(d Device, r Resident, o CalibrateOptions, p *Profile) (err error) {
	var bufs []Buffer
	alloc := func(e Elem, n int) Buffer {
		if err != nil {
			return nil
		}
		var b Buffer
		if b, err = r.Alloc(e, n); err == nil {
			bufs = append(bufs, b)
		}
		return b
	}
	defer func() {
		for _, b := range bufs {
			if ferr := r.Free(b); err == nil {
				err = ferr
			}
		}
	}()
	timed := func(fn func() error) float64 {
		if err != nil {
			return 0
		}
		var s float64
		s, err = timeIt(o.MinTime, func() error {
			if err := fn(); err != nil {
				return err
			}
			return r.Sync()
		})
		return s
	}

	host := filled(o.CopyN)
	big, one := alloc(F64, o.CopyN), alloc(F64, 1)
	if err != nil {
		return err
	}
	p.CopyDelay = timed(func() error { return r.CopyIn(one, host[:1]) })
	tIn := timed(func() error { return r.CopyIn(big, host) })
	tOut := timed(func() error { return r.CopyOut(host, big) })
	p.CopyRate = 16 * float64(o.CopyN) / (tIn + tOut)
	p.Overhead = timed(func() error { return r.UnaryBuf(Scale, 1, one, one) })

	n := o.ResidGem
	a, c := alloc(F64, n*n), alloc(F64, n*n)
	a32, c32 := alloc(F32, n*n), alloc(F32, n*n)
	if err != nil {
		return err
	}
	// Uninitialised memory may hold NaNs or subnormals, which some
	// hardware runs slower, so the timed operands are filled.
	fill := filled(n * n)
	fill32 := make([]float32, n*n)
	for i, v := range fill {
		fill32[i] = float32(v)
	}
	if err = r.CopyIn(a, fill); err == nil {
		err = r.CopyIn32(a32, fill32)
	}
	if err != nil {
		return err
	}
	flops := 2 * float64(n) * float64(n) * float64(n)
	p.GemmRate = flops / timed(func() error { return r.GemmBuf(false, false, n, n, n, 1, a, n, a, n, 0, c, n) })
	p.SgemmRate = flops / timed(func() error { return r.GemmBuf(false, false, n, n, n, 1, a32, n, a32, n, 0, c32, n) })

	x := alloc(F64, o.CopyN)
	p.StreamRate = 24 * float64(o.CopyN) / timed(func() error { return r.BinaryBuf(Add, x, x, big) })

	// Sparse kernels take host CSR operands, so their rate is what remains
	// of a host call once the modelled copies are taken off.
	sp := randomCSR(o.SparseN)
	const cols = 32
	b, out := filled(o.SparseN*cols), make([]float64, o.SparseN*cols)
	t := timed(func() error { d.SpMM(sp, b, cols, out); return nil })
	if err != nil {
		return err
	}
	op := Op{Kind: OpSpMM, M: sp.Rows, K: sp.Cols, N: cols, NNZ: len(sp.Values)}
	t -= p.Estimate(op).Transfer.Seconds()
	p.SparseRate = op.flops() / max(t, p.Overhead, 1e-9)
	return err
}

// profileFile is the on-disk cache: one profile per key, so a host that
// runs several builds or devices keeps them all.
type profileFile struct {
	Version  int       `json:"version"`
	Profiles []Profile `json:"profiles"`
}

const profileFileVersion = 1

// LoadProfile returns the cached profile for d's key in the file at path.
func LoadProfile(path string, d Device) (Profile, bool) {
	f, err := readProfiles(path)
	if err != nil {
		return Profile{}, false
	}
	key := ProfileKey(d)
	for _, p := range f.Profiles {
		if p.Key == key && p.valid() {
			return p, true
		}
	}
	return Profile{}, false
}

func readProfiles(path string) (profileFile, error) {
	var f profileFile
	data, err := os.ReadFile(path)
	if err != nil {
		return f, err
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return profileFile{}, fmt.Errorf("%w: %s: %v", ErrProfile, path, err)
	}
	if f.Version != profileFileVersion {
		return profileFile{}, fmt.Errorf("%w: %s: version %d", ErrProfile, path, f.Version)
	}
	return f, nil
}

// SaveProfile records p in the file at path, replacing any profile with the
// same key and keeping the rest. The file is replaced atomically so a crash
// leaves either the old cache or the new one.
func SaveProfile(path string, p Profile) error {
	f, err := readProfiles(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, ErrProfile) {
		return err
	}
	f.Version = profileFileVersion
	kept := f.Profiles[:0]
	for _, q := range f.Profiles {
		if q.Key != p.Key {
			kept = append(kept, q)
		}
	}
	f.Profiles = append(kept, p)
	data, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".profile-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// LoadOrCalibrate returns d's cached profile from path, or calibrates d
// and caches the result. An unreadable cache is recalibrated over rather
// than trusted; a cache that cannot be written still yields the profile.
func LoadOrCalibrate(path string, d Device, o CalibrateOptions) (Profile, error) {
	if p, ok := LoadProfile(path, d); ok {
		return p, nil
	}
	p, err := Calibrate(d, o)
	if err != nil {
		return Profile{}, err
	}
	if path != "" {
		if err := SaveProfile(path, p); err != nil {
			return p, fmt.Errorf("%w: caching in %s: %v", ErrProfile, path, err)
		}
	}
	return p, nil
}
