package kernelfile

import (
	"fmt"
	"strconv"
	"strings"
)

// BlockStat is what boardbench reads of a block device's stat file,
// /sys/class/block/NAME/stat (the fields of one /proc/diskstats line after
// the device's name).
type BlockStat struct {
	// Writes are completed write requests; Sectors the 512-byte sectors
	// written.
	Writes, Sectors uint64
}

// ParseBlockStat parses /sys/class/block/NAME/stat (11 to 17 fields; the
// writes are the fifth and the sectors written the seventh).
func ParseBlockStat(s string) (BlockStat, error) {
	f := strings.Fields(s)
	if len(f) < 7 {
		return BlockStat{}, fmt.Errorf("stat: %d fields, want at least 7", len(f))
	}
	w, err1 := strconv.ParseUint(f[4], 10, 64)
	sec, err2 := strconv.ParseUint(f[6], 10, 64)
	if err1 != nil || err2 != nil {
		return BlockStat{}, fmt.Errorf("stat: not numbers: %q %q", f[4], f[6])
	}
	return BlockStat{Writes: w, Sectors: sec}, nil
}

// ReadBlockStat reads and parses the stat file of the block device name
// (a whole device or a partition).
func ReadBlockStat(r Reader, name string) (BlockStat, error) {
	data, err := r.ReadFile("/sys/class/block/" + name + "/stat")
	if err != nil {
		return BlockStat{}, err
	}
	return ParseBlockStat(string(data))
}
