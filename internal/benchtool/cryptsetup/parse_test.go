package cryptsetup

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"boardbench/internal/testutil/fixture"
)

// The tables below follow the formats of cryptsetup 2.x's benchmark action:
// with --cipher, a header right-aligned to the algorithm's width and one row
// printed as "%*s-%s  %9db  %10.1f MiB/s  %10.1f MiB/s"; without it, the
// PBKDF lines and a table of twelve ciphers where an unavailable one reads
// "N/A". They are typed after those format strings (the kernel of the
// machine where the tests were written has no AF_ALG, so cryptsetup could
// not print a figure there); testdata holds what it did print.
const (
	oneCipher256 = "# Tests are approximate using memory only (no storage IO).\n" +
		"# Algorithm |       Key |      Encryption |      Decryption\n" +
		"    aes-xts        256b        99.5 MiB/s       101.3 MiB/s\n"
	oneCipher512 = "# Tests are approximate using memory only (no storage IO).\n" +
		"# Algorithm |       Key |      Encryption |      Decryption\n" +
		"    aes-xts        512b      2334.9 MiB/s      2329.1 MiB/s\n"
	adiantum = "# Tests are approximate using memory only (no storage IO).\n" +
		"#            Algorithm |       Key |      Encryption |      Decryption\n" +
		"xchacha20,aes-adiantum        256b       394.4 MiB/s       421.6 MiB/s\n"
	fullTable = "# Tests are approximate using memory only (no storage IO).\n" +
		"PBKDF2-sha1      1248304 iterations per second for 256-bit key\n" +
		"argon2id      4 iterations, 1048576 memory, 4 parallel threads (CPUs) for 256-bit key (requested 2000 ms time)\n" +
		"#     Algorithm |       Key |      Encryption |      Decryption\n" +
		"        aes-cbc        128b        89.2 MiB/s        90.5 MiB/s\n" +
		"    serpent-xts        256b               N/A               N/A\n" +
		"        aes-xts        512b        74.0 MiB/s        73.9 MiB/s\n"
)

func TestParse(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	tests := []struct {
		name     string
		out      string
		wantErr  error
		wantRows []Row
		wantMsgs int
	}{
		{"aes-xts 256", oneCipher256, nil, []Row{{"aes-xts", 256, f(99.5), f(101.3)}}, 0},
		{"aes-xts 512", oneCipher512, nil, []Row{{"aes-xts", 512, f(2334.9), f(2329.1)}}, 0},
		{"wide algorithm name", adiantum, nil, []Row{{"xchacha20,aes-adiantum", 256, f(394.4), f(421.6)}}, 0},
		{"full table with N/A and PBKDF lines", fullTable, nil, []Row{{"aes-cbc", 128, f(89.2), f(90.5)}, {"serpent-xts", 256, nil, nil}, {"aes-xts", 512, f(74), f(73.9)}}, 0},
		{"no AF_ALG in the kernel (recorded)",
			fixture.ReadTestdata(t, "cryptsetup-2.6.1-no-af-alg-aes-xts-256.stdout") + "\n" + fixture.ReadTestdata(t, "cryptsetup-2.6.1-no-af-alg-aes-xts-256.stderr"),
			ErrUnavailable, nil, 3},
		{"only N/A", "#     Algorithm |       Key |      Encryption |      Decryption\n    aes-xts        256b               N/A               N/A\n", ErrNoResult, []Row{{"aes-xts", 256, nil, nil}}, 0},
		{"empty", "", ErrNoResult, nil, 0},
		{"header only", "# Tests are approximate using memory only (no storage IO).\n", ErrNoResult, nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Parse(tt.out)
			if !errors.Is(err, tt.wantErr) || (tt.wantErr == nil) != (err == nil) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if len(r.Rows) != len(tt.wantRows) {
				t.Fatalf("rows %+v, want %+v", r.Rows, tt.wantRows)
			}
			for i, w := range tt.wantRows {
				g := r.Rows[i]
				if g.Algorithm != w.Algorithm || g.KeyBits != w.KeyBits || fmtPtr(g.EncryptionMiBs) != fmtPtr(w.EncryptionMiBs) || fmtPtr(g.DecryptionMiBs) != fmtPtr(w.DecryptionMiBs) {
					t.Errorf("row %d = %s, want %s", i, fmtRow(g), fmtRow(w))
				}
			}
			if len(r.Messages) != tt.wantMsgs {
				t.Errorf("messages %q, want %d", r.Messages, tt.wantMsgs)
			}
		})
	}
}

func TestParseUnavailableSaysWhy(t *testing.T) {
	_, err := Parse(fixture.ReadTestdata(t, "cryptsetup-2.6.1-no-af-alg-aes-xts-256.stderr"))
	if err == nil || !strings.Contains(err.Error(), "Cipher aes-xts-plain64 (with 256 bits key) is not available.") || !strings.Contains(err.Error(), "algif_skcipher") {
		t.Errorf("error %v must carry cryptsetup's message", err)
	}
}

func TestParseMalformedRowIsNoted(t *testing.T) {
	r, err := Parse("    aes-xts        256b      fast MiB/s      1.0 MiB/s\n")
	if !errors.Is(err, ErrNoResult) || len(r.Notes) != 1 {
		t.Errorf("err %v notes %+v", err, r.Notes)
	}
}

func TestAlgorithm(t *testing.T) {
	for in, want := range map[string]string{"aes-xts-plain64": "aes-xts", "aes-cbc-essiv:sha256": "aes-cbc", "aes-xts": "aes-xts", "aes": "aes"} {
		if got := Algorithm(in); got != want {
			t.Errorf("Algorithm(%q) = %q, want %q", in, got, want)
		}
	}
}

func fmtPtr(v *float64) string {
	if v == nil {
		return "nil"
	}
	return strconv.FormatFloat(*v, 'f', -1, 64)
}

func fmtRow(r Row) string {
	return r.Algorithm + " " + strconv.Itoa(r.KeyBits) + "b " + fmtPtr(r.EncryptionMiBs) + " " + fmtPtr(r.DecryptionMiBs)
}
