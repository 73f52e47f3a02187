// Package llamabench runs llama.cpp's llama-bench on a model file the user
// gives (never downloaded) and reads its JSON output (`-o json`): prompt
// processing (pp) and text generation (tg) throughput in tokens per
// second, the build, the model's description and the thread count.
package llamabench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Result is what one llama-bench run printed.
type Result struct {
	// BuildCommit and BuildNumber name llama.cpp's build ("8cf427ff",
	// 5163); "" and nil when not printed.
	BuildCommit string `json:"build_commit"`
	BuildNumber *int64 `json:"build_number"`
	// CPUInfo and Backends are as printed ("CPU", "BLAS"...).
	CPUInfo  string `json:"cpu_info"`
	Backends string `json:"backends"`
	// ModelFile, ModelType, ModelBytes and ModelParams describe the model
	// as llama-bench read it.
	ModelFile   string `json:"model_filename"`
	ModelType   string `json:"model_type"`
	ModelBytes  *int64 `json:"model_size"`
	ModelParams *int64 `json:"model_n_params"`
	// Threads is n_threads of the first test.
	Threads *int `json:"n_threads"`
	// Tests are the tests in the order printed.
	Tests []Test `json:"tests"`
}

// Test is one test: its shape and its mean throughput.
type Test struct {
	// Name is "pp512", "tg128", "pp512+tg128" or with " @ d512" for a
	// prefilled context, from the shape.
	Name    string `json:"name"`
	NPrompt int    `json:"n_prompt"`
	NGen    int    `json:"n_gen"`
	NDepth  int    `json:"n_depth"`
	// TokensS is avg_ts, the mean tokens per second over the repetitions;
	// StddevTS its standard deviation (nil when not printed).
	TokensS  float64  `json:"tokens_s"`
	StddevTS *float64 `json:"tokens_s_stddev"`
}

// Version is "build NUMBER (COMMIT)" as llama-bench's markdown footer
// says it, "" when the output names no build.
func (r *Result) Version() string {
	switch {
	case r == nil:
		return ""
	case r.BuildNumber != nil && r.BuildCommit != "":
		return fmt.Sprintf("build %d (%s)", *r.BuildNumber, r.BuildCommit)
	case r.BuildNumber != nil:
		return fmt.Sprintf("build %d", *r.BuildNumber)
	case r.BuildCommit != "":
		return "build " + r.BuildCommit
	}
	return ""
}

// First returns the first test of a kind: "pp" (prompt processing only)
// or "tg" (generation only) without a prefilled context; nil when none.
func (r *Result) First(kind string) *Test {
	if r == nil {
		return nil
	}
	for i, t := range r.Tests {
		if t.NDepth != 0 {
			continue
		}
		if (kind == "pp" && t.NPrompt > 0 && t.NGen == 0) || (kind == "tg" && t.NGen > 0 && t.NPrompt == 0) {
			return &r.Tests[i]
		}
	}
	return nil
}

// constError is an error whose value is its text, so that a sentinel
// error is a constant: static data that costs nothing when boardbench
// starts (errors.New would run at init). errors.Is and == match it.
type constError string

func (e constError) Error() string { return string(e) }

// ErrNoResult is returned when the output holds no test with a figure.
const ErrNoResult = constError("no llama-bench test result in the output")

// record is one object of llama-bench's JSON output, the fields boardbench
// reads (the others vary between builds and are ignored).
type record struct {
	BuildCommit string      `json:"build_commit"`
	BuildNumber json.Number `json:"build_number"`
	CPUInfo     string      `json:"cpu_info"`
	Backends    string      `json:"backends"`
	ModelFile   string      `json:"model_filename"`
	ModelType   string      `json:"model_type"`
	ModelSize   json.Number `json:"model_size"`
	ModelParams json.Number `json:"model_n_params"`
	NThreads    json.Number `json:"n_threads"`
	NPrompt     json.Number `json:"n_prompt"`
	NGen        json.Number `json:"n_gen"`
	NDepth      json.Number `json:"n_depth"`
	AvgTS       json.Number `json:"avg_ts"`
	StddevTS    json.Number `json:"stddev_ts"`
}

// Parse reads llama-bench's JSON output: an array of test objects (`-o
// json`), or one object per line (`-o jsonl`). Text before the array (log
// lines on a shared stream) is skipped. A test without avg_ts is left out;
// ErrNoResult when none is left.
func Parse(out []byte) (*Result, error) {
	recs, err := decode(out)
	if err != nil {
		return nil, err
	}
	r := &Result{}
	for i, rec := range recs {
		ts, ok := num(rec.AvgTS)
		if !ok {
			continue
		}
		if i == 0 || r.BuildCommit == "" {
			r.BuildCommit = rec.BuildCommit
			r.BuildNumber = intPtr(rec.BuildNumber)
			r.CPUInfo, r.Backends = rec.CPUInfo, rec.Backends
			r.ModelFile, r.ModelType = rec.ModelFile, rec.ModelType
			r.ModelBytes, r.ModelParams = intPtr(rec.ModelSize), intPtr(rec.ModelParams)
			if n := intPtr(rec.NThreads); n != nil {
				v := int(*n)
				r.Threads = &v
			}
		}
		t := Test{NPrompt: atoi(rec.NPrompt), NGen: atoi(rec.NGen), NDepth: atoi(rec.NDepth), TokensS: round3(ts)}
		if sd, ok := num(rec.StddevTS); ok {
			v := round3(sd)
			t.StddevTS = &v
		}
		t.Name = testName(t)
		r.Tests = append(r.Tests, t)
	}
	if len(r.Tests) == 0 {
		return r, ErrNoResult
	}
	return r, nil
}

// decode finds the JSON array (or the JSON lines) in out.
func decode(out []byte) ([]record, error) {
	if i := bytes.IndexByte(out, '['); i >= 0 {
		var recs []record
		if err := json.Unmarshal(trimAfterArray(out[i:]), &recs); err == nil {
			return recs, nil
		}
	}
	var recs []record
	for _, line := range bytes.Split(out, []byte("\n")) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 || line[0] != '{' {
			continue
		}
		var rec record
		if json.Unmarshal(line, &rec) == nil {
			recs = append(recs, rec)
		}
	}
	if len(recs) == 0 {
		return nil, fmt.Errorf("%w: no JSON array or JSON lines", ErrNoResult)
	}
	return recs, nil
}

// trimAfterArray cuts text after the array's closing bracket (the last
// "]" of the output).
func trimAfterArray(b []byte) []byte {
	if j := bytes.LastIndexByte(b, ']'); j >= 0 {
		return b[:j+1]
	}
	return b
}

func testName(t Test) string {
	var parts []string
	if t.NPrompt > 0 {
		parts = append(parts, "pp"+strconv.Itoa(t.NPrompt))
	}
	if t.NGen > 0 {
		parts = append(parts, "tg"+strconv.Itoa(t.NGen))
	}
	name := strings.Join(parts, "+")
	if t.NDepth > 0 {
		name += " @ d" + strconv.Itoa(t.NDepth)
	}
	return name
}

// num reads a finite, non-negative number.
func num(n json.Number) (float64, bool) {
	if n == "" {
		return 0, false
	}
	v, err := n.Float64()
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
		return 0, false
	}
	return v, true
}

func intPtr(n json.Number) *int64 {
	v, err := n.Int64()
	if err != nil {
		return nil
	}
	return &v
}

func atoi(n json.Number) int {
	v, err := n.Int64()
	if err != nil || v < 0 || v > math.MaxInt32 {
		return 0
	}
	return int(v)
}

func round3(v float64) float64 { return math.Round(v*1000) / 1000 }
