// Package refdata loads the shared public reference datasets (the folder
// described in the shared datasets README, found through SQLEARN_DATASETS
// or as ../shared/datasets beside the repository root) into ml.Dataset
// values, for the ml package's tests against scikit-learn and for
// bench/. It reads files only; it must not import SQL or storage code.
package refdata

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/sqlearn/sqlearn/ml"
)

var (
	ErrNoDatasets = errors.New("refdata: datasets folder not found (set SQLEARN_DATASETS)")
	ErrUnknown    = errors.New("refdata: unknown dataset")
	ErrParse      = errors.New("refdata: malformed dataset file")
)

// Dir finds the datasets folder: $SQLEARN_DATASETS, else
// ../shared/datasets relative to the repository root (the nearest parent
// of the working directory holding go.mod).
func Dir() (string, error) {
	if d := os.Getenv("SQLEARN_DATASETS"); d != "" {
		if _, err := os.Stat(d); err != nil {
			return "", fmt.Errorf("%w: %v", ErrNoDatasets, err)
		}
		return d, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			d := filepath.Join(dir, "..", "shared", "datasets")
			if _, err := os.Stat(d); err != nil {
				return "", fmt.Errorf("%w: %s", ErrNoDatasets, d)
			}
			return d, nil
		}
		if filepath.Dir(dir) == dir {
			return "", ErrNoDatasets
		}
	}
}

// Names lists the datasets Load knows.
var Names = []string{"iris", "breast_cancer", "wine", "digits", "diabetes", "california",
	"adult", "higgs-train", "higgs-test", "movielens"}

// Load reads one dataset by name. Targets are numeric except adult's
// income label; sklearn-format files name their features x0, x1, ...;
// movielens has numeric features "user" and "item" and target "rating".
func Load(name string) (*ml.Dataset, error) {
	dir, err := Dir()
	if err != nil {
		return nil, err
	}
	tab := func(f string) string { return filepath.Join(dir, "tabular", f) }
	switch name {
	case "iris":
		return sklearnCSV(tab("iris.csv"))
	case "breast_cancer":
		return sklearnCSV(tab("breast_cancer.csv"))
	case "wine":
		return sklearnCSV(tab("wine_data.csv"))
	case "digits":
		return delimited(tab("digits.csv.gz"), ",", false, -1, nil, nil)
	case "diabetes":
		d, err := delimited(tab("diabetes_data_raw.csv.gz"), " ", false, -2, nil, nil)
		if err != nil {
			return nil, err
		}
		t, err := delimited(tab("diabetes_target.csv.gz"), " ", false, -2, nil, nil)
		if err != nil {
			return nil, err
		}
		y := t.Features[0]
		y.Name = "target"
		d.Target = &y
		return d, d.Validate()
	case "california":
		return delimited(tab("california-housing.csv"), ",", true, 8, nil, map[int]bool{9: true})
	case "adult":
		names := []string{"age", "workclass", "fnlwgt", "education", "education_num",
			"marital_status", "occupation", "relationship", "race", "sex",
			"capital_gain", "capital_loss", "hours_per_week", "native_country", "income"}
		cats := map[int]bool{1: true, 3: true, 5: true, 6: true, 7: true, 8: true, 9: true, 13: true, 14: true}
		return delimited(tab("adult.data.csv"), ", ", false, 14, names, cats)
	case "higgs-train":
		return delimited(tab("higgs-7k.train.tsv"), "\t", false, 0, nil, nil)
	case "higgs-test":
		return delimited(tab("higgs-500.test.tsv"), "\t", false, 0, nil, nil)
	case "movielens":
		d, err := delimited(filepath.Join(dir, "movielens-small", "ratings.csv"), ",", true, 2, nil, nil)
		if err != nil {
			return nil, err
		}
		d.Features = d.Features[:2]
		d.Features[0].Name, d.Features[1].Name, d.Target.Name = "user", "item", "rating"
		return d, nil
	}
	return nil, fmt.Errorf("%w: %q", ErrUnknown, name)
}

func open(path string) (io.ReadCloser, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	if !strings.HasSuffix(path, ".gz") {
		return f, nil
	}
	z, err := gzip.NewReader(f)
	if err != nil {
		f.Close()
		return nil, err
	}
	return struct {
		io.Reader
		io.Closer
	}{z, f}, nil
}

// sklearnCSV reads scikit-learn's bundled csv layout: a first line
// "n_samples,n_features,class names...", then features and an integer
// class per row.
func sklearnCSV(path string) (*ml.Dataset, error) {
	return delimitedSkip(path, ",", 1, -1, nil, nil)
}

// delimited reads a separated text file. target is the target column's
// index (-1: last, -2: none); header says whether line one names columns
// (they override names); cats marks text columns. Empty numeric fields are
// NULL.
func delimited(path, sep string, header bool, target int, names []string, cats map[int]bool) (*ml.Dataset, error) {
	skip := 0
	if header {
		skip = -1
	}
	return delimitedSkip(path, sep, skip, target, names, cats)
}

func delimitedSkip(path, sep string, skip, target int, names []string, cats map[int]bool) (*ml.Dataset, error) {
	rc, err := open(path)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	sc := bufio.NewScanner(rc)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var cols []ml.Column
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimRight(sc.Text(), "\r ")
		if text == "" {
			continue
		}
		var fields []string
		if sep == " " {
			fields = strings.Fields(text)
		} else {
			fields = strings.Split(text, sep)
		}
		if skip == -1 && line == 1 {
			names = fields
			continue
		}
		if line <= skip {
			continue
		}
		if cols == nil {
			cols = make([]ml.Column, len(fields))
			for j := range cols {
				name := fmt.Sprintf("x%d", j)
				if j < len(names) {
					name = names[j]
				}
				kind := ml.Numeric
				if cats[j] {
					kind = ml.Categorical
				}
				cols[j] = ml.Column{Name: name, Kind: kind, Null: []bool{}}
			}
		}
		if len(fields) != len(cols) {
			return nil, fmt.Errorf("%w: %s line %d has %d fields, want %d", ErrParse, path, line, len(fields), len(cols))
		}
		for j, f := range fields {
			c := &cols[j]
			null := f == ""
			c.Null = append(c.Null, null)
			if c.Kind == ml.Categorical {
				c.Str = append(c.Str, f)
				continue
			}
			v := 0.0
			if !null {
				if v, err = strconv.ParseFloat(f, 64); err != nil {
					return nil, fmt.Errorf("%w: %s line %d: %v", ErrParse, path, line, err)
				}
			}
			c.Num = append(c.Num, v)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if cols == nil {
		return nil, fmt.Errorf("%w: %s is empty", ErrParse, path)
	}
	for j := range cols {
		any := false
		for _, n := range cols[j].Null {
			any = any || n
		}
		if !any {
			cols[j].Null = nil
		}
	}
	d := &ml.Dataset{}
	if target == -1 {
		target = len(cols) - 1
	}
	for j := range cols {
		if j == target {
			t := cols[j]
			if names == nil || skip > 0 {
				t.Name = "target"
			}
			d.Target = &t
			continue
		}
		d.Features = append(d.Features, cols[j])
	}
	return d, d.Validate()
}
