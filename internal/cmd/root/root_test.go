package root

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"boardbench/internal/cmdutil"
	"boardbench/internal/iostreams"
	"boardbench/internal/tune"
)

// leftover writes the state file of a finished process that tuned the
// fixture root /elsewhere and returns its path.
func leftover(t *testing.T, dir string) string {
	t.Helper()
	c := exec.Command("true")
	if err := c.Run(); err != nil {
		t.Skip(err)
	}
	data, _ := json.Marshal(map[string]any{"version": tune.StateFileVersion, "pid": c.Process.Pid, "root": "/elsewhere",
		"command": []string{"boardbench", "clock", "--opps"}, "saved": map[string]any{"policies": []any{}}})
	path := filepath.Join(dir, "tune-"+strconv.Itoa(c.Process.Pid)+".json")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestLeftoverWarning(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		leftover bool
		noDir    bool
		want     string
	}{
		{"leftover", []string{"version"}, true, false, "boardbench: a previous run left tunables changed (state file "},
		{"none", []string{"version"}, false, false, ""},
		{"no state directory", []string{"version"}, false, true, ""},
		{"restore handles it itself", []string{"restore", "--dry-run"}, true, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			var path string
			if tt.leftover {
				path = leftover(t, dir)
			}
			if tt.noDir {
				dir = filepath.Join(dir, "missing")
			}
			t.Setenv(tune.StateDirEnv, dir)
			ios, _, stderr := iostreams.Test()
			cmd := NewCmd(cmdutil.NewFactory(ios))
			cmd.SetArgs(tt.args)
			if err := cmd.Execute(); err != nil {
				t.Fatal(err)
			}
			got := stderr.String()
			if tt.want == "" {
				if got != "" {
					t.Errorf("stderr = %q, want nothing", got)
				}
				return
			}
			if !strings.HasPrefix(got, tt.want) || strings.Count(got, "\n") != 1 ||
				!strings.Contains(got, path) || !strings.Contains(got, "run `boardbench restore --root /elsewhere`") {
				t.Errorf("stderr = %q, want one line starting %q", got, tt.want)
			}
		})
	}
}
