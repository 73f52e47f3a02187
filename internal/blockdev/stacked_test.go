package blockdev_test

import (
	"slices"
	"testing"

	"boardbench/internal/blockdev"
	"boardbench/internal/testutil/fixture"
)

// TestStackedOn: partitions and holders, and theirs, each once; a hostile
// cycle of holders ends.
func TestStackedOn(t *testing.T) {
	h := fixture.Host(t, map[string]string{
		"/sys/class/block/sda/sda1/partition":    "1",
		"/sys/class/block/sda/sda1/holders/dm-0": "->../../../dm-0",
		"/sys/class/block/sda/sda2/partition":    "2",
		"/sys/class/block/sda/sdax/":             "",
		"/sys/class/block/sda/holders/md0":       "->../../md0",
		"/sys/class/block/sda1":                  "->sda/sda1",
		"/sys/class/block/sda2":                  "->sda/sda2",
		"/sys/class/block/dm-0/holders/dm-1":     "->../../dm-1",
		"/sys/class/block/dm-1/holders/dm-0":     "->../../dm-0",
		"/sys/class/block/md0/holders/":          "",
	})
	got := blockdev.StackedOn(h, "sda")
	slices.Sort(got)
	if want := []string{"dm-0", "dm-1", "md0", "sda1", "sda2"}; !slices.Equal(got, want) {
		t.Errorf("StackedOn(sda) = %v, want %v", got, want)
	}
	if got := blockdev.StackedOn(h, "nonesuch"); len(got) != 0 {
		t.Errorf("StackedOn(nonesuch) = %v", got)
	}
}
