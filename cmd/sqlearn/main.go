// Command sqlearn runs the sqlearn server: a MySQL-compatible database that
// trains and serves machine-learning models with SQL.
//
// Usage:
//
//	sqlearn [serve] [--addr 127.0.0.1:3306] [--data-dir ./sqlearn-data]
//	        [--root-password PW] [--log-level info]
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	_ "net/http/pprof"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/sqlearn/sqlearn/gpu"
	"github.com/sqlearn/sqlearn/internal/gctune"
	"github.com/sqlearn/sqlearn/matrix"
	"github.com/sqlearn/sqlearn/replication"
	"github.com/sqlearn/sqlearn/sqlext"
	"github.com/sqlearn/sqlearn/udf"
)

func main() {
	if err := run(os.Args[1:], os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "sqlearn:", err)
		os.Exit(1)
	}
}

func run(args []string, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "serve" {
		args = args[1:]
	} else if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		return fmt.Errorf("unknown command %q (the only command is serve)", args[0])
	}
	cfg := sqlext.DefaultConfig()
	fs := flag.NewFlagSet("sqlearn serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&cfg.Addr, "addr", cfg.Addr, "address the MySQL protocol listens on")
	fs.StringVar(&cfg.DataDir, "data-dir", cfg.DataDir, "directory holding the Raft log and snapshots")
	fs.StringVar(&cfg.RootPassword, "root-password", "", "password of root@localhost; when empty only loopback clients may connect")
	fs.StringVar(&cfg.ImportDir, "import-dir", "", "directory that server-side file imports may read (like MySQL's secure_file_priv); empty disables them")
	fs.IntVar(&cfg.MaxConnections, "max-connections", 0, "most clients connected at once (@@max_connections); 0 keeps MySQL's default, 151")
	fs.StringVar(&cfg.TLSCert, "tls-cert", "", "PEM certificate for TLS; by default one is generated in the data dir")
	fs.StringVar(&cfg.TLSKey, "tls-key", "", "PEM private key for --tls-cert")
	level := fs.String("log-level", "info", "log level: debug, info, warn or error")
	nodeID := fs.String("node-id", "node1", "this node's id in the cluster; it must not change")
	raftAddr := fs.String("raft-addr", "", "address Raft and the cluster service listen on; empty runs a single node without networking")
	raftAdvertise := fs.String("raft-advertise", "", "address other nodes reach this one at (default --raft-addr)")
	join := fs.String("join", "", "comma-separated Raft addresses of existing members to join through; empty starts a new cluster on first start")
	nonVoter := fs.Bool("non-voter", false, "join as a non-voting member")
	faults := fs.Bool("enable-fault-injection", false, "enable sys.RAFT_ISOLATE for fault tests")
	pprofAddr := fs.String("pprof-addr", "", "serve Go's runtime profiles over HTTP on this address (for diagnosis)")
	snapThreshold := fs.Uint64("raft-snapshot-threshold", 8192, "log entries between snapshots")
	snapInterval := fs.Duration("raft-snapshot-interval", 30*time.Second, "how often to check whether a snapshot is due")
	raftLog := fs.String("raft-log", "", "log storage of a new data dir: bolt (the default) or wal (one fsync per batch); an existing data dir keeps the log it has")
	if err := fs.Parse(args); err != nil {
		return err
	}
	var lv slog.Level
	if err := lv.UnmarshalText([]byte(*level)); err != nil {
		return fmt.Errorf("--log-level: %w", err)
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: lv}))
	cfg.Logger = log
	gc := gctune.ApplyDefault()
	log.Debug("garbage collector", "gc_percent", gc.Percent, "memory_limit", gc.Limit, "memory", gc.Memory)
	cfg.Replication = replication.DefaultConfig(cfg.DataDir)
	cfg.Replication.NodeID = *nodeID
	cfg.Replication.RaftAddr = *raftAddr
	cfg.Replication.AdvertiseAddr = *raftAdvertise
	cfg.Replication.NonVoter = *nonVoter
	if *join != "" {
		cfg.Replication.Join = strings.Split(*join, ",")
	}
	cfg.FaultInjection = *faults
	cfg.Replication.SnapshotThreshold = *snapThreshold
	cfg.Replication.LogStore = *raftLog
	cfg.Replication.SnapshotInterval = *snapInterval
	cfg.Extensions = udf.Extensions

	if *pprofAddr != "" {
		ln, err := net.Listen("tcp", *pprofAddr)
		if err != nil {
			return fmt.Errorf("--pprof-addr: %w", err)
		}
		go http.Serve(ln, nil)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	openCtx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	start := time.Now()
	srv, err := sqlext.Open(openCtx, cfg)
	if err != nil {
		return err
	}
	installDevices(log, filepath.Join(cfg.DataDir, deviceProfiles), gpu.NewAuto)
	log.Info("sqlearn ready", "addr", srv.Addr().String(), "data_dir", cfg.DataDir, "version", sqlext.Version,
		"node_id", cfg.Replication.NodeID, "raft_addr", cfg.Replication.RaftAddr,
		"applied_index", srv.Node().AppliedIndex(), "startup", time.Since(start).Round(time.Millisecond))
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve() }()
	select {
	case <-ctx.Done():
		log.Info("shutting down")
	case err = <-errc:
	}
	if cerr := srv.Close(); err == nil && !errors.Is(cerr, context.Canceled) {
		err = cerr
	}
	return err
}

// deviceProfiles caches the measured device speeds in the data dir, so
// only the first start on a machine pays for calibration.
const deviceProfiles = "device-profiles.json"

// installDevices makes a dispatcher over the devices found the matrix
// package's device, so every kernel runs where the cost model says and
// each session's @@ml_device chooses from it. build is gpu.NewAuto but for
// tests. If it fails the kernels stay on the CPU device: choosing devices
// is an optimisation, never a reason not to serve.
func installDevices(log *slog.Logger, profiles string, build func(string, gpu.CalibrateOptions) (*gpu.Dispatcher, gpu.Discovery, error)) *gpu.Dispatcher {
	start := time.Now()
	d, disc, err := build(profiles, gpu.DefaultCalibrateOptions())
	found := []any{"blas", gpu.BLASName(), "gpu", disc.GPU != nil, "gpu_detail", disc.Reason}
	if d == nil {
		log.Warn("device calibration failed; matrix kernels run on the cpu", append(found, "err", err)...)
		return nil
	}
	if err != nil {
		log.Warn("device profiles not cached; the next start calibrates again", "profiles", profiles, "err", err)
	}
	if g, why := d.GPU(); g == nil && disc.GPU != nil {
		log.Warn("gpu left out of dispatch", "reason", why)
	}
	matrix.SetDevice(d)
	log.Info("devices", append(found, "dispatcher", d.Name(), "profiles", profiles,
		"setup", time.Since(start).Round(time.Millisecond))...)
	return d
}
