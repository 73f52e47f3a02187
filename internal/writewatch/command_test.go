package writewatch

import (
	"testing"

	"boardbench/internal/blockdev"
	"boardbench/internal/testutil/fixture"
)

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
