package gctune

import (
	"runtime/debug"
	"testing"
	"testing/fstest"
)

const meminfo = "MemTotal:       24576000 kB\nMemFree:        20000000 kB\n"

func env(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

func TestAvailable(t *testing.T) {
	machine := int64(24576000) << 10
	for _, tc := range []struct {
		name  string
		files fstest.MapFS
		want  int64
	}{
		{"machine", fstest.MapFS{"proc/meminfo": {Data: []byte(meminfo)}}, machine},
		{"cgroup v2 lower", fstest.MapFS{
			"proc/meminfo":             {Data: []byte(meminfo)},
			"sys/fs/cgroup/memory.max": {Data: []byte("2147483648\n")},
		}, 2 << 30},
		{"cgroup v2 without a limit", fstest.MapFS{
			"proc/meminfo":             {Data: []byte(meminfo)},
			"sys/fs/cgroup/memory.max": {Data: []byte("max\n")},
		}, machine},
		{"cgroup v1 without a limit", fstest.MapFS{
			"proc/meminfo": {Data: []byte(meminfo)},
			"sys/fs/cgroup/memory/memory.limit_in_bytes": {Data: []byte("9223372036854771712\n")},
		}, machine},
		{"cgroup v1 lower", fstest.MapFS{
			"proc/meminfo": {Data: []byte(meminfo)},
			"sys/fs/cgroup/memory/memory.limit_in_bytes": {Data: []byte("1073741824\n")},
		}, 1 << 30},
		{"cgroup higher than the machine", fstest.MapFS{
			"proc/meminfo":             {Data: []byte(meminfo)},
			"sys/fs/cgroup/memory.max": {Data: []byte("107374182400\n")},
		}, machine},
		{"cgroup only", fstest.MapFS{"sys/fs/cgroup/memory.max": {Data: []byte("1073741824")}}, 1 << 30},
		{"nothing readable", fstest.MapFS{}, 0},
		{"malformed meminfo", fstest.MapFS{"proc/meminfo": {Data: []byte("MemTotal: lots\n")}}, 0},
	} {
		if got := Available(tc.files); got != tc.want {
			t.Errorf("%s: Available = %d, want %d", tc.name, got, tc.want)
		}
	}
}

func TestChooseLeavesWhatTheEnvironmentSets(t *testing.T) {
	files := fstest.MapFS{"proc/meminfo": {Data: []byte("MemTotal: 1048576 kB\n")}}
	got := Choose(env(nil), files)
	want := Settings{Percent: Percent, Limit: 3 << 28, Memory: 1 << 30}
	if got != want {
		t.Errorf("no environment: %+v, want %+v", got, want)
	}
	got = Choose(env(map[string]string{"GOGC": "100", "GOMEMLIMIT": "1GiB"}), files)
	if got.Percent != 0 || got.Limit != 0 {
		t.Errorf("GOGC and GOMEMLIMIT set: %+v, want neither changed", got)
	}
	got = Choose(env(nil), fstest.MapFS{})
	if got.Percent != Percent || got.Limit != 0 {
		t.Errorf("memory unknown: %+v, want the percent and no limit", got)
	}
}

func TestApplySetsTheRuntime(t *testing.T) {
	prevPercent := debug.SetGCPercent(100)
	prevLimit := debug.SetMemoryLimit(-1)
	defer func() {
		debug.SetGCPercent(prevPercent)
		debug.SetMemoryLimit(prevLimit)
	}()
	s := Apply(env(nil), fstest.MapFS{"proc/meminfo": {Data: []byte("MemTotal: 1048576 kB\n")}})
	if p := debug.SetGCPercent(100); p != Percent || s.Percent != Percent {
		t.Errorf("GC percent %d (reported %d), want %d", p, s.Percent, Percent)
	}
	if l := debug.SetMemoryLimit(-1); l != 3<<28 {
		t.Errorf("memory limit %d, want %d", l, 3<<28)
	}
}
