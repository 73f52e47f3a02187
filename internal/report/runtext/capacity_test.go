package runtext

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"boardbench/internal/result"
	"boardbench/internal/textfmt"
)

// TestCapacityTextSaysHowItStopped: a check that wrote everything it meant
// to says so in words; one stopped early says by what.
func TestCapacityTextSaysHowItStopped(t *testing.T) {
	for _, tc := range []struct{ stoppedBy, want, notWant string }{
		{"done", "all of it written", "stopped by"},
		{"no space", "stopped by no space", "all of it written"},
	} {
		var b bytes.Buffer
		renderStorageCapacity(textfmt.New(&b, false), result.StorageCapacityFigures{WrittenBytes: 64 << 20, OKBytes: 64 << 20, BlockBytes: 4096, FreeBytes: 80 << 20, StoppedBy: tc.stoppedBy})
		if s := strings.Join(strings.Fields(b.String()), " "); !strings.Contains(s, tc.want) || strings.Contains(s, tc.notWant) {
			t.Errorf("stopped by %q:\n%s", tc.stoppedBy, s)
		}
	}
}

// TestStorageModeSummary: a --sustained or --verify-capacity result has no
// table; its summary line gives the cache and the rate after it, or the
// real capacity, instead of n/a.
func TestStorageModeSummary(t *testing.T) {
	cache, after := int64(256<<20), 9000.0
	phase := func(name string, f any) *result.Result {
		b, err := json.Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		return &result.Result{Phases: []result.Phase{{Name: name, Figures: b}}}
	}
	for _, tc := range []struct {
		name string
		r    *result.Result
		want string
	}{
		{"fell", phase(result.PhaseStorageSustained, result.StorageSustainedFigures{Fell: true, CacheBytes: &cache, KBsAfter: &after, WrittenBytes: 512 << 20}), "fell after 256 MiB (write cache), then 9000 KiB/s"},
		{"did not fall", phase(result.PhaseStorageSustained, result.StorageSustainedFigures{WrittenBytes: 512 << 20}), "did not fall in 512 MiB written"},
		{"capacity", phase(result.PhaseStorageCapacity, result.StorageCapacityFigures{WrittenBytes: 64 << 20, OKBytes: 32 << 20}), "32 MiB of 64 MiB written read back intact"},
		{"nothing", &result.Result{}, "n/a (the storage test recorded no figures)"},
	} {
		var got []string
		for _, p := range storagePairs(tc.r) {
			got = append(got, p[0]+": "+p[1])
		}
		if s := strings.Join(got, "; "); !strings.Contains(s, tc.want) {
			t.Errorf("%s: %q, want %q in it", tc.name, s, tc.want)
		}
	}
}
