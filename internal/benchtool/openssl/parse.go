// Package openssl is the benchtool wrapper of `openssl speed -elapsed -evp
// CIPHER`: it runs the tool and parses its output into typed figures,
// keeping the raw output.
//
// openssl prints throughput in thousands of bytes per second ("k" suffix;
// values below 10000 bytes/s are printed in bytes/s without suffix), for
// block sizes of 16, 64, 256, 1024, 8192 and (since 1.1.0) 16384 bytes.
// The figure the community compares is AES-256-CBC at 16384-byte blocks in
// KB/s (1000 bytes/s), measured single-threaded on each core type. AEAD
// ciphers (aes-256-gcm, chacha20-poly1305) print the same table, their rows
// named as OpenSSL spells them ("AES-256-GCM", "ChaCha20-Poly1305").
package openssl

import (
	"boardbench/internal/lazyre"
	"strconv"
	"strings"

	"boardbench/internal/note"
)

// HeadlineCipher and HeadlineBlockBytes name the figure users compare.
const (
	HeadlineCipher     = "aes-256-cbc"
	HeadlineBlockBytes = 16384
)

// constError is an error whose value is its text, so that a sentinel
// error is a constant: static data that costs nothing when boardbench
// starts (errors.New would run at init). errors.Is and == match it.
type constError string

func (e constError) Error() string { return string(e) }

// ErrNoResult is returned for output without a result table.
const ErrNoResult = constError("no openssl speed result table in the output")

// Value is the throughput for one block size.
type Value struct {
	// BlockBytes is the block size in bytes.
	BlockBytes int `json:"block_bytes"`
	// KBPerSec is the throughput in KB/s (1000 bytes per second), as openssl
	// prints it.
	KBPerSec float64 `json:"kb_s"`
}

// Row is one result line of the table.
type Row struct {
	// Cipher is the algorithm in lower case with dashes, e.g. "aes-256-cbc"
	// (openssl 3.x prints "AES-256-CBC", non-EVP runs "aes-256 cbc").
	Cipher string `json:"cipher"`
	// Values are the throughputs in the order of the header's block sizes.
	Values []Value `json:"values"`
}

// KBPerSecAt returns the throughput for blockBytes, nil if the row has no
// such column (OpenSSL 1.0.x has no 16384-byte column).
func (r Row) KBPerSecAt(blockBytes int) *float64 {
	for _, v := range r.Values {
		if v.BlockBytes == blockBytes {
			x := v.KBPerSec
			return &x
		}
	}
	return nil
}

// Pass is one "Doing ... for 3s on 16 size blocks: N ...'s in 3.00s" line
// (printed to stderr): the raw count behind one table value.
type Pass struct {
	Cipher     string  `json:"cipher"`
	BlockBytes int     `json:"block_bytes"`
	Count      int64   `json:"count"`
	ElapsedS   float64 `json:"elapsed_s"`
}

// Result is one parsed `openssl speed` run.
type Result struct {
	// Version is the openssl version the output names, e.g. "3.0.19";
	// empty when the output does not say.
	Version string `json:"version"`
	// VersionLine is the line Version was taken from.
	VersionLine string `json:"version_line"`
	// BlockSizes are the header's block sizes in bytes.
	BlockSizes []int `json:"block_sizes"`
	// Rows are the result lines in output order.
	Rows []Row `json:"rows"`
	// Passes are the "Doing" lines, when the output includes stderr.
	Passes []Pass `json:"passes,omitempty"`
	// Notes lists lines that looked like results but could not be read.
	Notes note.List `json:"notes,omitempty"`
}

// KBPerSec returns the first row's throughput for cipher (any spelling) at
// blockBytes, nil when absent.
func (r *Result) KBPerSec(cipher string, blockBytes int) *float64 {
	c := normalizeCipher(strings.Fields(cipher))
	for _, row := range r.Rows {
		if row.Cipher == c {
			return row.KBPerSecAt(blockBytes)
		}
	}
	return nil
}

var (
	headerSizeRE = lazyre.Regexp(`(\d+) bytes`)
	valueRE      = lazyre.Regexp(`^(\d+(?:\.\d+)?)(k?)$`)
	doingRE      = lazyre.Regexp(`^Doing (.+?) (?:ops )?for \d+(?:\.\d+)?s on (\d+) size blocks: (\d+) .+?'s in (\d+(?:\.\d+)?)s`)
	versionRE    = lazyre.Regexp(`^(?:OpenSSL|LibreSSL)\s+(\d[^\s,]*)|^version:\s*(\S+)`)
)

