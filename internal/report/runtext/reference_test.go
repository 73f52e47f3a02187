package runtext

import (
	"bytes"
	"strings"
	"testing"

	"boardbench/internal/inventory"
	"boardbench/internal/inventory/cpu"
	"boardbench/internal/result"
)

// TestReportPlacement: the text report of a `run` result (what `run`
// prints at its end and `report` prints again) places its figures among
// the shipped reference results of its SoC; a quick result and a result
// of another command are not placed.
func TestReportPlacement(t *testing.T) {
	newResult := func(command, soc string) *result.Result {
		multi := 16000.0
		r := &result.Result{ID: "0123456789abcdef", Command: command, Status: result.StatusComplete, Options: map[string]any{},
			Info: &inventory.Info{CPU: cpu.Info{Clusters: []cpu.Cluster{
				{CPUs: []int{0, 1, 2, 3}, CoreName: "Cortex-A55"}, {CPUs: []int{4, 5, 6, 7}, CoreName: "Cortex-A76"}}}},
			Tools:   []result.ToolVersion{{Name: "7z", Version: "16.02"}},
			Summary: result.Summary{ClockMHz: []result.Value{{CPU: 4, Value: 2350}}, SevenZipMultiMIPS: &multi}}
		r.Info.SoC.Guess = soc
		return r
	}
	render := func(r *result.Result) string {
		var b bytes.Buffer
		Render(&b, r, false)
		return b.String()
	}
	for _, c := range []struct {
		name string
		r    *result.Result
		want []string
		not  []string
	}{
		{"run on an RK3588", newResult("run", "Rockchip RK3588"),
			[]string{"Among published results", "SoC Rockchip RK3588/RK3588s:", "7-zip multi", "7-Zip 16.02"}, []string{"SECOND BEST"}},
		{"an SoC without reference results", newResult("run", "Rockchip RK3599"),
			[]string{"SECOND BEST — no reference results for SoC Rockchip RK3599", "4×Cortex-A55 + 4×Cortex-A76"}, nil},
		{"quick", func() *result.Result { r := newResult("run", "Rockchip RK3588"); r.Quick = true; return r }(),
			[]string{"a quick result is not placed"}, []string{"SoC Rockchip RK3588/RK3588s:"}},
		{"another command", newResult("mem", "Rockchip RK3588"), nil, []string{"Among published results"}},
	} {
		out := render(c.r)
		for _, w := range c.want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: report lacks %q:\n%s", c.name, w, out)
			}
		}
		for _, w := range c.not {
			if strings.Contains(out, w) {
				t.Errorf("%s: report has %q", c.name, w)
			}
		}
	}
}
