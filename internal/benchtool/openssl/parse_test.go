package openssl

import (
	"errors"
	"math"
	"testing"

	"boardbench/internal/testutil/fixture"
)

// openssl102 is laid out as OpenSSL 1.0.2 prints a non-EVP run: no 16384
// column, a two-word cipher name, small values without "k" in bytes/s.
const openssl102 = `OpenSSL 1.0.2g  1 Mar 2016
built on: reproducible build, date unspecified
options:bn(64,32) rc4(ptr,char) des(idx,cisc,16,long) aes(partial) blowfish(ptr)
compiler: cc -I. -I.. -I../include  -fPIC -DOPENSSL_PIC
The 'numbers' are in 1000s of bytes per second processed.
type             16 bytes     64 bytes    256 bytes   1024 bytes   8192 bytes
aes-256 cbc       9876.54     12345.67k    13000.12k    13312.00k    13350.91k
`

// openssl111 is laid out as OpenSSL 1.1.1 prints an EVP run.
const openssl111 = `OpenSSL 1.1.1f  31 Mar 2020
built on: Mon Apr 20 11:53:50 2020 UTC
options:bn(64,64) rc4(char) des(int) aes(partial) blowfish(ptr)
compiler: gcc -fPIC -pthread -Wa,--noexecstack -Wall -DOPENSSL_USE_NODELETE -DOPENSSL_PIC
The 'numbers' are in 1000s of bytes per second processed.
type             16 bytes     64 bytes    256 bytes   1024 bytes   8192 bytes  16384 bytes
aes-256-cbc     109753.82k   290823.97k   494807.98k   606297.13k   651900.25k   650357.42k
`

func TestParse(t *testing.T) {
	tests := []struct {
		name        string
		out         string
		wantVersion string
		wantCipher  string
		wantSizes   int
		want16      float64
		want16K     *float64
		wantPasses  int
	}{
		{"OpenSSL 1.0.2 non-EVP", openssl102, "1.0.2g", "aes-256-cbc", 5, 9.87654, nil, 0},
		{"OpenSSL 1.1.1", openssl111, "1.1.1f", "aes-256-cbc", 6, 109753.82, ptr(650357.42), 0},
		{
			"OpenSSL 3.0 with stderr",
			fixture.ReadTestdata(t, "openssl-3.0.19-x64-aes-256-cbc.stdout") + fixture.ReadTestdata(t, "openssl-3.0.19-x64-aes-256-cbc.stderr"),
			"3.0.19", "aes-256-cbc", 6, 517770.50, ptr(989364.22), 6,
		},
		{
			"OpenSSL 3.0 AES-256-GCM",
			fixture.ReadTestdata(t, "openssl-3.0.19-x64-aes-256-gcm.stdout") + fixture.ReadTestdata(t, "openssl-3.0.19-x64-aes-256-gcm.stderr"),
			"3.0.19", "aes-256-gcm", 6, 16620.48, ptr(3202875.39), 6,
		},
		{
			"OpenSSL 3.0 ChaCha20-Poly1305",
			fixture.ReadTestdata(t, "openssl-3.0.19-x64-chacha20-poly1305.stdout") + fixture.ReadTestdata(t, "openssl-3.0.19-x64-chacha20-poly1305.stderr"),
			"3.0.19", "chacha20-poly1305", 6, 177265.42, ptr(3563356.16), 6,
		},
		{"OpenSSL 3.0 machine-readable", fixture.ReadTestdata(t, "openssl-3.0.19-x64-aes-128-cbc-mr.stdout"), "", "aes-128-cbc", 6, 489996.016, ptr(686981.120), 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Parse(tt.out)
			if err != nil {
				t.Fatal(err)
			}
			if r.Version != tt.wantVersion || len(r.BlockSizes) != tt.wantSizes || len(r.Rows) != 1 || len(r.Notes) != 0 {
				t.Fatalf("version %q sizes %v rows %d notes %v", r.Version, r.BlockSizes, len(r.Rows), r.Notes)
			}
			row := r.Rows[0]
			if row.Cipher != tt.wantCipher || len(row.Values) != tt.wantSizes {
				t.Errorf("row %+v, want cipher %q with %d values", row, tt.wantCipher, tt.wantSizes)
			}
			if v := r.KBPerSec(tt.wantCipher, 16); v == nil || math.Abs(*v-tt.want16) > 1e-6 {
				t.Errorf("16 bytes = %v, want %v", deref(v), tt.want16)
			}
			got16K := r.KBPerSec(tt.wantCipher, 16384)
			if (got16K == nil) != (tt.want16K == nil) || got16K != nil && math.Abs(*got16K-*tt.want16K) > 1e-6 {
				t.Errorf("16384 bytes = %v, want %v", deref(got16K), deref(tt.want16K))
			}
			if len(r.Passes) != tt.wantPasses {
				t.Errorf("passes = %d, want %d", len(r.Passes), tt.wantPasses)
			}
		})
	}
}

