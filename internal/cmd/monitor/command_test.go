package monitor

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"boardbench/internal/benchtool/wrapped"
	"boardbench/internal/cmd/report"
	"boardbench/internal/cmdutil"
	"boardbench/internal/iostreams"
	"boardbench/internal/result"
	"boardbench/internal/testutil/wait"

	"github.com/creack/pty"
)

// ptyStreams returns streams whose standard output is the terminal end of
// a new pseudo-terminal, as when boardbench runs in a terminal, and the
// master end the test reads what boardbench writes there from.
func ptyStreams(t *testing.T) (ios *iostreams.IOStreams, master *os.File, errOut *bytes.Buffer) {
	t.Helper()
	master, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal on this machine: %v", err)
	}
	t.Cleanup(func() { master.Close(); tty.Close() })
	errOut = &bytes.Buffer{}
	ios = &iostreams.IOStreams{In: &bytes.Buffer{}, Out: tty, ErrOut: errOut}
	ios.SetTTY(true, false, false)
	return ios, master, errOut
}

// readChunks sends what is read from r, chunk by chunk, until r fails.
func readChunks(r *os.File) <-chan string {
	ch := make(chan string, 100)
	go func() {
		defer close(ch)
		buf := make([]byte, 4096)
		for {
			n, err := r.Read(buf)
			if n > 0 {
				ch <- string(buf[:n])
			}
			if err != nil {
				return
			}
		}
	}()
	return ch
}

