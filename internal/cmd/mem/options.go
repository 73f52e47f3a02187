package mem

import (
	"fmt"
	"strconv"
	"strings"
)

// parseSize parses a size such as "64M", "64MiB", "1G", "512K" or a number
// of bytes; K, M and G are binary (KiB, MiB, GiB).
func parseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	t = strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(t, "B"), "i"), "b")
	mult := int64(1)
	if t != "" {
		switch t[len(t)-1] {
		case 'k', 'K':
			mult = 1 << 10
		case 'm', 'M':
			mult = 1 << 20
		case 'g', 'G':
			mult = 1 << 30
		}
		if mult != 1 {
			t = t[:len(t)-1]
		}
	}
	n, err := strconv.ParseInt(strings.TrimSpace(t), 10, 64)
	if err != nil || n <= 0 || n > (1<<50)/mult {
		return 0, fmt.Errorf("bad size %q (want e.g. 64M, 256MiB, 1G)", s)
	}
	return n * mult, nil
}
