package cmdutil

import (
	"errors"
	"fmt"
	"testing"
)

type reported bool

func (r reported) Error() string         { return "reported" }
func (r reported) AlreadyReported() bool { return bool(r) }

func TestAlreadyReported(t *testing.T) {
	cases := []struct {
		err  error
		want bool
	}{
		{nil, false},
		{errors.New("plain"), false},
		{reported(true), true},
		{reported(false), false},
		{fmt.Errorf("wrapped: %w", reported(true)), true},
		{&UsageError{Err: errors.New("bad")}, false},
	}
	for _, c := range cases {
		if got := AlreadyReported(c.err); got != c.want {
			t.Errorf("AlreadyReported(%v) = %v, want %v", c.err, got, c.want)
		}
	}
}
