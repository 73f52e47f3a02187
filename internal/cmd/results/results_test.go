package results

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"boardbench/internal/cmdutil"
	"boardbench/internal/inventory"
	"boardbench/internal/iostreams"
	"boardbench/internal/report/mdrow"
	"boardbench/internal/result"
	"boardbench/internal/store"
)

func f64(v float64) *float64 { return &v }

func testResult(id, board string, multi float64, at time.Time) *result.Result {
	in := &inventory.Info{}
	in.Board.Model = board
	in.SoC.Guess = "Rockchip RK3588"
	in.OS.Kernel.Release = "6.1.0"
	r := result.New("run", in, map[string]any{})
	r.ID, r.Status, r.StartedAt = id, result.StatusComplete, at
	r.Summary = result.BuildSummary(nil)
	r.Summary.SevenZipMultiMIPS = f64(multi)
	r.Summary.Valid = true
	return r
}

// setup makes a store with two results and returns its path.
func setup(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "r.db")
	st, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	t0 := time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)
	for i, r := range []*result.Result{testResult("aaaa0000000000000000000000000001", "Radxa ROCK 5B", 16000, t0),
		testResult("bbbb0000000000000000000000000002", "Orange Pi 5", 15000, t0.Add(time.Hour))} {
		doc, _ := json.Marshal(r)
		if _, _, err := st.Put(context.Background(), doc); err != nil {
			t.Fatal(i, err)
		}
	}
	return path
}

// run runs `results ARGS` on the store at path.
func run(t *testing.T, path string, tty bool, stdin string, args ...string) (string, string, error) {
	t.Helper()
	ios, out, errOut := iostreams.Test()
	ios.In = strings.NewReader(stdin)
	f := &cmdutil.Factory{IO: ios, Store: cmdutil.StoreOptions{Spec: path}}
	cmd := NewCmd(f)
	for _, c := range cmd.Commands() {
		if c.Name() == "rm" {
			cmd.RemoveCommand(c)
			cmd.AddCommand(newRmCmd(f, func(*cmdutil.Factory) bool { return tty }))
		}
	}
	cmd.SetArgs(args)
	cmd.SetOut(out)
	cmd.SetErr(errOut)
	cmd.SilenceErrors, cmd.SilenceUsage = true, true
	err := cmd.ExecuteContext(context.Background())
	return out.String(), errOut.String(), err
}

