package benchrun

import (
	"fmt"
	"sort"
	"time"

	"boardbench/internal/inventory/cpu"
)

// Target is one core type to measure single-threaded: the CPUs of one
// cluster, or of several clusters of the same core type and maximum clock.
type Target struct {
	// Core is the core type, "" when unknown.
	Core string
	// Clusters are the inventory clusters the target stands for.
	Clusters []int
	// CPUs are all CPUs of the target.
	CPUs []int
	// Candidates are the CPUs this process may use, in the order tried
	// when pinning fails.
	Candidates []int
	// MaxMHz is the clusters' cpuinfo_max_freq, nil when unknown.
	MaxMHz *float64
}

// Label names the target in titles: "cpu4-7 (Cortex-A76)".
func (t Target) Label() string {
	s := "cpu" + cpu.FormatCPUList(t.CPUs)
	if t.Core != "" {
		s += " (" + t.Core + ")"
	}
	return s
}

// Targets groups the clusters into core types: clusters of the same core
// type and maximum clock are one target (their single-threaded figures are
// the same), clusters of one core type at different maximum clocks (binned
// clusters, e.g. RK3588) are separate targets. Without cluster information
// all usable CPUs form one target. Targets are ordered by their first CPU.
func Targets(info cpu.Info, usable []int) []Target {
	ok := map[int]bool{}
	for _, c := range usable {
		ok[c] = true
	}
	if len(info.Clusters) == 0 {
		if len(usable) == 0 {
			return nil
		}
		return []Target{{CPUs: append([]int(nil), usable...), Candidates: append([]int(nil), usable...)}}
	}
	type key struct {
		core string
		mhz  float64
	}
	index := map[key]int{}
	var out []Target
	for i, cl := range info.Clusters {
		k := key{core: cl.Core, mhz: -1}
		if cl.MaxMHz != nil {
			k.mhz = *cl.MaxMHz
		}
		if cl.Core == "" {
			k.core = fmt.Sprintf("\x00cluster%d", i) // unknown cores are never merged
		}
		j, seen := index[k]
		if !seen {
			j = len(out)
			index[k] = j
			out = append(out, Target{Core: cl.Core, MaxMHz: cl.MaxMHz})
		}
		t := &out[j]
		t.Clusters = append(t.Clusters, i)
		t.CPUs = append(t.CPUs, cl.CPUs...)
		for _, c := range cl.CPUs {
			if ok[c] {
				t.Candidates = append(t.Candidates, c)
			}
		}
	}
	for i := range out {
		sort.Ints(out[i].CPUs)
		sort.Ints(out[i].Candidates)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].CPUs[0] < out[j].CPUs[0] })
	return out
}

// Estimates are the expected phase durations before anything was
// measured. They only drive the ETA; measured durations rescale them as the
// run goes.
type Estimates struct {
	Clock          time.Duration
	Memory         time.Duration
	OpenSSLCipher  time.Duration
	SevenZipSingle time.Duration
	SevenZipMulti  time.Duration
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
	// SevenZipDictLog2 and SevenZipPasses shorten 7-Zip runs (quick mode);
	// 0 keeps 7-Zip's defaults.
	SevenZipDictLog2 int
	SevenZipPasses   int
	// SevenZipMultiRuns is the number of consecutive multi-threaded runs.
	SevenZipMultiRuns int
	Memory            MemoryPlan
	// Sustained is the length of the sustained phase (--extensive).
	Sustained time.Duration
}

// NewPlan returns the parameters for the options.
func NewPlan(opt Options) Plan {
	p := Plan{
		OpenSSLSeconds:    1,
		Ciphers:           []string{"aes-128-cbc", "aes-192-cbc", "aes-256-cbc"},
		SevenZipMultiRuns: 3,
		Memory:            StandardMemoryPlan(),
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
		p.Memory = QuickMemoryPlan()
		if opt.SustainedDuration <= 0 {
			p.Sustained = QuickSustained
		}
	}
	return p
}
