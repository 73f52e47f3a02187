package runtext

import (
	"testing"

	"boardbench/internal/result"
)

func TestNetDirection(t *testing.T) {
	for _, tc := range []struct {
		phase, want string
	}{
		{result.PhaseNetTCPForward, "TCP send"},
		{result.PhaseNetTCPReverse, "TCP receive"},
		{result.PhaseNetTCPBidir, "TCP both ways"},
		{result.PhaseNetSmallPackets, "TCP MSS 88"},
		{result.PhaseNetUDP, "UDP send"},
		{result.PhaseNetUDPBidir, "UDP both ways"},
		{result.PhaseNetWatch, "watched"},
		{result.PhaseNetWatchApplied, "watched, applied"},
		{result.PhaseNetHeadroomIdle, "load calibration"},
		{result.PhaseStorage, ""},
		{"", ""},
	} {
		if got := netDirection(tc.phase); got != tc.want {
			t.Errorf("netDirection(%q) = %q, want %q", tc.phase, got, tc.want)
		}
		if got := IsNetPhase(tc.phase); got != (tc.want != "") {
			t.Errorf("IsNetPhase(%q) = %v", tc.phase, got)
		}
	}
}

func TestExcludedFigure(t *testing.T) {
	for _, tc := range []struct {
		figure, name, format string
	}{
		{"sevenzip_single_mips", "7-Zip single", "%.0f MIPS"},
		{"aes256_16k", "AES-256 16 KiB", "%.0f kB/s"},
		{"memcpy_mb_s", "memcpy", "%.0f MB/s"},
		{"memset_mb_s", "memset", "%.0f MB/s"},
		{"clock_mhz", "", ""},
	} {
		if name, format := excludedFigure(tc.figure); name != tc.name || format != tc.format {
			t.Errorf("excludedFigure(%q) = %q, %q; want %q, %q", tc.figure, name, format, tc.name, tc.format)
		}
	}
}

func TestSummaryFigures(t *testing.T) {
	for _, tc := range []struct {
		command string
		ok      bool
	}{
		{"monitor", true}, {"sweep", true}, {"thermal", true}, {"storage", true}, {"net", true}, {"writes", true},
		{"run", false}, {"mem", false}, {"", false},
	} {
		f, ok := summaryFigures(tc.command)
		if ok != tc.ok || (f != nil) != tc.ok {
			t.Errorf("summaryFigures(%q) = %v, %v; want a function: %v", tc.command, f != nil, ok, tc.ok)
		}
	}
	if f, _ := summaryFigures("writes"); f(&result.Result{}) != nil {
		t.Error("writes has summary lines; want none")
	}
}
