package mdrow

import (
	"encoding/json"
	"strings"
	"testing"

	"boardbench/internal/benchtool/wrapped"
	"boardbench/internal/result"
)

// commandResult is a `monitor -- COMMAND` result whose command phase holds figs.
func commandResult(t *testing.T, figs ...wrapped.Figures) *result.Result {
	t.Helper()
	r := result.New("monitor", infoWith(clusters(1800)), map[string]any{})
	for _, f := range figs {
		raw, err := json.Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		r.Phases = append(r.Phases, result.Phase{Name: result.PhaseCommand, Figures: raw})
	}
	return r
}

func TestWrappedFigures(t *testing.T) {
	threads4, threads1 := 4, 1
	multi := wrapped.Figures{Benchmark: wrapped.SevenZip, SevenZip: &wrapped.SevenZipFigures{Runs: []wrapped.SevenZipRun{
		{RatingMIPS: 11402, BenchmarkThreads: &threads4}, {RatingMIPS: 11421, BenchmarkThreads: &threads4}, {RatingMIPS: 11388, BenchmarkThreads: &threads4}}}}
	single := wrapped.Figures{Benchmark: wrapped.SevenZip, SevenZip: &wrapped.SevenZipFigures{Single: true, Runs: []wrapped.SevenZipRun{
		{RatingMIPS: 3251, BenchmarkThreads: &threads1}, {RatingMIPS: 3270, BenchmarkThreads: &threads1}}}}
	scrypt := wrapped.Figures{Benchmark: wrapped.CPUMiner, CPUMiner: &wrapped.CPUMinerFigures{Algorithm: "scrypt", TotalKHs: []float64{13.6, 13.65, 13.62}, MedianKHs: 13.62}}
	sha := wrapped.Figures{Benchmark: wrapped.CPUMiner, CPUMiner: &wrapped.CPUMinerFigures{Algorithm: "sha256d", TotalKHs: []float64{9000}, MedianKHs: 9000}}
	cases := []struct {
		name               string
		r                  *result.Result
		multi, single, khs string
	}{
		{"wrapped multi-threaded 7zz", commandResult(t, multi), "11400", Unknown, Unknown},
		{"wrapped single-threaded 7zz", commandResult(t, single), Unknown, "3270", Unknown},
		{"wrapped cpuminer scrypt", commandResult(t, scrypt), Unknown, Unknown, "13.62"},
		{"cpuminer with another algorithm is not the column's figure", commandResult(t, sha), Unknown, Unknown, Unknown},
		{"no recognised benchmark", commandResult(t), Unknown, Unknown, Unknown},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := Compute(tc.r)
			if c.SevenZipMult != tc.multi || c.SevenZipSing != tc.single || c.KHs != tc.khs {
				t.Errorf("7-zip multi %q single %q kH/s %q, want %q %q %q", c.SevenZipMult, c.SevenZipSing, c.KHs, tc.multi, tc.single, tc.khs)
			}
		})
	}
	// A run's own 7-Zip figures win over a wrapped one.
	r := commandResult(t, multi)
	r.Summary.SevenZipMultiRuns = []float64{5000, 5010, 5020}
	if got := Compute(r).SevenZipMult; got != "5010" {
		t.Errorf("summary 7-Zip replaced by wrapped: %q", got)
	}
}

func TestWrappedFiguresFromRealOutput(t *testing.T) {
	out := "** cpuminer-multi 1.3.7 by tpruvot@github **\n\n[2025-03-01 10:00:00] 4 miner threads started, using 'scrypt' algorithm.\n" +
		"[2025-03-01 10:00:10] Total: 21.87 kH/s\n[2025-03-01 10:00:15] Total: 21.89 kH/s\n[2025-03-01 10:00:20] Total: 21.88 kH/s\n"
	f, ok := wrapped.Recognize([]string{"cpuminer", "--benchmark"}, []byte(out))
	if !ok {
		t.Fatal("cpuminer not recognised")
	}
	if got := Compute(commandResult(t, f)).KHs; got != "21.88" {
		t.Errorf("kH/s = %q, want 21.88", got)
	}
}

func TestTable(t *testing.T) {
	a, b := commandResult(t), commandResult(t)
	a.Info.Board.Model, b.Info.Board.Model = "Board A", "Board B"
	var sb strings.Builder
	if err := Table(&sb, []*result.Result{a, b}, true); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(sb.String(), "\n"), "\n")
	if len(lines) != 4 || lines[0] != Header || lines[1] != Separator ||
		!strings.HasPrefix(lines[2], "| Board A |") || !strings.HasPrefix(lines[3], "| Board B |") {
		t.Errorf("table:\n%s", sb.String())
	}
	sb.Reset()
	if err := Table(&sb, []*result.Result{a}, false); err != nil || strings.Count(sb.String(), "\n") != 1 || strings.Contains(sb.String(), "Device") {
		t.Errorf("without header: %q, %v", sb.String(), err)
	}
}
