// Package cryptsetup is the benchtool wrapper of `cryptsetup benchmark
// --cipher CIPHER --key-size BITS`: it runs the tool and parses its table
// into typed figures, keeping the raw output.
//
// cryptsetup's benchmark measures the kernel's own cipher implementation
// through the kernel crypto API (AF_ALG sockets), on buffers in memory: it
// opens no block device and writes nothing to storage ("Tests are
// approximate using memory only (no storage IO)"). Its figures are in MiB/s
// (2^20 bytes per second) for encryption and decryption. A kernel without
// AF_ALG support (algif_skcipher), or without the cipher, makes it print
// that the cipher "is not available" and exit non-zero.
package cryptsetup

import (
	"boardbench/internal/lazyre"
	"strconv"
	"strings"

	"boardbench/internal/note"
)

// constError is an error whose value is its text, so that a sentinel
// error is a constant: static data that costs nothing when boardbench
// starts (errors.New would run at init). errors.Is and == match it.
type constError string

func (e constError) Error() string { return string(e) }

// ErrNoResult is returned for output without a result row.
const ErrNoResult = constError("no cryptsetup benchmark result in the output")

// ErrUnavailable is returned when cryptsetup says the cipher or the kernel's
// crypto interface is not available; the error text carries its message.
const ErrUnavailable = constError("cipher not available to cryptsetup")

// Row is one line of the benchmark table.
type Row struct {
	// Algorithm is the cipher and mode as printed, e.g. "aes-xts" (the IV
	// generator of "aes-xts-plain64" is not printed).
	Algorithm string `json:"algorithm"`
	// KeyBits is the key size, e.g. 256 or 512 (XTS uses two keys: 512
	// bits are two AES-256 keys).
	KeyBits int `json:"key_bits"`
	// EncryptionMiBs and DecryptionMiBs are in MiB/s; nil for "N/A".
	EncryptionMiBs *float64 `json:"encryption_mib_s"`
	DecryptionMiBs *float64 `json:"decryption_mib_s"`
}

// Result is one parsed `cryptsetup benchmark` run.
type Result struct {
	Rows []Row `json:"rows"`
	// Messages are cryptsetup's own complaints ("Cipher ... is not
	// available.", "Required kernel crypto interface not available.",
	// "Result of benchmark is not reliable."), in output order.
	Messages []string `json:"messages,omitempty"`
	// Notes lists lines that looked like results but could not be read.
	Notes note.List `json:"notes,omitempty"`
}

// Find returns the row of algorithm (as printed, e.g. "aes-xts") and
// keyBits, nil when absent.
func (r *Result) Find(algorithm string, keyBits int) *Row {
	if r == nil {
		return nil
	}
	for i := range r.Rows {
		if r.Rows[i].Algorithm == algorithm && r.Rows[i].KeyBits == keyBits {
			return &r.Rows[i]
		}
	}
	return nil
}

// rowRE matches "    aes-xts        256b      1774.5 MiB/s      1836.1 MiB/s"
// and the "N/A" rows of the full table ("serpent-xts   256b   N/A   N/A").
var rowRE = lazyre.Regexp(`^(\S+)\s+(\d+)b\s+(N/A|\d+(?:\.\d+)?)(?:\s+MiB/s)?\s+(N/A|\d+(?:\.\d+)?)(?:\s+MiB/s)?$`)

// messageMarkers recognise cryptsetup's complaints about the benchmark.
var messageMarkers = []string{"is not available", "not available.", "not reliable", "kernel module loaded", "No known cipher"}

// Parse reads the output of `cryptsetup benchmark` (stdout, optionally
// followed by stderr). It returns ErrUnavailable (wrapped with cryptsetup's
// message) when cryptsetup said the cipher is not available and printed no
// figure, ErrNoResult when there is no figure otherwise; the partial Result
// comes with either.
func Parse(out string) (*Result, error) {
	r := &Result{}
	for _, raw := range strings.Split(out, "\n") {
		line := strings.TrimSpace(strings.TrimRight(raw, "\r"))
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
			continue
		case isMessage(line):
			r.Messages = append(r.Messages, line)
		default:
			m := rowRE.FindStringSubmatch(line)
			if m == nil {
				if strings.Contains(line, "MiB/s") {
					r.Notes.Add("row "+strconv.Quote(truncate(line, 40)), note.Malformed)
				}
				continue // PBKDF lines of the full benchmark, prose
			}
			bits, err := strconv.Atoi(m[2])
			if err != nil {
				r.Notes.Add("row "+strconv.Quote(truncate(line, 40)), note.Malformed)
				continue
			}
			r.Rows = append(r.Rows, Row{Algorithm: m[1], KeyBits: bits, EncryptionMiBs: value(m[3]), DecryptionMiBs: value(m[4])})
		}
	}
	for _, row := range r.Rows {
		if row.EncryptionMiBs != nil || row.DecryptionMiBs != nil {
			return r, nil
		}
	}
	if len(r.Messages) > 0 {
		return r, &unavailableError{msg: strings.Join(r.Messages, " ")}
	}
	return r, ErrNoResult
}

// unavailableError carries cryptsetup's message and matches ErrUnavailable.
type unavailableError struct{ msg string }

func (e *unavailableError) Error() string        { return e.msg }
func (e *unavailableError) Is(target error) bool { return target == ErrUnavailable }

func isMessage(line string) bool {
	for _, m := range messageMarkers {
		if strings.Contains(line, m) {
			return true
		}
	}
	return false
}

// value converts a table cell; nil for "N/A".
func value(s string) *float64 {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return nil
	}
	return &v
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
