package benchrun

import (
	"time"

	"boardbench/internal/inventory/cpu"
	"boardbench/internal/memmeasure"
)

// Target is one core type to measure single-threaded (see
// cpu.CoreTypes).
type Target = cpu.CoreType

// Targets groups the usable CPUs into core types (cpu.CoreTypes).
func Targets(info cpu.Info, usable []int) []Target { return cpu.CoreTypes(info, usable) }

// Estimates are the expected phase durations before anything was
// measured. They only drive the ETA; measured durations rescale them as the
// run goes.
type Estimates struct {
	Clock          time.Duration
	Memory         time.Duration
	OpenSSLCipher  time.Duration
	SevenZipSingle time.Duration
	SevenZipMulti  time.Duration
	// CryptsetupRun is one `cryptsetup benchmark` (one key size).
	CryptsetupRun time.Duration
}

// DefaultEstimates returns the starting estimates for a run's plan: 7-Zip
// runs take roughly the same time everywhere (the benchmark adapts its
// work to the CPU), about 30-50 s single-threaded and 25-40 s per
// multi-threaded run; openssl takes 6 block sizes times the seconds per
// block size per cipher.
func DefaultEstimates(p Plan) Estimates {
	e := Estimates{
		Clock:          time.Second,
		Memory:         6 * time.Second,
		OpenSSLCipher:  time.Duration(6*p.OpenSSLSeconds) * time.Second,
		SevenZipSingle: 40 * time.Second,
		SevenZipMulti:  35 * time.Second,
		CryptsetupRun:  2 * time.Second,
	}
	if p.Quick {
		e.Memory = 2 * time.Second
		e.SevenZipSingle = 6 * time.Second
		e.SevenZipMulti = 5 * time.Second
	}
	return e
}

// Plan holds the parameters of a run's phases.
type Plan struct {
	Quick bool
	// OpenSSLSeconds is the -seconds value per block size; Ciphers are
	// measured in turn.
	OpenSSLSeconds int
	Ciphers        []string
	// EVPCiphers are the AEAD ciphers of the openssl-evp phase
	// (--extensive).
	EVPCiphers []string
	// CryptsetupKeyBits are the aes-xts key sizes of the cryptsetup phase
	// (--extensive).
	CryptsetupKeyBits []int
	// SevenZipDictLog2 and SevenZipPasses shorten 7-Zip runs (quick mode);
	// 0 keeps 7-Zip's defaults.
	SevenZipDictLog2 int
	SevenZipPasses   int
	// SevenZipMultiRuns is the number of consecutive multi-threaded runs.
	SevenZipMultiRuns int
	Memory            memmeasure.Plan
	// Sustained is the length of the sustained phase (--extensive).
	Sustained time.Duration
}

// NewPlan returns the parameters for the options.
func NewPlan(opt Options) Plan {
	p := Plan{
		OpenSSLSeconds:    1,
		Ciphers:           []string{"aes-128-cbc", "aes-192-cbc", "aes-256-cbc"},
		EVPCiphers:        []string{"aes-256-gcm", "chacha20-poly1305"},
		CryptsetupKeyBits: []int{256, 512},
		SevenZipMultiRuns: 3,
		Memory:            memmeasure.RunPlan(false),
		Sustained:         opt.SustainedDuration,
	}
	if p.Sustained <= 0 {
		p.Sustained = DefaultSustained
	}
	if opt.Quick {
		p.Quick = true
		p.Ciphers = []string{"aes-256-cbc"}
		p.SevenZipDictLog2 = 18
		p.SevenZipPasses = 1
		p.SevenZipMultiRuns = 1
		p.Memory = memmeasure.RunPlan(true)
		if opt.SustainedDuration <= 0 {
			p.Sustained = QuickSustained
		}
	}
	return p
}
