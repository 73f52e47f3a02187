package check

import (
	"testing"

	"boardbench/internal/result"
)

func TestPhaseLookups(t *testing.T) {
	for _, tc := range []struct {
		phase               string
		sevenZip, secondary bool
	}{
		{result.PhaseSevenZipSingle, true, false},
		{result.PhaseSevenZipMulti, true, false},
		{result.PhaseSevenZipCluster, true, true},
		{result.PhaseSustained, true, true},
		{result.PhaseOpenSSLAllCores, false, true},
		{result.PhaseMemoryAllCores, false, true},
		{result.PhaseOpenSSLEVP, false, true},
		{result.PhaseCryptsetup, false, true},
		{result.PhaseZstd, false, true},
		{result.PhaseArmcap, false, true},
		{result.PhaseLlama, false, true},
		{result.PhaseHPL, false, true},
		{result.PhaseSSHCiphers, false, true},
		{result.PhaseMemory, false, false},
		{result.PhaseStorage, false, false},
		{"", false, false},
	} {
		if got := sevenZipPhase(tc.phase); got != tc.sevenZip {
			t.Errorf("sevenZipPhase(%q) = %v, want %v", tc.phase, got, tc.sevenZip)
		}
		if got := secondaryPhase(tc.phase); got != tc.secondary {
			t.Errorf("secondaryPhase(%q) = %v, want %v", tc.phase, got, tc.secondary)
		}
	}
}

func TestModeRank(t *testing.T) {
	for _, tc := range []struct {
		mode string
		want int
	}{
		{"DS", 0}, {"SDR12", 0},
		{"HS", 1}, {"SDR25", 1},
		{"DDR50", 2}, {"SDR50", 2}, {"DDR52", 2},
		{"SDR104", 3}, {"HS200", 3},
		{"HS400", 4}, {"HS400ES", 4},
		{"legacy", 0}, {"", 0},
	} {
		if got := modeRank(tc.mode); got != tc.want {
			t.Errorf("modeRank(%q) = %d, want %d", tc.mode, got, tc.want)
		}
	}
}
