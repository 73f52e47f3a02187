package zstd

import (
	"bytes"
	"compress/flate"
	"crypto/sha256"
	"encoding/hex"
	"testing"
)

// inputSHA256 pins the first MiB of the input: the same name must mean the
// same bytes on every machine and every build (a change of the generator
// needs a new InputName).
const inputSHA256 = "604afce38e721eaa8c623ea74ad46691a1deede98dd6b64c8e794e0e96003696"

func input(t *testing.T, n int64) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := WriteInput(&b, n); err != nil {
		t.Fatal(err)
	}
	if int64(b.Len()) != n {
		t.Fatalf("WriteInput(%d) wrote %d bytes", n, b.Len())
	}
	return b.Bytes()
}

func TestInputIsFixed(t *testing.T) {
	sum := sha256.Sum256(input(t, 1<<20))
	if got := hex.EncodeToString(sum[:]); got != inputSHA256 {
		t.Fatalf("the first MiB of %s changed: sha256 %s, want %s", InputName, got, inputSHA256)
	}
}

func TestInputPrefix(t *testing.T) {
	for _, n := range []int64{1, 1000, inputBlock - 1, inputBlock + 1, 3*inputBlock + 17} {
		long := input(t, 4*inputBlock)
		if short := input(t, n); !bytes.Equal(short, long[:n]) {
			t.Errorf("the input of %d bytes is not a prefix of a longer one", n)
		}
	}
}

// TestInputMix checks that the input is neither trivial nor random: a
// general-purpose compressor (deflate) shrinks it, but not to nothing,
// and it holds both text lines and bytes outside text.
func TestInputMix(t *testing.T) {
	in := input(t, 4<<20)
	var out bytes.Buffer
	w, _ := flate.NewWriter(&out, 6)
	w.Write(in)
	w.Close()
	ratio := float64(len(in)) / float64(out.Len())
	if ratio < 1.5 || ratio > 8 {
		t.Errorf("deflate ratio %.2f: want a realistic mix between 1.5 and 8", ratio)
	}
	lines := bytes.Count(in, []byte("\n"))
	binary := 0
	for _, c := range in {
		if c < 0x09 || c > 0x7e {
			binary++
		}
	}
	if lines < 10000 || binary < len(in)/20 {
		t.Errorf("%d lines and %d non-text bytes in %d: want both text and binary data", lines, binary, len(in))
	}
}
