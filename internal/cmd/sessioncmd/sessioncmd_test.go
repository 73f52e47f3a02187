package sessioncmd

import (
	"errors"
	"testing"
	"time"

	"boardbench/internal/cmdutil"
	"boardbench/internal/session"
)

func TestExitError(t *testing.T) {
	plain := errors.New("disk full")
	tests := []struct {
		name       string
		in         error
		wantSignal string // "" means the error passes through unchanged
	}{
		{"nil", nil, ""},
		{"other error", plain, ""},
		{"interrupted", &session.InterruptedError{Signal: "SIGINT"}, "SIGINT"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ExitError(tt.in)
			var ie *cmdutil.InterruptedError
			if tt.wantSignal == "" {
				if got != tt.in {
					t.Fatalf("ExitError(%v) = %v, want it unchanged", tt.in, got)
				}
				return
			}
			if !errors.As(got, &ie) || ie.Signal != tt.wantSignal {
				t.Fatalf("ExitError(%v) = %#v, want cmdutil.InterruptedError{Signal: %q}", tt.in, got, tt.wantSignal)
			}
		})
	}
}

func TestCheckIdleTimeout(t *testing.T) {
	tests := []struct {
		d       time.Duration
		wantErr bool
	}{{0, false}, {time.Minute, false}, {-time.Second, true}}
	for _, tt := range tests {
		if err := CheckIdleTimeout(tt.d); (err != nil) != tt.wantErr {
			t.Errorf("CheckIdleTimeout(%s) = %v, want error %v", tt.d, err, tt.wantErr)
		}
	}
}
