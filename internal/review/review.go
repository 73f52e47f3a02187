// Package review inspects the settings that hold a board back: cpufreq and
// devfreq governors, PCIe ASPM and links, USB storage drivers, swap, file
// system options, Raspberry Pi config, power contracts and limits,
// mitigations, interrupts and the kernel's age. Each rule is a function of
// what internal/host serves (live or a fixture root) producing findings with
// a stable id, the evidence read, the exact fix and its cost; every value
// read is recorded as a Setting for the table of `boardbench review`.
package review

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"boardbench/internal/finding"
	"boardbench/internal/host"
	"boardbench/internal/inventory/storage"
)

// Areas, in the order the text output shows them.
const (
	AreaCPU     = "CPU"
	AreaMemory  = "memory"
	AreaStorage = "storage"
	AreaNetwork = "network"
	AreaPower   = "power"
	AreaKernel  = "kernel"
	// AreaBoot holds what the boot loader gives the kernel: its command
	// line, read by rules of several areas.
	AreaBoot = "boot"
)

// Areas lists the areas in display order.
var Areas = []string{AreaCPU, AreaMemory, AreaStorage, AreaNetwork, AreaPower, AreaKernel, AreaBoot}

// settingArea fixes the area of settings that rules of several areas read:
// the table shows them there, whichever rule read them first.
func settingArea(path string) (area string, ok bool) {
	if path == "/proc/cmdline" {
		return AreaBoot, true
	}
	return "", false
}

// Finding is a review finding: the shared finding type of every
// judgement (finding.Review: a finding.Finding plus the area it belongs to
// and what following its advice costs). Review keeps its own registry of
// rules (Rules), not check's: it judges settings, not measurements.
type Finding = finding.Review

// Setting is one value read, fine or not.
type Setting struct {
	Area string `json:"area"`
	// Path is the file read; Value its content (trimmed), or the reason
	// it could not be read.
	Path  string `json:"path"`
	Value string `json:"value"`
	// Findings are the ids of the findings that cite this setting.
	Findings []string `json:"findings,omitempty"`
}

// Report is the outcome of a review.
type Report struct {
	Root     string    `json:"root"`
	Findings []Finding `json:"findings"`
	Settings []Setting `json:"settings"`
}

// Env is what rules read the machine through: the host, the time, and the
// record of settings read.
type Env struct {
	H   *host.Host
	Now time.Time

	settings []Setting
	seen     map[string]bool
	cache    map[string]cached
	storage  *storage.Info
}

type cached struct {
	v  string
	ok bool
}

// NewEnv returns an environment reading through h at time now.
func NewEnv(h *host.Host, now time.Time) *Env {
	return &Env{H: h, Now: now, seen: map[string]bool{}, cache: map[string]cached{}}
}

// Read returns a file's trimmed content and records it as a setting of
// area; ok is false when it is missing or unreadable (a missing file is not
// recorded: most rules probe paths that only some machines have).
func (e *Env) Read(area, p string) (string, bool) {
	if c, hit := e.cache[p]; hit {
		return c.v, c.ok
	}
	if a, ok := settingArea(p); ok {
		area = a
	}
	b, err := e.H.ReadFile(p)
	if err != nil {
		e.cache[p] = cached{}
		return "", false
	}
	v := strings.TrimSpace(string(b))
	e.cache[p] = cached{v, true}
	e.Note(area, p, v)
	return v, true
}

// Note records a setting that was derived rather than read from one file.
func (e *Env) Note(area, p, v string) {
	if e.seen[p] {
		return
	}
	e.seen[p] = true
	shown := strings.Join(strings.Fields(v), " ")
	if n := strings.Count(v, "\n"); n > 0 {
		shown = fmt.Sprintf("(%d lines)", n+1)
	}
	e.settings = append(e.settings, Setting{Area: area, Path: p, Value: shown})
}

