package monitorrun

import (
	"errors"
	"os/exec"
	"testing"
)

func TestStrayNote(t *testing.T) {
	cases := map[int]string{
		1: "the command left 1 process running when it exited; boardbench stopped it",
		3: "the command left 3 processes running when it exited; boardbench stopped them",
	}
	for n, want := range cases {
		if got := StrayNote(n); got != want {
			t.Errorf("StrayNote(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestStartError: a command not found exits 127 with a shell's message,
// not marked as already reported (the summary does not say it).
func TestStartError(t *testing.T) {
	err := StartError("x", exec.ErrNotFound)
	var es *ExitStatusError
	if !errors.As(err, &es) || es.Code != 127 || es.Msg != "x: command not found" || es.AlreadyReported() {
		t.Errorf("StartError = %#v", err)
	}
}
