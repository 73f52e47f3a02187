package storagerun

import (
	"slices"
	"testing"

	"boardbench/internal/testutil/fixture"
)

func TestCpufreqStateReadsPerPolicyOndemand(t *testing.T) {
	const cf = "/sys/devices/system/cpu/cpufreq/"
	bigLittle := func(busy0, busy4 string) map[string]string {
		return map[string]string{
			cf + "policy0/scaling_governor": "ondemand\n", cf + "policy0/ondemand/io_is_busy": busy0 + "\n",
			cf + "policy4/scaling_governor": "ondemand\n", cf + "policy4/ondemand/io_is_busy": busy4 + "\n",
		}
	}
	f, tr := false, true
	tests := []struct {
		name     string
		files    map[string]string
		want     *bool
		wantGovs []string
	}{
		{name: "per policy, the big cluster ignores I/O", files: bigLittle("1", "0"), want: &f,
			wantGovs: []string{"policy0: ondemand", "policy4: ondemand (io_is_busy=0)"}},
		{name: "per policy, both count I/O", files: bigLittle("1", "1"), want: &tr,
			wantGovs: []string{"policy0: ondemand", "policy4: ondemand"}},
		{name: "global tunables", files: map[string]string{cf + "policy0/scaling_governor": "ondemand\n", cf + "ondemand/io_is_busy": "0\n"},
			want: &f, wantGovs: []string{"policy0: ondemand"}},
		{name: "schedutil", files: map[string]string{cf + "policy0/scaling_governor": "schedutil\n"},
			wantGovs: []string{"policy0: schedutil"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := fixture.Open(t, fixture.Root(t, tt.files))
			govs, busy := cpufreqState(h)
			if !slices.Equal(govs, tt.wantGovs) {
				t.Errorf("governors %q, want %q", govs, tt.wantGovs)
			}
			if (busy == nil) != (tt.want == nil) || (busy != nil && *busy != *tt.want) {
				t.Errorf("io_is_busy %v, want %v", ptr(busy), ptr(tt.want))
			}
		})
	}
}

func ptr(b *bool) any {
	if b == nil {
		return nil
	}
	return *b
}
