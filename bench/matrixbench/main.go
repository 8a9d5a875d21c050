// Command matrixbench measures sqlearn's matrix paths for bench/matrix.sh:
// GEMM through the Go kernel and through SELECT MAT_MUL over a real MySQL
// client connection, sparse×dense on Matrix Market files, and the
// MAT_FROM_QUERY load rate from a wide table. It prints one JSON object.
package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"log/slog"
	"os"
	"path/filepath"
	"runtime/pprof"
	"sort"
	"strings"
	"time"

	_ "github.com/go-sql-driver/mysql"

	"github.com/sqlearn/sqlearn/gpu"
	"github.com/sqlearn/sqlearn/internal/gctune"
	"github.com/sqlearn/sqlearn/matrix"
	"github.com/sqlearn/sqlearn/sqlext"
	"github.com/sqlearn/sqlearn/storage"
	"github.com/sqlearn/sqlearn/udf"
)

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return s[len(s)/2]
}

// timeIt runs f reps times after one warm-up and returns the median seconds.
func timeIt(reps int, f func() error) float64 {
	if err := f(); err != nil {
		log.Fatal(err)
	}
	var ts []float64
	for i := 0; i < reps; i++ {
		t0 := time.Now()
		if err := f(); err != nil {
			log.Fatal(err)
		}
		ts = append(ts, time.Since(t0).Seconds())
	}
	return median(ts)
}

// writeWide fills bench.wide with log commands of 50,000 rows each: the
// same replicated write path as SQL INSERTs, without parsing 47 million
// literals, which would dominate the benchmark's run time.
func writeWide(srv *sqlext.Server, rows, cols int) {
	const chunk = 50000
	for start := 0; start < rows; start += chunk {
		n := min(chunk, rows-start)
		op := storage.Op{Kind: storage.OpInsert, DB: "bench", Table: "wide", Rows: make([]storage.Row, n)}
		for r := range op.Rows {
			row := make(storage.Row, 1+cols)
			row[0] = int64(start + r + 1)
			for j := 1; j <= cols; j++ {
				row[j] = float64((start+r)*cols+j) / float64(rows*cols)
			}
			op.Rows[r] = row
		}
		if err := srv.Node().Propose(context.Background(), storage.EncodeCommand(&storage.Command{Ops: []storage.Op{op}})); err != nil {
			log.Fatal(err)
		}
	}
}

