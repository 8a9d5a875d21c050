package testenv

import (
	"bufio"
	"compress/gzip"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"
)

// SNAPEdges reads a SNAP edge list (plain or gzip) for tests and
// benchmarks; a missing file is Missing. The SQL loader in udf is the
// checked one.
func SNAPEdges(t testing.TB, path string) (src, dst []int64) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		Missing(t, "%v", err)
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		z, err := gzip.NewReader(f)
		if err != nil {
			t.Fatal(err)
		}
		r = z
	}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			continue
		}
		fs := strings.Fields(line)
		if len(fs) < 2 {
			continue
		}
		a, err1 := strconv.ParseInt(fs[0], 10, 64)
		b, err2 := strconv.ParseInt(fs[1], 10, 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("%s: bad line %q", path, line)
		}
		src, dst = append(src, a), append(dst, b)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return src, dst
}
