package kernelfile

import (
	"strconv"
	"strings"
)

// ParseMMCLifeTime parses an eMMC card's life_time attribute
// (/sys/block/mmcblkN/device/life_time, "0x01 0x02"): the device life time
// estimates of its type A and type B memory, in steps of 10 % of the rated
// life. Each is nil when it is not a hexadecimal number; both are nil
// unless the attribute holds exactly two words.
func ParseMMCLifeTime(s string) (typeA, typeB *uint64) {
	f := strings.Fields(s)
	if len(f) != 2 {
		return nil, nil
	}
	return mmcHex(f[0]), mmcHex(f[1])
}

// mmcHex parses one hexadecimal value of an MMC attribute, "0x" optional.
func mmcHex(s string) *uint64 {
	v, err := strconv.ParseUint(strings.TrimPrefix(strings.ToLower(s), "0x"), 16, 64)
	if err != nil {
		return nil
	}
	return &v
}
