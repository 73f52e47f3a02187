package cmdutil

import (
	"boardbench/internal/interrupt"
	"boardbench/internal/session"
	"errors"
	"fmt"
	"testing"
)

type statusErr int

func (e statusErr) Error() string { return fmt.Sprintf("exit %d", int(e)) }
func (e statusErr) ExitCode() int { return int(e) }

func TestExitCode(t *testing.T) {
	cases := []struct {
		err  error
		want int
	}{
		{nil, 0},
		{errors.New("boom"), 1},
		{Usagef("bad flag"), 2},
		{fmt.Errorf("wrapped: %w", &interrupt.Error{Signal: "SIGINT"}), 130},
		{&session.NotValidError{Verdict: "NOT VALID"}, 3},
		{statusErr(3), 3},
		{fmt.Errorf("command: %w", statusErr(127)), 127},
	}
	for _, c := range cases {
		if got := ExitCode(c.err); got != c.want {
			t.Errorf("ExitCode(%v) = %d, want %d", c.err, got, c.want)
		}
	}
}

func TestBadRootIsUsageError(t *testing.T) {
	f := NewFactory(nil)
	for _, root := range []string{"/nonexistent/boardbench-root", "/etc/hostname"} {
		if _, err := f.NewHost(root); ExitCode(err) != 2 {
			t.Errorf("NewHost(%q): exit code %d (%v), want 2", root, ExitCode(err), err)
		}
	}
	if h, err := f.NewHost("/"); err != nil || !h.Live() {
		t.Errorf("NewHost(/) = %v, %v", h, err)
	}
}
