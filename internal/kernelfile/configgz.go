package kernelfile

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
)

// maxConfigBytes bounds the uncompressed kernel config (real ones are
// 100–300 KiB).
const maxConfigBytes = 4 << 20

// ParseConfigGz decompresses a kernel config (at most 4 MiB of it) and
// returns its symbols: CONFIG_X → "y", "m", a number or a quoted string;
// "# CONFIG_X is not set" gives "n". keep, when not nil, chooses the
// symbols returned (a whole config is thousands of symbols). The text is
// read as it is decompressed, never whole.
func ParseConfigGz(b []byte, keep func(sym []byte) bool) (map[string]string, error) {
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("not gzip data: %w", err)
	}
	defer zr.Close()
	out, err := parseConfig(io.LimitReader(zr, maxConfigBytes), keep)
	if err != nil {
		return nil, fmt.Errorf("corrupt gzip data: %w", err)
	}
	return out, nil
}

// ParseConfig parses the text of a kernel config.
func ParseConfig(data []byte) map[string]string {
	out, _ := parseConfig(bytes.NewReader(data), nil)
	return out
}

// parseConfig reads a kernel config's lines from r, keeping the symbols
// keep chooses (all when nil).
func parseConfig(r io.Reader, keep func(sym []byte) bool) (map[string]string, error) {
	out := map[string]string{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4<<10), 1<<20)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		var sym, val []byte
		if rest, ok := bytes.CutPrefix(line, []byte("# ")); ok {
			s, ok := bytes.CutSuffix(rest, []byte(" is not set"))
			if !ok {
				continue
			}
			sym, val = s, []byte("n")
		} else if k, v, ok := bytes.Cut(line, []byte("=")); ok {
			sym, val = k, v
		} else {
			continue
		}
		if !bytes.HasPrefix(sym, []byte("CONFIG_")) || (keep != nil && !keep(sym)) {
			continue
		}
		out[string(sym)] = string(val)
	}
	return out, sc.Err()
}
