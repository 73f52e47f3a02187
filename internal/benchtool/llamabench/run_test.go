package llamabench

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"boardbench/internal/host"
	"boardbench/internal/proc"
	"boardbench/internal/tools"
)

// fakeLlamaBench writes a llama-bench stand-in: a shell script that
// records its arguments, logs to standard error as llama.cpp does and
// prints the JSON of testdata/llama-bench.json (or exits with status 1
// when the model file does not exist, as llama-bench does).
func fakeLlamaBench(t *testing.T) (script, argsFile string) {
	t.Helper()
	dir := t.TempDir()
	data, err := filepath.Abs("testdata/llama-bench.json")
	if err != nil {
		t.Fatal(err)
	}
	argsFile = filepath.Join(dir, "args")
	script = filepath.Join(dir, "llama-bench")
	body := "#!/bin/sh\n" +
		"echo \"$*\" > '" + argsFile + "'\n" +
		"echo 'llama_model_loader: loaded meta data' >&2\n" +
		"[ -f \"$2\" ] || { echo \"main: error: failed to load model '$2'\" >&2; exit 1; }\n" +
		"cat '" + data + "'\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	return script, argsFile
}

// TestRunFakeProgram runs a fake llama-bench program for real (a process
// through proc's live executor) and reads its JSON.
func TestRunFakeProgram(t *testing.T) {
	script, argsFile := fakeLlamaBench(t)
	model := filepath.Join(t.TempDir(), "tiny.gguf")
	if err := os.WriteFile(model, []byte("GGUF"), 0o600); err != nil {
		t.Fatal(err)
	}
	h, err := host.New("/")
	if err != nil {
		t.Fatal(err)
	}
	ex := proc.ForHost(h)
	tool := tools.Tool{Name: "llama-bench", Path: script}
	m, err := Run(context.Background(), ex, tool, Options{Model: model, Threads: 2})
	if err != nil {
		t.Fatalf("%v\n%s", err, m.RawStderr)
	}
	args, _ := os.ReadFile(argsFile)
	if got, want := strings.TrimSpace(string(args)), "-m "+model+" -p 512 -n 128 -t 2 -o json"; got != want {
		t.Errorf("arguments %q, want %q", got, want)
	}
	if pp, tg := m.Result.First("pp"), m.Result.First("tg"); pp == nil || tg == nil || pp.TokensS != 221.285 || tg.TokensS != 26.501 {
		t.Errorf("tests %+v", m.Result.Tests)
	}
	if !strings.Contains(m.RawStderr, "llama_model_loader") {
		t.Errorf("stderr %q", m.RawStderr)
	}

	// A model that does not exist: llama-bench's own error.
	m, err = Run(context.Background(), ex, tool, Options{Model: filepath.Join(t.TempDir(), "none.gguf")})
	if err == nil || m.Failure != proc.FailureExit || !strings.Contains(err.Error(), "failed to load model") {
		t.Errorf("missing model: %v (%s)", err, m.Failure)
	}
}
