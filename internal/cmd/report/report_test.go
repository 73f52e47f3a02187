package report

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"boardbench/internal/finding"
	"boardbench/internal/inventory"
	"boardbench/internal/inventory/cpu"
	"boardbench/internal/result"
	"boardbench/internal/testutil/cmdtest"
)

func f64(v float64) *float64 { return &v }

// savedResult writes a small complete result and returns its path.
func savedResult(t *testing.T) string {
	t.Helper()
	in := &inventory.Info{}
	in.Board.Model = "Raspberry Pi 5 Model B Rev 1.0"
	in.OS.Distro.PrettyName, in.OS.Distro.ID = "Debian GNU/Linux 12 (bookworm)", "debian"
	in.OS.Kernel.Release, in.OS.Kernel.Machine, in.OS.Userland.Arch = "6.6.51+rpt-rpi-2712", "aarch64", "arm64"
	in.CPU.Clusters = []cpu.Cluster{{ID: 0, CPUs: []int{0, 1, 2, 3}, Core: "Cortex-A76", MaxMHz: f64(2400)}}
	r := result.New("run", in, map[string]any{})
	r.Status = result.StatusComplete
	r.StartedAt = time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)
	r.Summary = result.Summary{
		ClockMHz:           []result.Value{{CPU: 0, Core: "Cortex-A76", Value: 2399}},
		SevenZipMultiMIPS:  f64(11410),
		SevenZipMultiRuns:  []float64{11400, 11420, 11410},
		SevenZipSingleMIPS: []result.Value{{CPU: 0, Core: "Cortex-A76", Value: 3270}},
		AES256At16K:        []result.Value{{CPU: 0, Core: "Cortex-A76", Value: 1368003.2}},
		MemcpyMBs:          []result.Value{{CPU: 0, Core: "Cortex-A76", Value: 6071.2}},
		MemsetMBs:          []result.Value{{CPU: 0, Core: "Cortex-A76", Value: 14832.9}},
		Valid:              true,
		Verdict:            "valid: no throttling, swapping, background activity or other problem seen",
	}
	path := filepath.Join(t.TempDir(), "rpi5.json")
	if err := result.Save(path, r); err != nil {
		t.Fatal(err)
	}
	return path
}

// run executes the command and returns stdout, stderr and the exit code.
func run(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	return cmdtest.Run(t, NewCmd, nil, args...)
}

func TestMarkdownRow(t *testing.T) {
	path := savedResult(t)
	out, errOut, code := run(t, "--markdown-row", path)
	want := "| Raspberry Pi 5 Model B Rev 1.0 | 2400 MHz | 6.6 | Debian GNU/Linux 12 (bookworm) arm64 | 11410 | 3270 | 1368000 | 6070 | 14830 | - |\n"
	if code != 0 || out != want {
		t.Errorf("exit %d, stderr %q\n got %q\nwant %q", code, errOut, out, want)
	}
	out, _, code = run(t, "--markdown-row", "--header", path)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != 3 || !strings.HasPrefix(lines[0], "| Device / details | Clockspeed |") || lines[2]+"\n" != want {
		t.Errorf("with --header: exit %d, output:\n%s", code, out)
	}
}

func TestMarkdownRowSeveralFiles(t *testing.T) {
	a, b := savedResult(t), savedResult(t)
	out, errOut, code := run(t, "--markdown-row", "--header", a, b)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if code != 0 || errOut != "" || len(lines) != 4 || strings.Count(out, "| Device / details |") != 1 ||
		!strings.HasPrefix(lines[2], "| Raspberry Pi 5") || lines[2] != lines[3] {
		t.Errorf("exit %d, stderr %q, output:\n%s", code, errOut, out)
	}
	out, _, code = run(t, "--markdown-row", a, b, a)
	if code != 0 || strings.Count(out, "\n") != 3 || strings.Contains(out, "Device") {
		t.Errorf("without --header: exit %d, output:\n%s", code, out)
	}
}

func TestTextReport(t *testing.T) {
	out, errOut, code := run(t, savedResult(t))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, s := range []string{"Summary", "verdict:     valid", "3270 MIPS", "1368003 kB/s", "Validation findings"} {
		if !strings.Contains(out, s) {
			t.Errorf("report lacks %q:\n%s", s, out)
		}
	}
	if strings.Contains(out, "\x1b[") {
		t.Error("colour codes written to a non-terminal")
	}
}

func TestJSONReemitsTheResult(t *testing.T) {
	out, errOut, code := run(t, "--json", savedResult(t))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r result.Result
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("output is not JSON: %v", err)
	}
	if r.Command != "run" || r.Status != result.StatusComplete || r.Summary.SevenZipMultiMIPS == nil || *r.Summary.SevenZipMultiMIPS != 11410 {
		t.Errorf("re-emitted result differs: %+v", r.Summary)
	}
}

func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	garbage := filepath.Join(dir, "garbage.json")
	os.WriteFile(garbage, []byte("not json at all"), 0o644)
	other := filepath.Join(dir, "other.json")
	os.WriteFile(other, []byte(`{"hello": "world"}`), 0o644)
	good := savedResult(t)
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"missing file", []string{filepath.Join(dir, "nope.json")}, "no such file"},
		{"directory", []string{dir}, "is a directory"},
		{"garbage", []string{garbage}, "not a boardbench result"},
		{"other JSON", []string{other}, "not a boardbench result"},
		{"no argument", nil, "one result FILE"},
		{"two arguments", []string{good, good}, "one result FILE"},
		{"json and row", []string{"--json", "--markdown-row", good}, "cannot be combined"},
		{"header alone", []string{"--header", good}, "--header only applies"},
		{"several rows, one missing: no partial table", []string{"--markdown-row", "--header", good, filepath.Join(dir, "nope.json")}, "no such file"},
	}
	for _, c := range cases {
		out, errOut, code := run(t, c.args...)
		if code != 2 {
			t.Errorf("%s: exit %d, want 2", c.name, code)
		}
		if !strings.Contains(errOut, c.want) || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
			t.Errorf("%s: want one line with %q, got %q", c.name, c.want, errOut)
		}
		if out != "" {
			t.Errorf("%s: wrote to stdout: %q", c.name, out)
		}
	}
}

func TestMarkdownRowWarnsAboutInvalidResults(t *testing.T) {
	path := savedResult(t)
	r, err := result.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	r.Status = result.StatusInterrupted
	r.Findings = []finding.Finding{{ID: "swapping", Severity: finding.Invalidates}, {ID: "throttling", Severity: finding.Warning}}
	if err := result.Save(path, r); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := run(t, "--markdown-row", path)
	if code != 0 || !strings.HasPrefix(out, "| Raspberry Pi 5") {
		t.Errorf("exit %d, row %q", code, out)
	}
	want := "boardbench: warning: the run is interrupted; findings invalidate the figures (swapping): do not publish this row as a comparable result\n"
	if errOut != want {
		t.Errorf("warning:\n got %q\nwant %q", errOut, want)
	}
	if _, errOut, _ = run(t, "--markdown-row", savedResult(t)); errOut != "" {
		t.Errorf("valid complete result: unexpected warning %q", errOut)
	}
	// With several files, the warning names the file it is about.
	good := savedResult(t)
	out, errOut, code = run(t, "--markdown-row", good, path)
	if code != 0 || strings.Count(out, "\n") != 2 || errOut != "boardbench: warning: "+path+": "+strings.TrimPrefix(want, "boardbench: warning: ") {
		t.Errorf("several files: exit %d, stderr %q", code, errOut)
	}
}