// Parse reads the output of `openssl speed` (stdout, optionally followed by
// stderr): the human-readable table, the machine-readable (-mr) "+H"/"+F"
// lines and the "Doing" lines. It returns ErrNoResult when there is no
// result row; the partial Result comes with it.
func Parse(out string) (*Result, error) {
	r := &Result{}
	var sizes []int // sizes of the table being read, nil outside a table
	for _, raw := range strings.Split(out, "\n") {
		line := strings.TrimSpace(strings.TrimRight(raw, "\r"))
		switch {
		case line == "":
			sizes = nil
		case r.VersionLine == "" && versionRE.MatchString(line):
			m := versionRE.FindStringSubmatch(line)
			r.VersionLine, r.Version = line, m[1]+m[2]
		case strings.HasPrefix(line, "type ") && headerSizeRE.MatchString(line):
			sizes = nil
			for _, m := range headerSizeRE.FindAllStringSubmatch(line, -1) {
				n, _ := strconv.Atoi(m[1])
				sizes = append(sizes, n)
			}
			r.BlockSizes = sizes
		case strings.HasPrefix(line, "+H:"):
			sizes = nil
			for _, f := range strings.Split(line, ":")[1:] {
				if n, err := strconv.Atoi(f); err == nil {
					sizes = append(sizes, n)
				}
			}
			r.BlockSizes = sizes
		case strings.HasPrefix(line, "+F:"):
			if row, ok := parseMachineRow(line, r.BlockSizes); ok {
				r.Rows = append(r.Rows, row)
			} else {
				r.Notes.Add("machine-readable row", note.Malformed)
			}
		case strings.HasPrefix(line, "Doing "):
			if m := doingRE.FindStringSubmatch(line); m != nil {
				bs, _ := strconv.Atoi(m[2])
				n, _ := strconv.ParseInt(m[3], 10, 64)
				el, _ := strconv.ParseFloat(m[4], 64)
				r.Passes = append(r.Passes, Pass{Cipher: normalizeCipher(strings.Fields(m[1])), BlockBytes: bs, Count: n, ElapsedS: el})
			}
		case sizes != nil:
			row, ok := parseRow(line, sizes)
			switch {
			case ok:
				r.Rows = append(r.Rows, row)
			case hasValue(line):
				r.Notes.Add("row "+strconv.Quote(truncate(line, 40)), note.Malformed)
				sizes = nil
			default:
				sizes = nil // prose after the table
			}
		}
	}
	if len(r.Rows) == 0 {
		return r, ErrNoResult
	}
	return r, nil
}

// parseRow reads "aes-256-cbc  123456.78k ... 1234.56k" (or "aes-256 cbc
// ..."): name words, then one value per block size. Text after the values
// (such as a label someone appended) is ignored.
func parseRow(line string, sizes []int) (Row, bool) {
	fields := strings.Fields(line)
	i := 0
	for i < len(fields) && !valueRE.MatchString(fields[i]) {
		i++
	}
	if i == 0 || i == len(fields) || len(fields)-i < len(sizes) {
		return Row{}, false
	}
	row := Row{Cipher: normalizeCipher(fields[:i])}
	for k, size := range sizes {
		v, ok := parseValue(fields[i+k])
		if !ok {
			return Row{}, false
		}
		row.Values = append(row.Values, Value{BlockBytes: size, KBPerSec: v})
	}
	return row, true
}

// hasValue reports whether any word of line looks like a table value.
func hasValue(line string) bool {
	for _, f := range strings.Fields(line) {
		if valueRE.MatchString(f) {
			return true
		}
	}
	return false
}

// parseValue converts "123456.78k" (thousands of bytes/s) or "9876.54"
// (bytes/s, printed so below 10000 bytes/s) to KB/s.
func parseValue(s string) (float64, bool) {
	m := valueRE.FindStringSubmatch(s)
	if m == nil {
		return 0, false
	}
	v, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		return 0, false
	}
	if m[2] == "" {
		v /= 1000
	}
	return v, true
}

// parseMachineRow reads "+F:22:aes-256-cbc:1.23:4.56:..." (values in bytes/s).
func parseMachineRow(line string, sizes []int) (Row, bool) {
	f := strings.Split(line, ":")
	if len(f) < 4 || len(f)-3 != len(sizes) {
		return Row{}, false
	}
	row := Row{Cipher: normalizeCipher(strings.Fields(f[2]))}
	for k, size := range sizes {
		v, err := strconv.ParseFloat(f[3+k], 64)
		if err != nil || v < 0 {
			return Row{}, false
		}
		row.Values = append(row.Values, Value{BlockBytes: size, KBPerSec: v / 1000})
	}
	return row, true
}

func normalizeCipher(words []string) string {
	return strings.ToLower(strings.Join(words, "-"))
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
