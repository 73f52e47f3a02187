package compare

import (
	"testing"

	"boardbench/internal/result"
)

// TestCompareWorkloads: the workloads' headline figures (summary.workloads)
// are compared with their names and units; a cipher one result lacks is
// null there.
func TestCompareWorkloads(t *testing.T) {
	a, b := base(), base()
	a.Summary.Workloads = &result.Workloads{
		HPL: &result.HPLHeadline{Gflops: f64(10), GflopsPerW: f64(2)},
		SSH: &result.SSHHeadline{MBs: map[string]*float64{"chacha20-poly1305@openssh.com": f64(50), "aes128-ctr": f64(20)}},
	}
	b.Summary.Workloads = &result.Workloads{
		HPL: &result.HPLHeadline{Gflops: f64(15)},
		SSH: &result.SSHHeadline{MBs: map[string]*float64{"chacha20-poly1305@openssh.com": f64(55)}},
	}
	cmp, err := Compare([]Input{{Label: "a", Result: a}, {Label: "b", Result: b}})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Figure{}
	for _, f := range cmp.Figures {
		got[f.Key] = f
	}
	tests := []struct {
		key, name, unit string
		a, b            *float64
		change          *float64
	}{
		{"workloads.hpl.gflops", "HPL (Linpack)", "Gflops", f64(10), f64(15), f64(50)},
		{"workloads.hpl.gflops_per_w", "HPL (Linpack) per watt", "Gflops/W", f64(2), nil, nil},
		{"workloads.ssh.mb_s.chacha20-poly1305@openssh.com", "ssh cipher chacha20-poly1305@openssh.com", "MB/s", f64(50), f64(55), f64(10)},
		{"workloads.ssh.mb_s.aes128-ctr", "ssh cipher aes128-ctr", "MB/s", f64(20), nil, nil},
	}
	eq := func(x, y *float64) bool { return x == nil && y == nil || x != nil && y != nil && *x == *y }
	for _, tt := range tests {
		f, ok := got[tt.key]
		if !ok {
			t.Errorf("%s not compared", tt.key)
			continue
		}
		if f.Name != tt.name || f.Unit != tt.unit || !eq(f.Values[0], tt.a) || !eq(f.Values[1], tt.b) || !eq(f.ChangePct[1], tt.change) {
			t.Errorf("%s = %+v", tt.key, f)
		}
	}
}
