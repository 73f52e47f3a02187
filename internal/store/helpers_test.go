package store

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"boardbench/internal/finding"
	"boardbench/internal/inventory"
	"boardbench/internal/inventory/cpu"
	"boardbench/internal/result"
)

// testResult is a small result of a board with the given headline figure;
// id "" leaves the result without an id (as results written before ids).
func testResult(id, board, soc, kernel string, multi float64, at time.Time) *result.Result {
	in := &inventory.Info{SchemaVersion: "1.0", CollectedAt: at}
	in.Board.Model = board
	in.SoC.Guess = soc
	in.OS.Kernel.Release = kernel
	in.OS.Kernel.Machine = "aarch64"
	in.OS.Userland.Arch = "arm64"
	in.OS.Distro.PrettyName = "Debian GNU/Linux 12 (bookworm)"
	in.CPU.Clusters = []cpu.Cluster{{ID: 0, CPUs: []int{0, 1, 2, 3}, Core: "Cortex-A55"}, {ID: 1, CPUs: []int{4, 5}, Core: "Cortex-A76"}, {ID: 2, CPUs: []int{6, 7}, Core: "Cortex-A76"}}
	r := result.New("run", in, map[string]any{})
	r.ID = id
	r.Host = "bench-" + board
	r.Status = result.StatusComplete
	r.StartedAt = at
	r.Tools = []result.ToolVersion{{Name: "7zip", Version: "24.09"}, {Name: "openssl", Version: "3.0.15"}}
	r.Findings = []finding.Finding{{ID: "throttling", Severity: finding.Warning, Title: "throttled"}}
	r.Summary = result.BuildSummary(nil)
	r.Summary.SevenZipMultiMIPS = &multi
	r.Summary.SevenZipSingleMIPS = []result.Value{{CPU: 0, Core: "Cortex-A55", Value: 1200}, {CPU: 4, Core: "Cortex-A76", Value: 3100}}
	r.Summary.Valid = true
	return r
}

func mustJSON(t testing.TB, r *result.Result) []byte {
	t.Helper()
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// openTemp opens a SQLite store in a temporary directory.
func openTemp(t testing.TB) (Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "results.db")
	st, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st, path
}
