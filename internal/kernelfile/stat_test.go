package kernelfile

import (
	"errors"
	"testing"
	"time"
)

func TestParseStat(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		ok     bool
		total  CPUTimes
		perCPU map[int]CPUTimes
	}{
		{
			name: "ten fields with steal and guest",
			in: "cpu  100 2 50 800 50 3 4 7 9 1\ncpu0 50 1 25 400 25 1 2 3 4 0\ncpu1 50 1 25 400 25 2 2 4 5 1\n" +
				"intr 12345 1 2 3\nctxt 999\nbtime 1700000000\nprocesses 42\nprocs_running 1\nsoftirq 1 2 3\n",
			ok:    true,
			total: CPUTimes{100, 2, 50, 800, 50, 3, 4, 7, 9, 1},
			perCPU: map[int]CPUTimes{
				0: {50, 1, 25, 400, 25, 1, 2, 3, 4, 0},
				1: {50, 1, 25, 400, 25, 2, 2, 4, 5, 1},
			},
		},
		{
			name:   "old kernel with four times",
			in:     "cpu 10 0 5 85\ncpu0 10 0 5 85\n",
			ok:     true,
			total:  CPUTimes{User: 10, System: 5, Idle: 85},
			perCPU: map[int]CPUTimes{0: {User: 10, System: 5, Idle: 85}},
		},
		{
			name:   "malformed lines are skipped",
			in:     "cpu 1 2 3 x\ncpu 1 2 3 4 5\ncpuX 1 2 3 4\ncpu-1 1 2 3 4\ncpu70000 1 2 3 4\ncpu3 1 2 3\n",
			ok:     true,
			total:  CPUTimes{1, 2, 3, 4, 5, 0, 0, 0, 0, 0},
			perCPU: map[int]CPUTimes{},
		},
		{name: "no aggregate line", in: "cpu0 1 2 3 4\n", ok: false, perCPU: map[int]CPUTimes{0: {1, 2, 3, 4, 0, 0, 0, 0, 0, 0}}},
		{name: "empty", in: "", ok: false, perCPU: map[int]CPUTimes{}},
		{name: "junk", in: "\x00\xff garbage\ncpu\n", ok: false, perCPU: map[int]CPUTimes{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			total, per, ok := ParseStat([]byte(tt.in))
			if ok != tt.ok || total != tt.total {
				t.Errorf("total = %+v, %v; want %+v, %v", total, ok, tt.total, tt.ok)
			}
			if len(per) != len(tt.perCPU) {
				t.Fatalf("per CPU = %+v, want %+v", per, tt.perCPU)
			}
			for id, want := range tt.perCPU {
				if per[id] != want {
					t.Errorf("cpu%d = %+v, want %+v", id, per[id], want)
				}
			}
		})
	}
}

func TestSharesSince(t *testing.T) {
	a := CPUTimes{User: 100, System: 50, Idle: 800, Iowait: 50}
	b := CPUTimes{User: 200, System: 100, Idle: 1600, Iowait: 100}
	sh, ok := b.SharesSince(a)
	// 1000 ticks passed: 100 user, 50 system, 800 idle, 50 iowait.
	if !ok || sh.Busy != 15 || sh.User != 10 || sh.System != 5 || sh.Iowait != 5 {
		t.Errorf("shares = %+v, %v", sh, ok)
	}
	// Steal counts as busy; guest time is inside user and not added again.
	c := CPUTimes{User: 250, System: 100, Idle: 1600, Iowait: 100, Steal: 50, Guest: 40}
	if sh, ok := c.SharesSince(b); !ok || sh.Busy != 100 || sh.User != 50 {
		t.Errorf("steal shares = %+v, %v", sh, ok)
	}
	if _, ok := a.SharesSince(b); ok {
		t.Error("backwards counters must not give shares")
	}
	if _, ok := a.SharesSince(a); ok {
		t.Error("no time passed must not give shares")
	}
}

func TestParseLoadavg(t *testing.T) {
	tests := []struct {
		in   string
		want float64
		ok   bool
	}{
		{"0.52 0.58 0.59 1/467 12345\n", 0.52, true},
		{"12.00", 12, true},
		{"", 0, false},
		{"-1 0 0", 0, false},
		{"NaN 0 0", 0, false},
		{"Inf 0 0", 0, false},
		{"x", 0, false},
	}
	for _, tt := range tests {
		got, ok := ParseLoadavg([]byte(tt.in))
		if ok != tt.ok || ok && got != tt.want {
			t.Errorf("ParseLoadavg(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestParseBootTime(t *testing.T) {
	cases := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"cpu  100 0 50 800 50 0 0 0 0 0\nintr 1 2\nctxt 42\nbtime 1764150000\nprocesses 9\n", 1764150000, true},
		{"btime 1764150000", 1764150000, true}, // last line without a newline
		{"btime  1764150000 \n", 1764150000, true},
		{"cpu  100 0 50 800\n", 0, false},
		{"btime soon\n", 0, false},
		{"xbtime 5\n", 0, false},
		{"", 0, false},
	}
	for _, c := range cases {
		if got, ok := ParseBootTime([]byte(c.in)); got != c.want || ok != c.ok {
			t.Errorf("ParseBootTime(%q) = %d, %v; want %d, %v", c.in, got, ok, c.want, c.ok)
		}
	}
	if bt, err := ReadBootTime(fakeReader{"/proc/stat": "btime 1764150000\n"}); err != nil || !bt.Equal(time.Unix(1764150000, 0)) {
		t.Errorf("ReadBootTime = %v, %v", bt, err)
	}
	if _, err := ReadBootTime(fakeReader{"/proc/stat": "cpu 1 2 3 4\n"}); !errors.Is(err, ErrMalformed) {
		t.Errorf("ReadBootTime without btime = %v", err)
	}
}

// FuzzParseStat checks that no input panics and that shares between any
// two parsed readings stay within 0..100 %.
func FuzzParseStat(f *testing.F) {
	f.Add([]byte("cpu  100 0 50 800 50 0 0 0 0 0\ncpu0 50 0 25 400 25 0 0 0 0 0\nintr 1 2\n"),
		[]byte("cpu  200 0 100 1600 100 0 0 0 0 0\ncpu0 150 0 25 400 25 0 0 0 0 0\n"))
	f.Add([]byte("cpu 18446744073709551615 0 0 0\n"), []byte("cpu 1 1 1 1 1 1 1 18446744073709551615\n"))
	f.Fuzz(func(t *testing.T, x, y []byte) {
		a, _, _ := ParseStat(x)
		b, _, _ := ParseStat(y)
		if sh, ok := b.SharesSince(a); ok {
			for _, v := range []float64{sh.User, sh.Nice, sh.System, sh.Iowait, sh.IRQ} {
				if v < 0 || v != v {
					t.Fatalf("shares %+v from %+v to %+v", sh, a, b)
				}
			}
		}
	})
}

// FuzzParseLoadavg checks that an accepted load is a finite non-negative
// number.
func FuzzParseLoadavg(f *testing.F) {
	f.Add([]byte("0.52 0.58 0.59 1/467 12345\n"))
	f.Add([]byte("1e400"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if v, ok := ParseLoadavg(data); ok && (v < 0 || v != v || v > 1e308) {
			t.Fatalf("ParseLoadavg(%q) = %v", data, v)
		}
	})
}
