package net

import (
	"strings"
	"testing"

	"boardbench/internal/cmdutil"
	"boardbench/internal/iostreams"
)

// TestPeerArgument: --peer goes to iperf3 after -c; a value that iperf3
// could read as an option, or that holds spaces or control characters, is
// refused as bad input before anything runs.
func TestPeerArgument(t *testing.T) {
	for _, tc := range []struct {
		peer string
		ok   bool
	}{
		{"192.168.1.10", true}, {"nas.local", true}, {"fe80::1%eth0", true}, {"[::1]", true}, {"my_host-2", true},
		{"-R", false}, {"--logfile=/etc/passwd", false}, {"host name", false}, {"host\n", false}, {"a;b", false}, {"", false},
	} {
		if got := validPeer(tc.peer); got != tc.ok {
			t.Errorf("validPeer(%q) = %v, want %v", tc.peer, got, tc.ok)
		}
	}
	ios, _, _ := iostreams.Test()
	cmd := NewCmd(cmdutil.NewFactory(ios), nil)
	cmd.SetFlagErrorFunc(cmdutil.FlagErrorFunc)
	cmd.SetArgs([]string{"--peer=--logfile=/tmp/x", "--no-install"})
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	err := cmd.Execute()
	if cmdutil.ExitCode(err) != 2 || !strings.Contains(err.Error(), "--peer") {
		t.Errorf("--peer=--logfile=/tmp/x: %v (exit %d), want a usage error", err, cmdutil.ExitCode(err))
	}
}
