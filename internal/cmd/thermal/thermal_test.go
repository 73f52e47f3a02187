package thermal

import (
	"testing"
	"time"

	"boardbench/internal/cmdutil"
	"boardbench/internal/iostreams"
)

// TestNewCmdOptions: the flags reach the run function as Options (targets
// set only when given), without measuring anything.
func TestNewCmdOptions(t *testing.T) {
	tests := []struct {
		args      []string
		wantHeat  *float64
		wantCool  *float64
		wantLimit time.Duration
		wantLoad  string
	}{
		{nil, nil, nil, 30 * time.Minute, "7zip"},
		{[]string{"--heat-to", "80", "--limit", "15m"}, ptr(80), nil, 15 * time.Minute, "7zip"},
		{[]string{"--cool-to", "45", "--load", "stress-ng"}, nil, ptr(45), 30 * time.Minute, "stress-ng"},
	}
	for _, tt := range tests {
		ios, _, _ := iostreams.Test()
		var got *Options
		cmd := NewCmd(cmdutil.NewFactory(ios), func(o *Options) error { got = o; return nil })
		cmd.SetArgs(tt.args)
		if err := cmd.Execute(); err != nil {
			t.Fatalf("%q: %v", tt.args, err)
		}
		o := got.Thermal
		if !sameTemp(o.HeatTo, tt.wantHeat) || !sameTemp(o.CoolTo, tt.wantCool) || o.Limit != tt.wantLimit || o.Load != tt.wantLoad {
			t.Errorf("%q: options %+v", tt.args, o)
		}
	}
}

func ptr(v float64) *float64 { return &v }

func sameTemp(a, b *float64) bool {
	return (a == nil) == (b == nil) && (a == nil || *a == *b)
}

// TestThermalFlags: contradictory targets and a sampling interval that is
// not positive are usage errors (exit 2), found before anything runs.
func TestThermalFlags(t *testing.T) {
	for _, args := range [][]string{
		{"--heat-to", "60", "--cool-to", "60"},
		{"--heat-to", "50", "--cool-to", "70"},
		{"--interval", "0s"},
		{"--interval", "-1s"},
	} {
		ios, _, _ := iostreams.Test()
		cmd := NewCmd(cmdutil.NewFactory(ios), nil)
		cmd.SetArgs(args)
		cmd.SilenceErrors, cmd.SilenceUsage = true, true
		if err := cmd.Execute(); cmdutil.ExitCode(err) != 2 {
			t.Errorf("%q: err %v (exit %d), want a usage error", args, err, cmdutil.ExitCode(err))
		}
	}
}
