package kernelfile

import (
	"errors"
	"strings"
	"testing"
)

func TestConfigFactsOf(t *testing.T) {
	hz := func(n int) *int { return &n }
	for _, tc := range []struct {
		name string
		cfg  string
		want ConfigFacts
	}{
		{"voluntary dynamic idle", "CONFIG_HZ=250\nCONFIG_PREEMPT_VOLUNTARY=y\nCONFIG_PREEMPT_DYNAMIC=y\nCONFIG_NO_HZ_IDLE=y\n",
			ConfigFacts{HZ: hz(250), Preempt: PreemptVoluntary, PreemptDynamic: true, Tick: TickIdle}},
		{"rt before full", "CONFIG_HZ=1000\nCONFIG_PREEMPT=y\nCONFIG_PREEMPT_RT=y\nCONFIG_NO_HZ_FULL=y\nCONFIG_NO_HZ_IDLE=y\n",
			ConfigFacts{HZ: hz(1000), Preempt: PreemptRT, Tick: TickFull}},
		{"none periodic", "CONFIG_HZ=100\nCONFIG_PREEMPT_NONE=y\nCONFIG_HZ_PERIODIC=y\n# CONFIG_PREEMPT is not set\n",
			ConfigFacts{HZ: hz(100), Preempt: PreemptNone, Tick: TickPeriodic}},
		{"lazy", "CONFIG_PREEMPT_LAZY=y\n", ConfigFacts{Preempt: PreemptLazy}},
		{"HZ not a number", "CONFIG_HZ=fast\n", ConfigFacts{}},
		{"HZ out of range", "CONFIG_HZ=-5\n", ConfigFacts{}},
		{"modules only", "CONFIG_PREEMPT=m\n", ConfigFacts{}},
		{"empty", "", ConfigFacts{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := ConfigFactsOf(ParseConfig([]byte(tc.cfg)))
			if (got.HZ == nil) != (tc.want.HZ == nil) || got.HZ != nil && *got.HZ != *tc.want.HZ ||
				got.Preempt != tc.want.Preempt || got.PreemptDynamic != tc.want.PreemptDynamic || got.Tick != tc.want.Tick {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

type mapReader map[string]string

func (m mapReader) ReadFile(p string) ([]byte, error) {
	if v, ok := m[p]; ok {
		return []byte(v), nil
	}
	return nil, errors.New("no such file")
}

func TestReadKernelConfig(t *testing.T) {
	for _, tc := range []struct {
		name, release string
		files         mapReader
		src, err      string
	}{
		{"boot file", "6.1.0-18-arm64", mapReader{"/boot/config-6.1.0-18-arm64": "CONFIG_HZ=250\n"}, "/boot/config-6.1.0-18-arm64", ""},
		{"release escaping /boot", "../../etc/passwd", mapReader{"/boot/config-../../etc/passwd": "CONFIG_HZ=250\n"}, "", "not exposed"},
		{"slash in release", "6.1/x", mapReader{}, "", "/proc/config.gz: not exposed"},
		{"corrupt gz", "6.1.0", mapReader{"/proc/config.gz": "xx"}, "", "/proc/config.gz: not gzip data"},
		{"no symbols", "6.1.0", mapReader{"/boot/config-6.1.0": "hello\n"}, "", "no CONFIG_ symbol"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, src, err := ReadKernelConfig(tc.files, tc.release, nil)
			if src != tc.src || (err == nil) != (tc.err == "") || err != nil && !strings.Contains(err.Error(), tc.err) {
				t.Errorf("source %q, error %v; want %q, %q", src, err, tc.src, tc.err)
			}
		})
	}
}
