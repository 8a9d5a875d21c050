package refdata

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"

	"github.com/sqlearn/sqlearn/ml"
)

// ErrNoReference means the Python reference (python3 with numpy and
// scikit-learn) is not available.
var ErrNoReference = errors.New("refdata: python3 with scikit-learn not available (set SQLEARN_PYTHON)")

// Spec describes one reference run: the algorithm as ml names it, the
// task, hyperparameters in scikit-learn's spelling, the row indices of
// the split, and how many timed fits to make.
type Spec struct {
	Algorithm string
	Task      string
	Params    map[string]any
	Train     []int
	Test      []int
	Repeats   int
	// WithEncoders also times the fit from the raw columns with
	// scikit-learn's transformers (Result.PipelineSeconds).
	WithEncoders bool
}

// Result is what the reference reports: fit times in seconds, test-set
// metrics by name, and linear coefficients in the encoded column order.
// FitSeconds times the estimator's fit on columns encoded beforehand;
// PipelineSeconds times the same fit from the raw columns with
// scikit-learn's imputers, scaler and encoders fitted in the timed region,
// as ml.Train fits its encoders.
type Result struct {
	FitSeconds      []float64          `json:"fit_seconds"`
	PipelineSeconds []float64          `json:"pipeline_seconds"`
	Metrics         map[string]float64 `json:"metrics"`
	Coef            []float64          `json:"coef"`
	Intercept       float64            `json:"intercept"`
}

// Python is the interpreter used for references: $SQLEARN_PYTHON, else
// /usr/bin/python3 (the system one, which has scikit-learn).
func Python() (string, error) {
	py := os.Getenv("SQLEARN_PYTHON")
	if py == "" {
		py = "/usr/bin/python3"
	}
	if err := exec.Command(py, "-c", "import sklearn, numpy").Run(); err != nil {
		return "", fmt.Errorf("%w: %s: %v", ErrNoReference, py, err)
	}
	return py, nil
}

type jsonColumn struct {
	Name   string `json:"name"`
	Kind   string `json:"kind"`
	Values []any  `json:"values"`
}

func toJSON(c *ml.Column) jsonColumn {
	out := jsonColumn{Name: c.Name, Kind: "numeric", Values: make([]any, c.Len())}
	if c.Kind == ml.Categorical {
		out.Kind = "categorical"
	}
	for i := range out.Values {
		switch {
		case c.IsNull(i):
		case c.Kind == ml.Categorical:
			out.Values[i] = c.Str[i]
		default:
			out.Values[i] = c.Num[i]
		}
	}
	return out
}

// refProc is the long-lived reference interpreter shared by all callers
// in this process.
var refProc struct {
	sync.Mutex
	started bool
	err     error
	in      io.WriteCloser
	out     *bufio.Reader
	stderr  bytes.Buffer
}

func startReference() error {
	if refProc.started {
		return refProc.err
	}
	refProc.started = true
	py, err := Python()
	if err != nil {
		refProc.err = err
		return err
	}
	_, self, _, _ := runtime.Caller(0)
	script := filepath.Join(filepath.Dir(self), "sklearn_ref.py")
	cmd := exec.Command(py, script)
	cmd.Env = append(os.Environ(), "PYTHONWARNINGS=ignore")
	cmd.Stderr = &refProc.stderr
	in, err := cmd.StdinPipe()
	if err == nil {
		var out io.ReadCloser
		if out, err = cmd.StdoutPipe(); err == nil {
			refProc.in, refProc.out = in, bufio.NewReaderSize(out, 1<<16)
			err = cmd.Start()
		}
	}
	if err != nil {
		refProc.err = fmt.Errorf("refdata: starting %s: %v", script, err)
	}
	return refProc.err
}

// Reference runs the scikit-learn (or numpy) reference on d with spec.
// The interpreter starts on first use and serves every later call.
func Reference(d *ml.Dataset, spec Spec) (*Result, error) {
	body := map[string]any{
		"algorithm": spec.Algorithm, "task": spec.Task, "params": spec.Params,
		"train": spec.Train, "test": spec.Test, "repeats": max(spec.Repeats, 1),
		"with_encoders": spec.WithEncoders,
	}
	cols := make([]jsonColumn, len(d.Features))
	for i := range d.Features {
		cols[i] = toJSON(&d.Features[i])
	}
	body["columns"] = cols
	if d.Target != nil {
		body["target"] = toJSON(d.Target)
	}
	f, err := os.CreateTemp("", "sqlearn-ref-*.json")
	if err != nil {
		return nil, err
	}
	defer os.Remove(f.Name())
	if err := json.NewEncoder(f).Encode(body); err != nil {
		f.Close()
		return nil, err
	}
	f.Close()

	refProc.Lock()
	defer refProc.Unlock()
	if err := startReference(); err != nil {
		return nil, err
	}
	if _, err := fmt.Fprintln(refProc.in, f.Name()); err != nil {
		return nil, fmt.Errorf("refdata: reference process: %v\n%s", err, refProc.stderr.String())
	}
	line, err := refProc.out.ReadBytes('\n')
	if err != nil {
		return nil, fmt.Errorf("refdata: reference process: %v\n%s", err, refProc.stderr.String())
	}
	var res struct {
		Result
		Error string `json:"error"`
	}
	if err := json.Unmarshal(line, &res); err != nil {
		return nil, fmt.Errorf("refdata: reading reference output: %v", err)
	}
	if res.Error != "" {
		return nil, fmt.Errorf("refdata: reference failed: %s", res.Error)
	}
	return &res.Result, nil
}

// MedianSeconds is the median of the reference's fit times.
func (r *Result) MedianSeconds() float64 { return Median(r.FitSeconds) }

// MedianPipelineSeconds is the median of the reference's fit times with
// its encoders fitted in the timed region.
func (r *Result) MedianPipelineSeconds() float64 { return Median(r.PipelineSeconds) }

// Median of a sample (NaN when empty).
func Median(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	s := append([]float64(nil), v...)
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
