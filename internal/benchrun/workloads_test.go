package benchrun

import (
	"context"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"boardbench/internal/result"
)

func TestParseWorkloads(t *testing.T) {
	tests := []struct {
		in      string
		want    []string
		wantErr string
	}{
		{"", nil, ""},
		{"hpl", []string{"hpl"}, ""},
		{" ssh , hpl,ssh,", []string{"ssh", "hpl"}, ""},
		{"hpl,zzz", nil, `unknown workload "zzz"`},
		{"HPL", nil, `unknown workload "HPL"`},
	}
	for _, tt := range tests {
		got, err := ParseWorkloads(tt.in)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("ParseWorkloads(%q) = %v, %v; want error %q", tt.in, got, err, tt.wantErr)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParseWorkloads(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
}

func TestWorkloadsOfOptions(t *testing.T) {
	tests := []struct {
		opt  Options
		want []string
	}{
		{Options{}, nil},
		{Options{Extensive: true}, []string{"ssh"}},
		{Options{Workloads: []string{"ssh", "hpl"}}, []string{"hpl", "ssh"}},
		{Options{Extensive: true, Workloads: []string{"hpl"}}, []string{"hpl", "ssh"}},
	}
	for _, tt := range tests {
		if got := workloads(tt.opt); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("workloads(%+v) = %v, want %v", tt.opt, got, tt.want)
		}
	}
}

// TestRunWorkloadsOnFixture: on a recorded root the workloads are never
// run (nothing is started for a machine that is not this one): their
// phases are skipped with the reason, and the options record them.
func TestRunWorkloadsOnFixture(t *testing.T) {
	root := bigLittle(t)
	ex := &fakeExec{}
	cfg := fixtureConfig(t, root, ex)
	out := filepath.Join(t.TempDir(), "r.json")
	if _, err := Run(context.Background(), cfg, Options{Output: out, Force: true, Quick: true, Workloads: []string{"hpl", "ssh"}}); err != nil {
		t.Logf("run: %v", err) // the verdict of the fixture's figures is not this test's
	}
	r, err := result.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{result.PhaseHPL, result.PhaseSSHCiphers} {
		ps := phasesNamed(r, name)
		if len(ps) != 1 || ps[0].Status != result.PhaseSkipped || ps[0].Reason != "not the live system" {
			t.Errorf("%s phases = %+v", name, ps)
		}
	}
	if wl, _ := r.Options["workloads"].([]any); len(wl) != 2 || wl[0] != "hpl" || wl[1] != "ssh" {
		t.Errorf("options workloads = %v", r.Options["workloads"])
	}
	if r.Summary.Workloads != nil {
		t.Errorf("summary workloads without a measurement: %+v", r.Summary.Workloads)
	}
	for _, c := range ex.calls {
		if strings.Contains(c.Name, "hpcc") || strings.Contains(c.Name, "ssh") || strings.Contains(c.Name, "mpirun") {
			t.Errorf("ran %v on a recorded root", c)
		}
	}
}
