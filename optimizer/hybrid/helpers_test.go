package hybrid

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sqlearn/sqlearn/internal/testenv"
)

func datasets(t testing.TB) string { return testenv.Datasets(t) }

func missing(t testing.TB, format string, a ...any) {
	t.Helper()
	testenv.Missing(t, format, a...)
}

func snapEdges(t testing.TB, path string) (src, dst []int64) { return testenv.SNAPEdges(t, path) }

// snapGraphs are the PageRank benchmark's two graphs, smaller first.
var snapGraphs = []string{"wiki-Vote.txt", "soc-Slashdot0902.txt.gz"}

// snapGraph loads one of the SNAP edge lists under datasets/graphs.
func snapGraph(t testing.TB, name string) *Graph {
	t.Helper()
	src, dst := snapEdges(t, filepath.Join(datasets(t), "graphs", name))
	g, err := NewGraph(src, dst)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// python is Debian's interpreter, which has networkx, numpy and scipy; the
// python3 on PATH may be another one without them.
const python = "/usr/bin/python3"

// runPython runs a program that reads JSON on stdin and prints JSON.
func runPython(t testing.TB, program string, in, out any) {
	t.Helper()
	if err := exec.Command(python, "-c", "import networkx, numpy, scipy").Run(); err != nil {
		missing(t, "%s with networkx, numpy and scipy is needed (apt-get install python3-networkx python3-scipy): %v", python, err)
	}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(python, "-c", program)
	cmd.Stdin = bytes.NewReader(b)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	res, err := cmd.Output()
	if err != nil {
		t.Fatalf("python: %v\n%s", err, stderr.String())
	}
	if err := json.Unmarshal(res, out); err != nil {
		t.Fatalf("python output: %v\n%.500s", err, res)
	}
}

// nxPageRank is networkx's pagerank of a DiGraph built from the edges,
// keyed by vertex id.
func nxPageRank(t testing.TB, src, dst []int64, alpha, tol float64, maxIter int) map[int64]float64 {
	t.Helper()
	const prog = `
import json, sys, networkx as nx
a = json.load(sys.stdin)
g = nx.DiGraph()
g.add_edges_from(zip(a["src"], a["dst"]))
pr = nx.pagerank(g, alpha=a["alpha"], tol=a["tol"], max_iter=a["max_iter"])
json.dump([[int(k), v] for k, v in pr.items()], sys.stdout)
`
	var pairs [][2]float64
	runPython(t, prog, map[string]any{"src": src, "dst": dst, "alpha": alpha, "tol": tol, "max_iter": maxIter}, &pairs)
	out := make(map[int64]float64, len(pairs))
	for _, p := range pairs {
		out[int64(p[0])] = p[1]
	}
	return out
}
