package kernelfile

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"strings"
)

// maxConfigBytes bounds the uncompressed kernel config (real ones are
// 100–300 KiB).
const maxConfigBytes = 4 << 20

// ParseConfigGz decompresses a kernel config (at most 4 MiB of it) and
// returns its symbols: CONFIG_X → "y", "m", a number or a quoted string;
// "# CONFIG_X is not set" gives "n".
func ParseConfigGz(b []byte) (map[string]string, error) {
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("not gzip data: %w", err)
	}
	defer zr.Close()
	data, err := io.ReadAll(io.LimitReader(zr, maxConfigBytes))
	if err != nil {
		return nil, fmt.Errorf("corrupt gzip data: %w", err)
	}
	return ParseConfig(data), nil
}

// ParseConfig parses the text of a kernel config.
func ParseConfig(data []byte) map[string]string {
	out := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if sym, ok := strings.CutPrefix(line, "# "); ok {
			if s, ok := strings.CutSuffix(sym, " is not set"); ok && strings.HasPrefix(s, "CONFIG_") {
				out[s] = "n"
			}
			continue
		}
		if k, v, ok := strings.Cut(line, "="); ok && strings.HasPrefix(k, "CONFIG_") {
			out[k] = v
		}
	}
	return out
}
