package llamabench

import (
	"errors"
	"os"
	"testing"
)

func TestParseJSON(t *testing.T) {
	b, err := os.ReadFile("testdata/llama-bench.json")
	if err != nil {
		t.Fatal(err)
	}
	r, err := Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	if r.Version() != "build 6920 (5a32f10a)" || r.ModelType != "qwen2 0.5B Q4_0" || r.Backends != "CPU" {
		t.Errorf("build %q model %q backends %q", r.Version(), r.ModelType, r.Backends)
	}
	if r.ModelBytes == nil || *r.ModelBytes != 428650240 || r.ModelParams == nil || *r.ModelParams != 494032768 || r.Threads == nil || *r.Threads != 4 {
		t.Errorf("model bytes %v params %v threads %v", r.ModelBytes, r.ModelParams, r.Threads)
	}
	pp, tg := r.First("pp"), r.First("tg")
	if pp == nil || pp.Name != "pp512" || pp.TokensS != 221.285 || pp.StddevTS == nil || *pp.StddevTS != 2.061 {
		t.Errorf("pp %+v", pp)
	}
	if tg == nil || tg.Name != "tg128" || tg.TokensS != 26.501 {
		t.Errorf("tg %+v", tg)
	}
}

func TestParseVariants(t *testing.T) {
	tests := []struct {
		name  string
		out   string
		tests []string
		err   bool
	}{
		{"log lines before the array", "main: loading model\n[{\"n_prompt\":512,\"n_gen\":0,\"avg_ts\":10.5}]\n", []string{"pp512"}, false},
		{"jsonl", "{\"n_prompt\":0,\"n_gen\":128,\"avg_ts\":3.25}\n{\"n_prompt\":512,\"n_gen\":0,\"n_depth\":512,\"avg_ts\":9}\n", []string{"tg128", "pp512 @ d512"}, false},
		{"pp and tg in one test", `[{"n_prompt":512,"n_gen":128,"avg_ts":20}]`, []string{"pp512+tg128"}, false},
		{"no figure", `[{"n_prompt":512,"n_gen":0}]`, nil, true},
		{"negative figure", `[{"n_prompt":512,"n_gen":0,"avg_ts":-1}]`, nil, true},
		{"markdown table", "| model | test | t/s |\n| --- | --- | --- |\n| x | pp512 | 1.0 ± 0.1 |\n", nil, true},
		{"empty", "", nil, true},
		{"truncated", `[{"n_prompt":512,"n_gen":0,"avg_ts":1`, nil, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Parse([]byte(tc.out))
			if tc.err {
				if !errors.Is(err, ErrNoResult) {
					t.Fatalf("error %v, want ErrNoResult", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, x := range r.Tests {
				names = append(names, x.Name)
			}
			if len(names) != len(tc.tests) {
				t.Fatalf("tests %v, want %v", names, tc.tests)
			}
			for i := range names {
				if names[i] != tc.tests[i] {
					t.Errorf("tests %v, want %v", names, tc.tests)
				}
			}
		})
	}
}

func TestArgs(t *testing.T) {
	tests := []struct {
		opts Options
		want string
	}{
		{Options{Model: "m.gguf"}, "-m m.gguf -p 512 -n 128 -o json"},
		{Options{Model: "m.gguf", Prompt: 64, Gen: 16, Repetitions: 1, Threads: 4}, "-m m.gguf -p 64 -n 16 -r 1 -t 4 -o json"},
	}
	for _, tc := range tests {
		got := Args(tc.opts)
		s := ""
		for i, a := range got {
			if i > 0 {
				s += " "
			}
			s += a
		}
		if s != tc.want {
			t.Errorf("Args(%+v) = %q, want %q", tc.opts, s, tc.want)
		}
	}
}
