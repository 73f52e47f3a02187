package writes

import (
	"testing"
	"time"

	"boardbench/internal/blockdev"
	"boardbench/internal/testutil/fixture"
)

func TestParseSeconds(t *testing.T) {
	tests := []struct {
		in      string
		want    time.Duration
		wantErr bool
	}{
		{in: "1", want: time.Second},
		{in: "0.5", want: 500 * time.Millisecond},
		{in: " 2 ", want: 2 * time.Second},
		{in: "500ms", want: 500 * time.Millisecond},
		{in: "2m", want: 2 * time.Minute},
		{in: "abc", wantErr: true},
		{in: "", wantErr: true},
		{in: "NaN", wantErr: true},
		{in: "1e300", wantErr: true},
	}
	for _, tt := range tests {
		got, err := parseSeconds(tt.in)
		if (err != nil) != tt.wantErr || (!tt.wantErr && got != tt.want) {
			t.Errorf("parseSeconds(%q) = %v, %v; want %v (error: %v)", tt.in, got, err, tt.want, tt.wantErr)
		}
	}
}

func TestIntervalFlagAcceptsBareSeconds(t *testing.T) {
	cmd := NewCmd(nil)
	if err := cmd.ParseFlags([]string{"--interval", "1"}); err != nil {
		t.Fatalf("--interval 1 refused: %v", err)
	}
	if got := cmd.Flags().Lookup("interval").Value.String(); got != "1s" {
		t.Errorf("--interval 1 is %s, want 1s", got)
	}
	if err := NewCmd(nil).ParseFlags([]string{"--interval", "soon"}); err == nil {
		t.Error("--interval soon accepted")
	}
}

// TestDeviceToWatch: a device node given as vda, /dev/vda or loop0 is
// watched itself (they once found "no block device to watch ()"); a
// partition is the partition; a path the device under its filesystem.
func TestDeviceToWatch(t *testing.T) {
	const stat = "1 0 8 0 2 0 16 0 0 0 0\n"
	root := fixture.Root(t, map[string]string{
		"sys/class/block/vda/stat":       stat,
		"sys/class/block/loop0/stat":     stat,
		"sys/class/block/mmcblk0p2/stat": stat,
		"sys/class/block/mmcblk0/stat":   stat,
	})
	h := fixture.Open(t, root)
	for _, tc := range []struct {
		p    string
		id   blockdev.Identity
		want string
	}{
		{"/dev/vda", blockdev.Identity{Raw: true, Name: "vda", Stack: []blockdev.Layer{}}, "vda"},
		{"/dev/loop0", blockdev.Identity{Raw: true, Stack: []blockdev.Layer{{Kind: "loop", Device: "loop0"}}}, "loop0"},
		{"/dev/mmcblk0p2", blockdev.Identity{Raw: true, Name: "mmcblk0", Partition: "mmcblk0p2",
			Stack: []blockdev.Layer{{Kind: "partition", Device: "mmcblk0p2"}}}, "mmcblk0p2"},
		{"/dev/vda", blockdev.Identity{Raw: true, Stack: []blockdev.Layer{}}, "vda"},
		{"/home", blockdev.Identity{Name: "mmcblk0", Partition: "mmcblk0p2",
			Stack: []blockdev.Layer{{Kind: "partition", Device: "mmcblk0p2"}}}, "mmcblk0p2"},
		{"/dev/nonesuch", blockdev.Identity{Raw: true, Stack: []blockdev.Layer{}}, ""},
	} {
		if got := deviceToWatch(h, tc.p, &tc.id); got != tc.want {
			t.Errorf("%s %+v: %q, want %q", tc.p, tc.id, got, tc.want)
		}
	}
}
