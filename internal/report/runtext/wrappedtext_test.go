package runtext

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"boardbench/internal/benchtool/wrapped"
	"boardbench/internal/result"
	"boardbench/internal/textfmt"
)

// TestRenderWrapped renders the figures of each kind of wrapped benchmark,
// read from the recorded outputs of internal/benchtool/wrapped, and checks
// the figures that identify them.
func TestRenderWrapped(t *testing.T) {
	cases := []struct {
		file string
		argv []string
		want []string
	}{
		{"7zz-two-runs.txt", []string{"7zz", "b"}, []string{"7-Zip 24.09 (recognised from the command line):", "5250 MIPS", "374%", "mean rating:", "multi-threaded"}},
		{"openssl-speed.txt", []string{"openssl", "speed", "-evp", "aes-256-cbc"}, []string{"openssl speed", "aes-256-cbc", "16 KiB"}},
		{"stress-ng-0.17-metrics.txt", []string{"stress-ng", "--cpu", "4"}, []string{"stress-ng (recognised from the command line):", "6546.71", "bogo ops/s (real)", "cpu"}},
		{"sysbench-cpu.txt", []string{"sysbench", "cpu", "run"}, []string{"sysbench 1.0.20", "test: cpu", "events per second:", "latency in ms:"}},
		{"sysbench-memory.txt", []string{"sysbench", "memory", "run"}, []string{"MiB/s"}},
		{"llama-bench.txt", []string{"llama-bench"}, []string{"llama-bench", "tokens/s", "pp512", "tg128"}},
		{"geekbench6.txt", []string{"geekbench6"}, []string{"Geekbench", "single-core score:", "https://browser.geekbench.com/"}},
		{"hpl-failed.txt", []string{"sh", "-c", "./run"}, []string{"HPL 2.3 (recognised from its output):", "FAILED", "PASSED", "not a result"}},
		{"cpuminer-multi-scrypt.txt", []string{"cpuminer", "--benchmark"}, []string{"cpuminer", "algorithm scrypt", "kH/s"}},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			out, err := os.ReadFile(filepath.Join("..", "..", "benchtool", "wrapped", "testdata", c.file))
			if err != nil {
				t.Skipf("recorded output: %v", err)
			}
			f, ok := wrapped.Recognize(c.argv, out)
			if !ok || !f.HasResult() {
				t.Fatalf("not recognised: %+v", f)
			}
			var p result.Phase
			p.Name = result.PhaseCommand
			if err := p.SetFigures(f); err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			renderFigures(textfmt.New(&b, false), p, "")
			text := b.String()
			for _, w := range c.want {
				if !strings.Contains(text, w) {
					t.Errorf("lacks %q:\n%s", w, text)
				}
			}
			for _, l := range strings.Split(text, "\n") {
				if n := len([]rune(l)); n > 100 {
					t.Errorf("line of %d columns: %q", n, l)
				}
			}
		})
	}
}

// TestRenderWrappedWithoutResult shows the note of a named benchmark whose
// output held no result.
func TestRenderWrappedWithoutResult(t *testing.T) {
	f, _ := wrapped.Recognize([]string{"7zz", "b"}, []byte("ERROR: Can't allocate required memory!\n"))
	var p result.Phase
	p.Name = result.PhaseCommand
	if err := p.SetFigures(f); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	renderFigures(textfmt.New(&b, false), p, "")
	for _, w := range []string{"7-Zip (recognised from the command line):", "figures: none read from the output", "note: no 7-Zip result in the output"} {
		if !strings.Contains(b.String(), w) {
			t.Errorf("lacks %q:\n%s", w, b.String())
		}
	}
}
