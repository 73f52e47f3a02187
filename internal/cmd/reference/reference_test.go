package reference

import (
	"encoding/json"
	"strings"
	"testing"

	ref "boardbench/internal/reference"
	"boardbench/internal/testutil/cmdtest"
)

func run(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	return cmdtest.Run(t, NewCmd, nil, args...)
}

type showJSON struct {
	SoC       string                `json:"soc"`
	Key       string                `json:"key"`
	Results   int                   `json:"results"`
	Disturbed int                   `json:"disturbed"`
	Cores     []string              `json:"cores"`
	Figures   []ref.FigurePlacement `json:"figures"`
}

// TestReferenceJSON: `reference --json SOC` for a few SoCs of the shipped
// set gives each figure's distribution, consistent with the set itself.
func TestReferenceJSON(t *testing.T) {
	set, err := ref.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	for _, soc := range []string{"rk3588", "Rockchip RK3399", "BCM2712", "Amlogic S922X"} {
		t.Run(soc, func(t *testing.T) {
			out, errOut, code := run(t, "--json", soc)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			var got showJSON
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			g, ok := set.Group(soc)
			if !ok || got.Key != g.Key || got.SoC != g.Label || got.Results+got.Disturbed != len(g.Entries) {
				t.Fatalf("soc %q: %+v, group %s with %d entries", soc, got, g.Key, len(g.Entries))
			}
			if len(got.Figures) == 0 {
				t.Fatal("no figures")
			}
			for _, f := range got.Figures {
				if f.N != len(f.Values) || f.N == 0 || f.Median == nil || (f.N >= ref.MinForPercentile) != (f.P10 != nil) {
					t.Errorf("figure %s: %+v", f.Key, f)
				}
				for i := 1; i < len(f.Values); i++ {
					if f.Values[i] < f.Values[i-1] {
						t.Errorf("figure %s: values not ascending", f.Key)
					}
				}
				if *f.Median < f.Values[0] || *f.Median > f.Values[len(f.Values)-1] {
					t.Errorf("figure %s: median %v outside the values", f.Key, *f.Median)
				}
			}
		})
	}
}

func TestReferenceList(t *testing.T) {
	out, _, code := run(t, "--json")
	var got struct {
		Entries int `json:"entries"`
		SoCs    []struct {
			SoC     string `json:"soc"`
			Results int    `json:"results"`
		} `json:"socs"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &got) != nil || got.Entries == 0 || len(got.SoCs) < 10 {
		t.Fatalf("exit %d: %s", code, out)
	}
	text, _, code := run(t)
	if code != 0 || !strings.Contains(text, "Reference set:") || !strings.Contains(text, "RK3588") {
		t.Errorf("text list (exit %d):\n%s", code, text)
	}
	text, _, code = run(t, "rk3588")
	if code != 0 || !strings.Contains(text, "7-zip multi") || !strings.Contains(text, "7-Zip 16.02") {
		t.Errorf("text SoC (exit %d):\n%s", code, text)
	}
}

func TestReferenceUnknownSoC(t *testing.T) {
	// an empty name is no SoC either (not the entries whose name has no model)
	for _, soc := range []string{"Nonexistent ZZ9999", "", "  ", "Nvidia Jetson Nano"} {
		out, errOut, code := run(t, soc)
		if code != 2 || out != "" || !strings.Contains(errOut, "no reference results for SoC") || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
			t.Errorf("%q: exit %d, out %q, err %q", soc, code, out, errOut)
		}
	}
	if _, _, code := run(t, "a", "b"); code != 2 {
		t.Errorf("two arguments: exit %d", code)
	}
}
