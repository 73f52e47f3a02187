package netbench

import (
	"errors"
	"fmt"
	"strings"
)

// ParseRate reads a rate in bit/s with an optional K, M or G suffix
// (decimal multiples, as iperf3 reads them).
func ParseRate(s string) (int64, error) {
	mult := int64(1)
	num := s
	switch {
	case strings.HasSuffix(s, "K") || strings.HasSuffix(s, "k"):
		mult, num = 1e3, s[:len(s)-1]
	case strings.HasSuffix(s, "M") || strings.HasSuffix(s, "m"):
		mult, num = 1e6, s[:len(s)-1]
	case strings.HasSuffix(s, "G") || strings.HasSuffix(s, "g"):
		mult, num = 1e9, s[:len(s)-1]
	}
	var v int64
	if _, err := fmt.Sscanf(num, "%d", &v); err != nil || fmt.Sprint(v) != num || v <= 0 || v > 400e9/mult {
		return 0, errors.New("not a rate in bit/s (e.g. 500M)")
	}
	return v * mult, nil
}

// FormatRate writes a rate in bit/s as ParseRate reads it, with the
// largest suffix that keeps it whole ("880M").
func FormatRate(v int64) string {
	for _, u := range []struct {
		mult   int64
		suffix string
	}{{1e9, "G"}, {1e6, "M"}, {1e3, "K"}} {
		if v >= u.mult && v%u.mult == 0 {
			return fmt.Sprintf("%d%s", v/u.mult, u.suffix)
		}
	}
	return fmt.Sprint(v)
}
