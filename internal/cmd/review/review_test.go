package review

import (
	"reflect"
	"testing"

	"boardbench/internal/cmdutil"
	"boardbench/internal/iostreams"
	"boardbench/internal/testutil/cmdtest"
)

// TestNewCmdOptions: the flags and the command after --apply -- reach the
// run function as Options without reading or changing anything, and bad
// combinations are usage errors (exit 2) before it runs.
func TestNewCmdOptions(t *testing.T) {
	tests := []struct {
		args []string
		exit int
		want Options
	}{
		{nil, 0, Options{Root: "/"}},
		{[]string{"--json", "--root", "/x"}, 0, Options{Root: "/x", JSON: true}},
		{[]string{"--apply", "--wait"}, 0, Options{Root: "/", Apply: true, Wait: true}},
		{[]string{"--restore", "--json"}, 0, Options{Root: "/", Restore: true, JSON: true}},
		{[]string{"--apply", "--", "iperf3", "-c", "server", "-R"}, 0,
			Options{Root: "/", Apply: true, Argv: []string{"iperf3", "-c", "server", "-R"}}},
		{[]string{"--apply", "--restore"}, 2, Options{}},
		{[]string{"--", "true"}, 2, Options{}},
		{[]string{"--apply", "--json", "--", "true"}, 2, Options{}},
		{[]string{"--apply", "--"}, 2, Options{}},
		{[]string{"stray"}, 2, Options{}},
	}
	for _, tt := range tests {
		ios, _, _ := iostreams.Test()
		var got *Options
		cmd := NewCmd(cmdutil.NewFactory(ios), func(o *Options) error { got = o; return nil })
		err := cmdtest.Execute(cmd, tt.args...)
		if code := cmdutil.ExitCode(err); code != tt.exit {
			t.Errorf("%q: exit %d (%v), want %d", tt.args, code, err, tt.exit)
			continue
		}
		if tt.exit != 0 {
			if got != nil {
				t.Errorf("%q: runF ran after a usage error", tt.args)
			}
			continue
		}
		if got == nil || got.Factory == nil || got.Ctx == nil {
			t.Fatalf("%q: runF got %+v", tt.args, got)
		}
		o := *got
		o.Factory, o.Ctx = nil, nil
		if !reflect.DeepEqual(o, tt.want) {
			t.Errorf("%q: options %+v, want %+v", tt.args, o, tt.want)
		}
	}
}
