package kernelfile

import "testing"

func TestParseDefaultPSMaxLatency(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
		ok   bool
	}{{"100000\n", 100000, true}, {"0", 0, true}, {"-1", 0, false}, {"", 0, false}, {"abc", 0, false}} {
		v, ok := ParseDefaultPSMaxLatency([]byte(tc.in))
		if ok != tc.ok || ok && v != tc.want {
			t.Errorf("%q: %d %v", tc.in, v, ok)
		}
	}
}

func TestParsePMQoSLatencyTolerance(t *testing.T) {
	for _, tc := range []struct {
		in   string
		us   int64
		mode string
		ok   bool
	}{{"100000\n", 100000, "", true}, {"auto\n", -1, "auto", true}, {"any", -1, "any", true}, {"-5", 0, "", false}, {"", 0, "", false}} {
		v, ok := ParsePMQoSLatencyTolerance([]byte(tc.in))
		if ok != tc.ok || !ok {
			if ok != tc.ok {
				t.Errorf("%q: ok %v", tc.in, ok)
			}
			continue
		}
		if v.Mode != tc.mode || (tc.us >= 0) != (v.Us != nil) || v.Us != nil && *v.Us != tc.us {
			t.Errorf("%q: %+v", tc.in, v)
		}
	}
}