func main() {
	data := flag.String("datasets", "../shared/datasets", "the shared datasets folder")
	reps := flag.Int("reps", 5, "timed repetitions per measurement (median reported)")
	loadRows := flag.Int("load-rows", 1000000, "rows of the wide table for the load rate")
	settle := flag.Duration("settle", 20*time.Second, "pause between writing the wide table and timing loads from it")
	sizes := flag.String("sizes", "512,1024,2048", "GEMM sizes")
	spCols := flag.Int("sp-cols", 64, "columns of the dense operand of sparse×dense")
	fallback := flag.Bool("fallback", true, "also time the engine path of MAT_FROM_QUERY")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of the load measurement here")
	flag.Parse()

	abs, _ := filepath.Abs(*data)
	cfg := sqlext.DefaultConfig()
	cfg.Addr = "127.0.0.1:0"
	dir, err := os.MkdirTemp("", "matrixbench")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	cfg.DataDir = dir
	cfg.ImportDir = abs
	cfg.Extensions = udf.Extensions
	cfg.Logger = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError}))
	gctune.ApplyDefault() // as sqlearn serve runs
	srv, err := sqlext.Open(context.Background(), cfg)
	if err != nil {
		log.Fatal(err)
	}
	go srv.Serve()
	defer srv.Close()
	db, err := sql.Open("mysql", fmt.Sprintf("root@tcp(%s)/", srv.Addr()))
	if err != nil {
		log.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	must := func(q string, args ...any) {
		if _, err := db.Exec(q, args...); err != nil {
			log.Fatalf("%s: %v", q, err)
		}
	}
	must("CREATE DATABASE bench")
	must("USE bench")

	out := map[string]any{"blas": gpu.BLASName(), "reps": *reps}
	gemm := map[string]any{}
	for _, f := range strings.Split(*sizes, ",") {
		var n int
		fmt.Sscan(f, &n)
		a, _ := matrix.Rand(n, n, 1, 1)
		b, _ := matrix.Rand(n, n, 2, 1)
		flops := 2 * float64(n) * float64(n) * float64(n)
		tk := timeIt(*reps, func() error { _, err := matrix.Mul(a, b); return err })
		must("SET @A = MAT_RAND(?, ?, 1), @B = MAT_RAND(?, ?, 2)", n, n, n, n)
		var res []byte
		ts := timeIt(*reps, func() error { return db.QueryRow("SELECT MAT_MUL(@A, @B)").Scan(&res) })
		gemm[f] = map[string]float64{"kernel_s": tk, "kernel_gflops": flops / tk / 1e9, "sql_s": ts, "sql_gflops": flops / ts / 1e9}
		log.Printf("gemm %d: kernel %.3fs, sql %.3fs", n, tk, ts)
	}
	out["gemm"] = gemm

	sp := map[string]any{}
	for _, name := range []string{"bcsstk13", "pushpull"} {
		var table string
		var r, c, nnz int64
		if err := db.QueryRow(fmt.Sprintf("CALL MAT_IMPORT_MTX('matrices/%s.mtx', '%s')", name, name)).Scan(&table, &r, &c, &nnz); err != nil {
			log.Fatal(err)
		}
		must(fmt.Sprintf("SET @S = MAT_FROM_TRIPLES('SELECT i, j, v FROM %s', %d, %d), @X = MAT_RAND(%d, %d, 3)", name, r, c, c, *spCols))
		fh, err := os.Open(filepath.Join(abs, "matrices", name+".mtx"))
		if err != nil {
			log.Fatal(err)
		}
		s, err := matrix.ReadMatrixMarket(fh)
		fh.Close()
		if err != nil {
			log.Fatal(err)
		}
		s = matrix.ToCSR(s)
		x, _ := matrix.Rand(int(c), *spCols, 3, 1)
		flops := 2 * float64(s.NNZ()) * float64(*spCols)
		tk := timeIt(*reps, func() error { _, err := matrix.Mul(s, x); return err })
		var res []byte
		ts := timeIt(*reps, func() error { return db.QueryRow("SELECT MAT_MUL(@S, @X)").Scan(&res) })
		sp[name] = map[string]any{"rows": r, "cols": c, "nnz": s.NNZ(), "k": *spCols,
			"kernel_s": tk, "kernel_gflops": flops / tk / 1e9, "sql_s": ts, "sql_gflops": flops / ts / 1e9}
		log.Printf("spmm %s: kernel %.4fs, sql %.4fs", name, tk, ts)
	}
	out["spmm"] = sp

	const wide = 47
	t0 := time.Now()
	cols := make([]string, wide)
	for j := range cols {
		cols[j] = fmt.Sprintf("c%d", j+1)
	}
	list := strings.Join(cols, ", ")
	must("CREATE TABLE wide (i BIGINT NOT NULL PRIMARY KEY, " + strings.Join(cols, " DOUBLE NOT NULL, ") + " DOUBLE NOT NULL)")
	writeWide(srv, *loadRows, wide)
	setup := time.Since(t0).Seconds()
	log.Printf("wide table of %d rows written in %.1fs", *loadRows, setup)
	mb := float64(*loadRows) * wide * 8 / 1e6
	load := map[string]any{"rows": *loadRows, "cols": wide, "mb": mb, "table_write_s": setup}
	// A fixed order, after a pause: writing the table leaves the server
	// busy for a while (sealing batches, taking a snapshot of the log), which
	// would otherwise land on whichever measurement came first.
	time.Sleep(*settle)
	for _, lq := range [][2]string{
		{"columnar", "SELECT " + list + " FROM wide"},
		{"columnar_ordered", "SELECT " + list + " FROM wide ORDER BY i"},
		{"engine_fallback", "SELECT " + list + " FROM wide WHERE i > 0"},
	} {
		label, q := lq[0], lq[1]
		if label == "engine_fallback" && !*fallback {
			continue
		}
		var rows int64
		if *cpuprofile != "" && label == "columnar" {
			f, err := os.Create(*cpuprofile)
			if err != nil {
				log.Fatal(err)
			}
			pprof.StartCPUProfile(f)
		}
		tl := timeIt(*reps, func() error {
			// LENGTH keeps the measurement to building the matrix: the
			// blob is neither decoded again nor sent to the client.
			return db.QueryRow("SELECT LENGTH(MAT_FROM_QUERY(?))", q).Scan(&rows)
		})
		if *cpuprofile != "" && label == "columnar" {
			pprof.StopCPUProfile()
		}
		load[label] = map[string]float64{"s": tl, "mb_per_s": mb / tl}
		log.Printf("load %s: %.3fs, %.0f MB/s", label, tl, mb/tl)
	}
	out["load"] = load
	json.NewEncoder(os.Stdout).Encode(out)
}
