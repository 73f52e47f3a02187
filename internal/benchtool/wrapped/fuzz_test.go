package wrapped

import (
	"encoding/json"
	"testing"
)

// fuzzParser runs one parser on arbitrary output: it must not panic, must
// set its figures exactly when it reports a result, and what it reports
// must encode as JSON (no NaN or infinity).
func fuzzParser(f *testing.F, seeds []string, parse func([]string, string, *Figures) bool, has func(Figures) bool) {
	for _, s := range seeds {
		f.Add(readTestdata(f, s))
	}
	f.Add([]byte(""))
	f.Fuzz(func(t *testing.T, out []byte) {
		var fig Figures
		ok := parse(nil, string(out), &fig)
		if ok != has(fig) {
			t.Fatalf("parser said %v but figures set = %v", ok, has(fig))
		}
		if _, err := json.Marshal(fig); err != nil {
			t.Fatalf("figures do not encode: %v", err)
		}
	})
}

func FuzzSevenZip(f *testing.F) {
	fuzzParser(f, []string{"7zz-two-runs.txt"}, parseSevenZip, func(x Figures) bool { return x.SevenZip != nil })
}

func FuzzOpenSSL(f *testing.F) {
	fuzzParser(f, []string{"openssl-speed.txt"}, parseOpenSSL, func(x Figures) bool { return x.OpenSSL != nil })
}

func FuzzStressNG(f *testing.F) {
	fuzzParser(f, []string{"stress-ng-0.13-metrics-brief.txt", "stress-ng-0.17-metrics.txt"}, parseStressNG,
		func(x Figures) bool { return x.StressNG != nil })
}

func FuzzSysbench(f *testing.F) {
	fuzzParser(f, []string{"sysbench-cpu.txt", "sysbench-memory.txt", "sysbench-threads.txt"}, parseSysbench,
		func(x Figures) bool { return x.Sysbench != nil })
}

func FuzzLlamaBench(f *testing.F) {
	fuzzParser(f, []string{"llama-bench.txt"}, parseLlamaBench, func(x Figures) bool { return x.LlamaBench != nil })
}

func FuzzGeekbench(f *testing.F) {
	fuzzParser(f, []string{"geekbench6.txt", "geekbench6-url-only.txt"}, parseGeekbench, func(x Figures) bool { return x.Geekbench != nil })
}

func FuzzHPL(f *testing.F) {
	fuzzParser(f, []string{"hpl-passed.txt", "hpl-failed.txt"}, parseHPL, func(x Figures) bool { return x.HPL != nil })
}

func FuzzCPUMiner(f *testing.F) {
	fuzzParser(f, []string{"cpuminer-multi-scrypt.txt", "minerd-pooler.txt"}, parseCPUMiner, func(x Figures) bool { return x.CPUMiner != nil })
}

// FuzzRecognize checks Recognize as a whole on arbitrary output.
func FuzzRecognize(f *testing.F) {
	for _, s := range []string{"7zz-two-runs.txt", "hpl-failed.txt", "llama-bench.txt"} {
		f.Add("7zz", readTestdata(f, s))
	}
	f.Fuzz(func(t *testing.T, arg0 string, out []byte) {
		fig, ok := Recognize([]string{arg0, "b"}, out)
		if !ok && (fig.Benchmark != "" || fig.HasResult()) {
			t.Fatalf("not recognised but figures %+v", fig)
		}
		if _, err := json.Marshal(fig); err != nil {
			t.Fatalf("figures do not encode: %v", err)
		}
	})
}