func TestListJSON(t *testing.T) {
	path := setup(t)
	out, _, err := run(t, path, false, "", "list", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var items []ListItem
	if err := json.Unmarshal([]byte(out), &items); err != nil {
		t.Fatal(err)
	}
	if len(items) != 2 || items[0].Board != "Orange Pi 5" || items[0].Summary["sevenzip_multi_mips"] != 15000 || items[0].Kind != "run" {
		t.Errorf("list --json = %+v", items)
	}
	out, _, _ = run(t, path, false, "", "list", "--board", "Radxa ROCK 5B")
	if !strings.Contains(out, "aaaa00000000") || strings.Contains(out, "bbbb") || !strings.Contains(out, "16000") {
		t.Errorf("list --board:\n%s", out)
	}
	out, _, _ = run(t, path, false, "", "list", "--board", "radxa", "--soc", "rk35")
	if !strings.Contains(out, "aaaa00000000") || strings.Contains(out, "bbbb") {
		t.Errorf("list --board/--soc match a part of the name, in any case:\n%s", out)
	}
	if _, _, err := run(t, path, false, "", "list", "--since", "yesterday"); cmdutil.ExitCode(err) != 2 {
		t.Errorf("bad --since: %v, want a usage error", err)
	}
}

func TestShowExportTag(t *testing.T) {
	path := setup(t)
	out, _, err := run(t, path, false, "", "show", "aaaa")
	if err != nil || !strings.Contains(out, "Radxa ROCK 5B") {
		t.Errorf("show by prefix: %v\n%s", err, out)
	}
	if _, _, err := run(t, path, false, "", "show", "cccc"); cmdutil.ExitCode(err) != 2 {
		t.Errorf("show of an unknown id: %v, want exit 2", err)
	}
	out, _, err = run(t, path, false, "", "export", "aaaa", "--format", "markdown")
	want := mdrow.Row(testResult("aaaa0000000000000000000000000001", "Radxa ROCK 5B", 16000, time.Now()))
	if err != nil || strings.TrimSpace(out) != want {
		t.Errorf("export markdown = %q (%v), want %q", out, err, want)
	}
	out, _, err = run(t, path, false, "", "export", "--all", "--format", "csv")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if err != nil || len(lines) != 3 || !strings.HasPrefix(lines[1], "aaaa") || !strings.Contains(lines[0], "sevenzip_multi_mips") {
		t.Errorf("export csv (%v):\n%s", err, out)
	}
	out, _, err = run(t, path, false, "", "export", "--all", "--format", "json")
	var docs []map[string]any
	if err != nil || json.Unmarshal([]byte(out), &docs) != nil || len(docs) != 2 {
		t.Errorf("export --all json (%v):\n%.300s", err, out)
	}
	if _, _, err := run(t, path, false, "", "tag", "bbbb", "review"); err != nil {
		t.Fatal(err)
	}
	out, _, _ = run(t, path, false, "", "list", "--tag", "review", "--json")
	if !strings.Contains(out, "bbbb0000000000000000000000000002") || strings.Contains(out, "aaaa") {
		t.Errorf("list --tag:\n%s", out)
	}
}

func TestRemove(t *testing.T) {
	path := setup(t)
	if _, _, err := run(t, path, false, "", "rm", "aaaa"); cmdutil.ExitCode(err) != 2 || !strings.Contains(err.Error(), "--yes") {
		t.Errorf("rm without a terminal nor --yes: %v", err)
	}
	if _, _, err := run(t, path, true, "n\n", "rm", "aaaa"); err != nil {
		t.Fatal(err)
	}
	if out, _, _ := run(t, path, false, "", "list", "--json"); !strings.Contains(out, "aaaa") {
		t.Error("answering no removed the result")
	}
	if _, _, err := run(t, path, true, "y\n", "rm", "aaaa"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := run(t, path, false, "", "rm", "--yes", "bbbb"); err != nil {
		t.Fatal(err)
	}
	if out, _, _ := run(t, path, false, "", "list", "--json"); strings.TrimSpace(out) != "[]" {
		t.Errorf("after rm: %s", out)
	}
}

func TestPushIsIdempotent(t *testing.T) {
	path := setup(t)
	if _, _, err := run(t, path, false, "", "tag", "aaaa", "lab"); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(t.TempDir(), "lab.db")
	for i, want := range []string{`"pushed": 2`, `"pushed": 0`} {
		out, _, err := run(t, path, false, "", "push", "--to", target, "--json")
		if err != nil || !strings.Contains(out, want) {
			t.Errorf("push %d: %v\n%s", i+1, err, out)
		}
	}
	out, _, _ := run(t, target, false, "", "list", "--tag", "lab", "--json")
	if !strings.Contains(out, "aaaa") {
		t.Errorf("tags not pushed:\n%s", out)
	}
}

// TestReplayNotListedByDefault: a result made from a recorded root is
// stored as kind replay, left out of the default list, listed with --kind
// replay, and found by its id.
func TestReplayNotListedByDefault(t *testing.T) {
	path := setup(t)
	st, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	r := testResult("cccc0000000000000000000000000003", "Raspberry Pi Zero 2 W Rev 1.0", 2000, time.Date(2025, 3, 2, 10, 0, 0, 0, time.UTC))
	r.Command, r.Replay = "sweep", true
	doc, _ := json.Marshal(r)
	if _, _, err := st.Put(context.Background(), doc); err != nil {
		t.Fatal(err)
	}
	st.Close()
	out, _, err := run(t, path, false, "", "list")
	if err != nil || strings.Contains(out, "Zero 2") || !strings.Contains(out, "ROCK 5B") {
		t.Errorf("default list (%v):\n%s", err, out)
	}
	out, _, err = run(t, path, false, "", "list", "--kind", "replay")
	if err != nil || !strings.Contains(out, "Zero 2") || !strings.Contains(out, store.KindReplay) || strings.Contains(out, "ROCK 5B") {
		t.Errorf("list --kind replay (%v):\n%s", err, out)
	}
	if out, _, err := run(t, path, false, "", "show", "cccc"); err != nil || !strings.Contains(out, "Zero 2") {
		t.Errorf("show of the replay by id (%v):\n%s", err, out)
	}
}

// TestMissingStoreNotCreated: the read commands refuse a store that does
// not exist (one line, exit status 2) and do not create it.
func TestMissingStoreNotCreated(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "none.db")
	for _, args := range [][]string{{"list"}, {"show", "aaaa"}, {"export", "--all"}, {"tag", "aaaa", "x"}} {
		_, _, err := run(t, path, false, "", args...)
		if cmdutil.ExitCode(err) != 2 || !strings.Contains(err.Error(), "no results store there") || strings.Contains(err.Error(), "\n") {
			t.Errorf("results %v on a missing store: %v (exit %d), want one line, exit 2", args, err, cmdutil.ExitCode(err))
		}
		if _, err := os.Stat(filepath.Dir(path)); !os.IsNotExist(err) {
			t.Fatalf("results %v created the store's directory: %v", args, err)
		}
	}
}

// TestQuickResultMarked: a quick result says so in the list (text and
// JSON), so that it is not read beside the standard ones.
func TestQuickResultMarked(t *testing.T) {
	path := setup(t)
	st, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	r := testResult("dddd0000000000000000000000000004", "Quick Board", 9000, time.Date(2025, 3, 2, 10, 0, 0, 0, time.UTC))
	r.Quick = true
	doc, _ := json.Marshal(r)
	if _, _, err := st.Put(context.Background(), doc); err != nil {
		t.Fatal(err)
	}
	st.Close()
	out, _, err := run(t, path, false, "", "list")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(out, "\n") {
		if quick := strings.Contains(line, "run (quick)"); quick != strings.Contains(line, "dddd00000000") {
			t.Errorf("quick marker on the wrong line: %q", line)
		}
	}
	if !strings.Contains(out, "run (quick)") {
		t.Errorf("no quick marker:\n%s", out)
	}
	out, _, err = run(t, path, false, "", "list", "--json")
	var items []ListItem
	if err != nil || json.Unmarshal([]byte(out), &items) != nil || len(items) != 3 {
		t.Fatalf("list --json (%v):\n%s", err, out)
	}
	for _, it := range items {
		if it.Quick != (it.Board == "Quick Board") {
			t.Errorf("%s: quick %v", it.Board, it.Quick)
		}
	}
}
