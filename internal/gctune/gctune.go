// Package gctune sets the Go garbage collector's targets for a server
// process.
//
// Go's default (GOGC=100, no memory limit) collects whenever the heap has
// doubled since the last collection. A database server keeps its tables in
// that heap but also allocates a multiple of a write's size to log and
// apply it (the Raft log store encodes each entry into a growing buffer and
// copies it into B-tree pages), so with a small live heap it collects after
// almost every large write. A server is better off letting the heap grow
// further between collections and bounding it by the memory it may use:
// Apply raises the growth allowed between collections and sets a soft
// limit at a share of the machine's or container's memory, near which the
// runtime collects as often as it must. GOGC and GOMEMLIMIT, when set,
// keep their meaning and override either choice.
package gctune

import (
	"bufio"
	"io/fs"
	"math"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
)

// Percent is the heap growth, in percent of the live heap, allowed
// between collections when GOGC is not set.
const Percent = 400

// LimitShare is the share of the available memory the soft limit is set
// to when GOMEMLIMIT is not set.
const LimitShare = 0.75

// Settings are the targets Apply chose; zero fields were left as the
// environment set them.
type Settings struct {
	Percent int   // the GC percent set, 0 when GOGC decides
	Limit   int64 // the soft memory limit set in bytes, 0 when GOMEMLIMIT decides or none is known
	Memory  int64 // the memory found available, 0 when unknown
}

// Apply sets the collector's targets unless the environment (getenv)
// already does, and returns what it set. files is where the memory
// available is read from: /proc/meminfo and the cgroup limits.
func Apply(getenv func(string) string, files fs.FS) Settings {
	s := Choose(getenv, files)
	if s.Percent != 0 {
		debug.SetGCPercent(s.Percent)
	}
	if s.Limit != 0 {
		debug.SetMemoryLimit(s.Limit)
	}
	return s
}

// ApplyDefault is Apply with the process's environment and the root file
// system.
func ApplyDefault() Settings { return Apply(os.Getenv, os.DirFS("/")) }

// Choose is what Apply would set, without setting it.
func Choose(getenv func(string) string, files fs.FS) Settings {
	var s Settings
	if getenv("GOGC") == "" {
		s.Percent = Percent
	}
	s.Memory = Available(files)
	if getenv("GOMEMLIMIT") == "" && s.Memory > 0 {
		s.Limit = int64(float64(s.Memory) * LimitShare)
	}
	return s
}

// Available is the memory this process may use in bytes: the machine's
// (MemTotal in proc/meminfo), or the cgroup's limit when that is lower
// (cgroup v2's memory.max, or v1's memory.limit_in_bytes); 0 when none
// can be read.
func Available(files fs.FS) int64 {
	total := memTotal(files)
	for _, path := range []string{"sys/fs/cgroup/memory.max", "sys/fs/cgroup/memory/memory.limit_in_bytes"} {
		b, err := fs.ReadFile(files, path)
		if err != nil {
			continue
		}
		v, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
		// "max", or v1's "no limit" (a page-rounded MaxInt64), read as none.
		if err != nil || v <= 0 || v >= math.MaxInt64/2 {
			continue
		}
		if total == 0 || v < total {
			total = v
		}
	}
	return total
}

// memTotal reads MemTotal from proc/meminfo, in bytes; 0 when it cannot.
func memTotal(files fs.FS) int64 {
	f, err := files.Open("proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, rest, ok := strings.Cut(sc.Text(), ":")
		if !ok || name != "MemTotal" {
			continue
		}
		fields := strings.Fields(rest)
		if len(fields) == 0 {
			return 0
		}
		kb, err := strconv.ParseInt(fields[0], 10, 64)
		if err != nil || kb <= 0 {
			return 0
		}
		return kb << 10
	}
	return 0
}