// TestCommandStreamsOnATerminal runs, with boardbench's standard output a
// terminal, a command whose output goes through grep, which buffers when
// it writes to a pipe: its first line must arrive while the command still
// runs, before its second, as in a terminal.
func TestCommandStreamsOnATerminal(t *testing.T) {
	needShell(t)
	ios, master, _ := ptyStreams(t)
	chunks := readChunks(master)
	path := filepath.Join(t.TempDir(), "r.json")
	// The second line comes once the test has seen the first (an event,
	// not a pause that a loaded machine may outlast).
	next := filepath.Join(t.TempDir(), "next")
	defer os.WriteFile(next, nil, 0o644) // a failed test lets it end
	done := make(chan error, 1)
	go func() {
		done <- executeOn(t, context.Background(), ios, "--interval", "0.5", "-o", path, "--",
			"sh", "-c", `(echo first; while [ ! -e "$0" ]; do sleep 0.05; done; echo second) | grep -v zzz`, next)
	}()
	var seen string
	timeout := time.After(wait.HangGuard)
	for !strings.Contains(seen, "first") {
		select {
		case c := <-chunks:
			seen += c
		case err := <-done:
			t.Fatalf("the command ended (%v) before its first line arrived (got %q)", err, seen)
		case <-timeout:
			t.Fatalf("hung: no first line within %v", wait.HangGuard)
		}
	}
	select {
	case <-done:
		t.Fatal("the first line arrived only when the command had ended")
	default:
	}
	if strings.Contains(seen, "second") {
		t.Fatalf("the first line arrived together with the second (%q): the output was buffered", seen)
	}
	if err := os.WriteFile(next, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	// Exit status 3 (not valid) is the verdict of a loaded machine, not a
	// failure of the streaming this test is about.
	if err := <-done; err != nil && cmdutil.ExitCode(err) != 3 {
		t.Fatal(err)
	}
	for !strings.Contains(seen, "second") {
		select {
		case c := <-chunks:
			seen += c
		case <-time.After(wait.HangGuard):
			t.Fatalf("hung: the second line never arrived: %q", seen)
		}
	}
	r, err := result.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Phases[0].RawOutput; got != "first\nsecond\n" {
		t.Errorf("raw_output %q, want the output as written", got)
	}
}

// TestCommandStdoutIsATerminalOnlyOnATerminal checks what the command's
// standard output is: a terminal when boardbench's is one, else a pipe
// (and standard error stays boardbench's in both cases).
func TestCommandStdoutIsATerminalOnlyOnATerminal(t *testing.T) {
	needShell(t)
	script := `if [ -t 1 ]; then echo stdout-tty; else echo stdout-pipe; fi; if [ -t 2 ]; then echo stderr-tty >&2; else echo stderr-pipe >&2; fi`
	for _, onTerminal := range []bool{false, true} {
		path := filepath.Join(t.TempDir(), "r.json")
		args := []string{"--interval", "0.2", "-o", path, "--", "sh", "-c", script}
		var out, errOut string
		if onTerminal {
			ios, master, errBuf := ptyStreams(t)
			chunks := readChunks(master)
			if err := executeOn(t, context.Background(), ios, args...); !measured(err) {
				t.Fatal(err)
			}
			for !strings.Contains(out, "\n") {
				select {
				case c := <-chunks:
					out += c
				case <-time.After(wait.HangGuard):
					t.Fatalf("hung: no output on the terminal: %q", out)
				}
			}
			errOut = errBuf.String()
		} else {
			var err error
			if err, out, errOut = execute(t, context.Background(), args...); !measured(err) {
				t.Fatal(err)
			}
		}
		want := map[bool]string{true: "stdout-tty", false: "stdout-pipe"}[onTerminal]
		if strings.TrimSpace(out) != want {
			t.Errorf("on a terminal %v: stdout %q, want %s", onTerminal, out, want)
		}
		if !strings.Contains(errOut, "stderr-pipe\n") {
			t.Errorf("on a terminal %v: the command's stderr is not boardbench's: %q", onTerminal, errOut)
		}
		r, err := result.Load(path)
		if err != nil {
			t.Fatal(err)
		}
		if raw := r.Phases[0].RawOutput; !strings.Contains(raw, want+"\n") || !strings.Contains(raw, "stderr-pipe\n") || strings.Contains(raw, "\r") {
			t.Errorf("on a terminal %v: raw_output %q", onTerminal, raw)
		}
	}
}

// measured reports whether a monitored command ran and its result was
// written: no error, or only the verdict "not valid" (exit 3), which a
// loaded machine can give a short command (other work disturbed it); the
// tests that call it check the terminal and the output, not the verdict.
func measured(err error) bool {
	return err == nil || cmdutil.ExitCode(err) == cmdutil.ExitNotValid
}

// fakeTool writes an executable script named name into a new directory
// that prints the file fixture, then exits with status code.
func fakeTool(t *testing.T, name, fixture, code string) string {
	t.Helper()
	needShell(t)
	abs, err := filepath.Abs(fixture)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(abs); err != nil {
		t.Skipf("fixture %s: %v", fixture, err)
	}
	p := filepath.Join(t.TempDir(), name)
	script := "#!/bin/sh\ncat '" + abs + "'\nexit " + code + "\n"
	if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestWrappedSevenZipEndToEnd runs a fake 7zz that prints a real-shaped
// single-threaded 7-Zip output, then checks the figures in the result,
// the text report and the markdown row.
func TestWrappedSevenZipEndToEnd(t *testing.T) {
	tool := fakeTool(t, "7zz", filepath.Join("testdata", "7zz-mmt1.txt"), "0")
	path := filepath.Join(t.TempDir(), "r.json")
	err, _, errOut := execute(t, context.Background(), "--interval", "0.2", "-o", path, "--", tool, "b", "-mmt1")
	if err != nil {
		t.Fatal(err)
	}
	// the summary is wrapped to 100 columns: compare the words
	if want := "figures: 7-Zip 24.09, read from the output (boardbench report " + path + " shows them)"; !strings.Contains(strings.Join(strings.Fields(errOut), " "), want) {
		t.Errorf("the summary lacks %q:\n%s", want, errOut)
	}
	r, err := result.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	var f wrapped.Figures
	if err := json.Unmarshal(r.Phases[0].Figures, &f); err != nil {
		t.Fatalf("figures %s: %v", r.Phases[0].Figures, err)
	}
	if f.Benchmark != wrapped.SevenZip || f.RecognizedBy != wrapped.ByCommand || f.SevenZip == nil ||
		!f.SevenZip.Single || len(f.SevenZip.Runs) != 1 || f.SevenZip.Runs[0].RatingMIPS != 1393 {
		t.Fatalf("figures = %s", r.Phases[0].Figures)
	}

	row := runReport(t, "--markdown-row", path)
	cells := strings.Split(row, "|")
	found := false
	for _, c := range cells {
		if strings.TrimSpace(c) == "1393" {
			found = true
		}
	}
	if !found {
		t.Errorf("the markdown row lacks the 7-Zip single-threaded 1393:\n%s", row)
	}
	text := runReport(t, path)
	for _, want := range []string{"7-Zip 24.09 (recognised from the command line)", "1393", "single-threaded"} {
		if !strings.Contains(text, want) {
			t.Errorf("the report lacks %q:\n%s", want, text)
		}
	}
}

// runReport runs `boardbench report ARGS` and returns its standard output.
func runReport(t *testing.T, args ...string) string {
	t.Helper()
	ios, out, errOut := iostreams.Test()
	cmd := report.NewCmd(cmdutil.NewFactory(ios))
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	cmd.SetArgs(args)
	if err := cmd.Execute(); err != nil {
		t.Fatalf("report %q: %v\n%s", args, err, errOut)
	}
	return out.String()
}

// TestWrappedHPLFailedInvalidates runs a fake xhpl whose residual check
// failed: the figures are kept and an invalidating finding sets the
// verdict.
func TestWrappedHPLFailedInvalidates(t *testing.T) {
	tool := fakeTool(t, "xhpl", filepath.Join("..", "..", "benchtool", "wrapped", "testdata", "hpl-failed.txt"), "0")
	path := filepath.Join(t.TempDir(), "r.json")
	err, _, errOut := execute(t, context.Background(), "--interval", "0.2", "-o", path, "--", tool)
	// The command succeeded, but the result is not valid: exit status 3.
	if cmdutil.ExitCode(err) != 3 || !cmdutil.AlreadyReported(err) {
		t.Fatalf("monitor: %v (exit %d), want the not-valid status 3", err, cmdutil.ExitCode(err))
	}
	r, err := result.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	var f wrapped.Figures
	if err := json.Unmarshal(r.Phases[0].Figures, &f); err != nil || f.HPL == nil || !f.HPL.ResidualFailed || len(f.HPL.Runs) != 2 {
		t.Errorf("figures %s (%v)", r.Phases[0].Figures, err)
	}
	var got int
	for _, f := range r.Findings {
		if f.ID == "hpl_residual_failed" {
			got++
			if len(f.Evidence) == 0 || !strings.Contains(f.Evidence[0], "FAILED") {
				t.Errorf("evidence %q", f.Evidence)
			}
		}
	}
	if got != 1 || r.Summary.Valid || !strings.Contains(r.Summary.Verdict, "hpl_residual_failed") {
		t.Errorf("findings %+v, verdict %q (valid %v)", r.Findings, r.Summary.Verdict, r.Summary.Valid)
	}
	if !strings.Contains(errOut, "hpl_residual_failed") {
		t.Errorf("the summary does not show the finding:\n%s", errOut)
	}
}

func TestUnrecognisedCommandHasNoFigures(t *testing.T) {
	needShell(t)
	path := filepath.Join(t.TempDir(), "r.json")
	if err, _, _ := execute(t, context.Background(), "--interval", "0.2", "-o", path, "--", "sh", "-c", "echo hello"); err != nil {
		t.Fatal(err)
	}
	r, err := result.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Phases[0].Figures) != 0 {
		t.Errorf("figures %s for a command that is no known benchmark", r.Phases[0].Figures)
	}
}

// TestStrayProcessesNoted checks the note for processes the command left
// running, which were stopped.
func TestStrayProcessesNoted(t *testing.T) {
	needShell(t)
	path := filepath.Join(t.TempDir(), "r.json")
	err, _, errOut := execute(t, context.Background(), "--interval", "0.2", "-o", path, "--", "sh", "-c", "sleep 30 & sleep 30 & echo started")
	if err != nil {
		t.Fatal(err)
	}
	r, err := result.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	want := "the command left 2 processes running when it exited; boardbench stopped them"
	if notes := r.Phases[0].Notes; len(notes) != 1 || notes[0] != want {
		t.Errorf("notes %q, want %q", notes, want)
	}
	if !strings.Contains(errOut, want) {
		t.Errorf("the summary lacks the note:\n%s", errOut)
	}
}
