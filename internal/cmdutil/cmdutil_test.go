package cmdutil

import (
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
		{fmt.Errorf("wrapped: %w", &InterruptedError{Signal: "interrupt"}), 130},
		{statusErr(3), 3},
		{fmt.Errorf("command: %w", statusErr(127)), 127},
	}
	for _, c := range cases {
		if got := ExitCode(c.err); got != c.want {
			t.Errorf("ExitCode(%v) = %d, want %d", c.err, got, c.want)
		}
	}
}