// Rule is one review rule.
type Rule struct {
	// ID is the stable id of the findings it produces.
	ID    string
	Area  string
	Check func(*Env) []Finding
}

// Rules lists every rule, by area.
var Rules = []Rule{
	{"cpufreq_governor", AreaCPU, cpufreqGovernor},
	{"ondemand_io_is_busy", AreaCPU, ondemandIOIsBusy},
	{"devfreq_governor", AreaMemory, devfreqGovernor},
	{"swap_on_flash", AreaMemory, swapOnFlash},
	{"zram_and_zswap", AreaMemory, zramAndZswap},
	{"thp_setting", AreaMemory, thpSetting},
	{"pcie_link_downgraded", AreaStorage, pcieLinkDowngraded},
	{"usb_storage_not_uas", AreaStorage, usbStorageNotUAS},
	{"coherent_pool_small", AreaStorage, coherentPoolSmall},
	{"ext4_commit", AreaStorage, ext4Commit},
	{"nvme_apst_latency", AreaStorage, nvmeAPSTLatency},
	{"pcie_aspm_powersave", AreaNetwork, pcieASPMPowersave},
	{"irq_single_cpu", AreaNetwork, irqSingleCPU},
	{"rpi_config", AreaPower, rpiConfig},
	{"usb_pd_contract", AreaPower, usbPDContract},
	{"powercap_limit", AreaPower, powercapLimit},
	{"cpu_mitigations", AreaKernel, cpuMitigations},
	{"cpu_vulnerable", AreaKernel, cpuVulnerable},
	{"cpu_vulnerability_unknown", AreaKernel, cpuVulnerabilityUnknown},
	{"kernel_eol", AreaKernel, kernelEOL},
}

// Run applies every rule to the machine behind h and returns the findings,
// grouped by area and worst first within an area, and every setting read.
func Run(h *host.Host, now time.Time) Report {
	e := NewEnv(h, now)
	var out []Finding
	for _, r := range Rules {
		for _, f := range r.Check(e) {
			f.ID, f.Area = r.ID, r.Area
			out = append(out, f)
		}
	}
	SortFindings(out)
	for i := range e.settings {
		s := &e.settings[i]
		for _, f := range out {
			if cites(f, s.Path) && !slices.Contains(s.Findings, f.ID) {
				s.Findings = append(s.Findings, f.ID)
			}
		}
	}
	if out == nil {
		out = []Finding{}
	}
	return Report{Root: h.Root(), Findings: out, Settings: e.settings}
}

// cites reports whether a finding's evidence names path.
func cites(f Finding, path string) bool {
	for _, ev := range f.Evidence {
		if strings.HasPrefix(ev, path+" ") || strings.HasPrefix(ev, path+":") || ev == path {
			return true
		}
	}
	return false
}

// SortFindings orders findings by area (Areas' order), then worst first,
// then by id, keeping the rules' order otherwise.
func SortFindings(fs []Finding) {
	slices.SortStableFunc(fs, func(a, b Finding) int {
		if d := slices.Index(Areas, a.Area) - slices.Index(Areas, b.Area); d != 0 {
			return d
		}
		if d := b.Severity.Rank() - a.Severity.Rank(); d != 0 {
			return d
		}
		return strings.Compare(a.ID, b.ID)
	})
}

// ev formats one line of evidence: "path: value".
func ev(path, value string) string { return fmt.Sprintf("%s: %s", path, value) }

// warn and info build findings of those severities.
func warn(title, advice, persist, cost string, evidence ...string) Finding {
	return mk(finding.Warning, title, advice, persist, cost, evidence)
}

func info(title, advice, persist, cost string, evidence ...string) Finding {
	return mk(finding.Info, title, advice, persist, cost, evidence)
}

func mk(sev finding.Severity, title, advice, persist, cost string, evidence []string) Finding {
	return Finding{
		Finding: finding.Finding{Severity: sev, Title: title, Evidence: evidence, Advice: advice},
		Cost:    cost, Persist: persist,
	}
}