// TestPassesMatchTable checks the table against the raw counts of the
// "Doing" lines: value = count × block size / elapsed / 1000, within the
// rounding of the elapsed time openssl prints (two decimals).
func TestPassesMatchTable(t *testing.T) {
	r, err := Parse(fixture.ReadTestdata(t, "openssl-3.0.19-x64-aes-256-cbc.stdout") + fixture.ReadTestdata(t, "openssl-3.0.19-x64-aes-256-cbc.stderr"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range r.Passes {
		table := r.KBPerSec(p.Cipher, p.BlockBytes)
		if table == nil {
			t.Fatalf("no table value for %+v", p)
		}
		fromCount := float64(p.Count) * float64(p.BlockBytes) / p.ElapsedS / 1000
		if math.Abs(fromCount-*table) / *table > 0.01 {
			t.Errorf("%d bytes: table %.2f KB/s, counts give %.2f KB/s", p.BlockBytes, *table, fromCount)
		}
	}
}

func TestParseFailures(t *testing.T) {
	tests := []struct {
		name      string
		out       string
		wantNotes int
	}{
		{"empty", "", 0},
		{"error message", "speed: Unknown algorithm aes-512-cbc\n", 0},
		{"header only", "type             16 bytes     64 bytes\n", 0},
		{"garbage row", "type             16 bytes     64 bytes\naes-256-cbc   12k   zz\n", 1},
		{"short row", "type             16 bytes     64 bytes\naes-256-cbc   12k\n", 1},
		{"binary junk", "\x00\xff type 16 bytes\n\x00aes 1k 2k", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Parse(tt.out)
			if !errors.Is(err, ErrNoResult) || r == nil {
				t.Fatalf("Parse = %+v, %v; want partial result and ErrNoResult", r, err)
			}
			if len(r.Notes) != tt.wantNotes {
				t.Errorf("notes = %+v, want %d", r.Notes, tt.wantNotes)
			}
		})
	}
}

func TestParseValue(t *testing.T) {
	tests := []struct {
		in     string
		want   float64
		wantOK bool
	}{
		{"123456.78k", 123456.78, true},
		{"9876.54", 9.87654, true},
		{"0.00", 0, true},
		{"12k3", 0, false},
		{"-5k", 0, false},
		{"", 0, false},
	}
	for _, tt := range tests {
		got, ok := parseValue(tt.in)
		if ok != tt.wantOK || math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("parseValue(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.wantOK)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add(openssl102)
	f.Add(openssl111)
	f.Add("+H:16:64\n+F:1:aes:1:2\n")
	f.Fuzz(func(t *testing.T, s string) {
		r, err := Parse(s)
		if r == nil {
			t.Fatal("nil result")
		}
		if err == nil && len(r.Rows) == 0 {
			t.Fatal("no rows without error")
		}
	})
}

func ptr(v float64) *float64 { return &v }

func deref(v *float64) any {
	if v == nil {
		return nil
	}
	return *v
}
