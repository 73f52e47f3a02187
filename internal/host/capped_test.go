package host

import (
	"strings"
	"testing"
)

// TestCappedBufferReadFrom checks that a command's output read through
// ReadFrom (as os/exec copies a pipe) keeps the first limit bytes, reads
// the rest, and says whether more came.
func TestCappedBufferReadFrom(t *testing.T) {
	for _, tc := range []struct {
		name     string
		limit    int
		in       string
		want     string
		wantOver bool
	}{
		{"empty", 8, "", "", false},
		{"fits", 8, "abc", "abc", false},
		{"exactly full", 3, "abc", "abc", false},
		{"over", 3, "abcdef", "abc", true},
		{"long", 5, strings.Repeat("x", 100000), "xxxxx", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &cappedBuffer{limit: tc.limit}
			n, err := c.ReadFrom(strings.NewReader(tc.in))
			if err != nil || n != int64(len(tc.in)) {
				t.Fatalf("ReadFrom = %d, %v; want %d, nil", n, err, len(tc.in))
			}
			if got := c.buf.String(); got != tc.want || c.over != tc.wantOver {
				t.Errorf("kept %q over=%v, want %q over=%v", got, c.over, tc.want, tc.wantOver)
			}
		})
	}
}

// TestProcPidFile checks the files of a process that may be read against
// near misses.
func TestProcPidFile(t *testing.T) {
	for _, tc := range []struct {
		path string
		want bool
	}{
		{"/proc/1/stat", true},
		{"/proc/123/comm", true},
		{"/proc/123/status", true},
		{"/proc/123/cmdline", true},
		{"/proc/123/io", true},
		{"/proc/123/maps", true},
		{"/proc/123/mountinfo", true},
		{"/proc/123/cgroup", true},
		{"/proc/123/fdinfo/7", true},
		{"/proc/123/task/124/stat", true},
		{"/proc/123/task/124/comm", true},
		{"/proc/self/stat", false},
		{"/proc//stat", false},
		{"/proc/12a/stat", false},
		{"/proc/123/environ", false},
		{"/proc/123/mem", false},
		{"/proc/123/fdinfo/", false},
		{"/proc/123/fdinfo/x", false},
		{"/proc/123/fd/3", false},
		{"/proc/123/task/124/status", false},
		{"/proc/123/task//stat", false},
		{"/proc/123/task/124/stat/x", false},
		{"/proc/123/stat/", false},
		{"/proc/123", false},
		{"/sys/123/stat", false},
		{"/proc/123/statm", false},
	} {
		if got := procPidFile(tc.path); got != tc.want {
			t.Errorf("procPidFile(%q) = %v, want %v", tc.path, got, tc.want)
		}
	}
}
