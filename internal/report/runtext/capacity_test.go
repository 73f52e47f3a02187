package runtext

import (
	"bytes"
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
