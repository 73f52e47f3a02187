package servetest

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"boardbench/internal/result"
	"boardbench/internal/store"
)

// Huge returns generated result number i grown to n monitor lines twice
// over: an imported-log phase whose one block of monitor lines holds n
// rows (and whose raw output is their n lines of text), and a phase with
// n monitor samples. It is what a hostile or very long log makes, for
// the tests that check a page stays bounded. The values are made up.
func Huge(i, n int) (*result.Result, store.Record) {
	r, rec := Result(i)
	t0 := r.StartedAt
	var raw strings.Builder
	rows := make([][]string, 0, n)
	samples := make([]result.Sample, 0, n)
	for k := range n {
		s := k % 86400
		tm := fmt.Sprintf("%02d:%02d:%02d:", s/3600, s/60%60, s%60)
		clock, temp, load := float64(1800+k%7*100), 40+float64(k%300)/10, 4.0
		row := []string{tm, fmt.Sprintf("%.0f/1800MHz", clock), "4.00", "93%", "0%", "92%", "0%", "0%", "0%", fmt.Sprintf("%.1f°C", temp)}
		rows = append(rows, row)
		raw.WriteString(strings.Join(row, "  "))
		raw.WriteByte('\n')
		samples = append(samples, result.Sample{Time: t0.Add(time.Duration(k) * time.Second), ClockMHz: []*float64{&clock}, TempC: &temp, Load1: &load})
	}
	fig := result.ImportedFigures{File: "huge.txt", Format: result.ImportedFormat, Device: rec.Board,
		Monitoring: []result.ImportedMonitoring{{While: "7-zip multi core benchmark",
			Columns: strings.Fields("Time big.LITTLE load %cpu %sys %usr %nice %io %irq Temp"), Rows: rows}}}
	data, err := json.Marshal(fig)
	if err != nil {
		panic(err)
	}
	r.Phases[0].Samples = samples
	r.Phases = append(r.Phases, result.Phase{Name: result.PhaseImportedLog, Title: "The imported log", Status: result.PhaseOK,
		TimingNotRecorded: true, RawOutput: raw.String(), Figures: data})
	return r, rec
}
