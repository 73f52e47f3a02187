package tune

import (
	"fmt"
	"slices"
	"strings"

	"boardbench/internal/host"
	"boardbench/internal/inventory/netif"
	"boardbench/internal/kernelfile"
)

// FileState is a tunable file other than the frequency tunables (an
// interrupt's smp_affinity, a receive queue's rps_cpus, an ondemand
// governor tunable, the PCIe ASPM policy) with its content before a
// change, kept as read. Its Path must be on internal/host's write
// allow-list.
type FileState struct {
	Path     string `json:"path"`
	Previous string `json:"previous"`
}

// CoalesceState is the interrupt coalescing of a network interface before
// a change. It is restored through the kernel's ethtool interface, on the
// live machine only.
type CoalesceState struct {
	Interface string         `json:"interface"`
	Previous  netif.Coalesce `json:"previous"`
}

// WithFilesOnly makes a Guard that changes only files and coalescing
// (SetFile, SetCoalesce): it takes no snapshot of the frequency tunables,
// so it works on machines without cpufreq or devfreq.
func WithFilesOnly() Option { return func(g *Guard) { g.filesOnly = true } }

// AllowNoFrequency lets NewGuard start on a machine without cpufreq
// policies or devfreq devices while still saving them where there are
// some, for commands that change mostly other tunables (SetFile).
func AllowNoFrequency() Option { return func(g *Guard) { g.allowEmpty = true } }

// errNothingSaved is Snapshot's error when a machine has no frequency
// tunables at all.
const errNothingSaved = sentinel("no cpufreq policy or devfreq device found")

// WithEthtool sets coalescing through eth instead of the kernel's
// ethtool interface (tests).
func WithEthtool(eth netif.Ethtool) Option { return func(g *Guard) { g.eth = eth } }

// SetFile writes value to an allow-listed tunable file (see host.WriteFile)
// after recording its previous content in the state file (once per path),
// unless the Guard has restored. A file whose content already equals value
// is not written.
func (g *Guard) SetFile(p, value string) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.restored {
		return ErrRestored
	}
	if !slices.ContainsFunc(g.file.Saved.Files, func(f FileState) bool { return f.Path == p }) {
		prev, err := g.h.ReadFile(p)
		if err != nil {
			return fmt.Errorf("reading %s before changing it: %w", p, err)
		}
		if err := g.record(func(s *State) { s.Files = append(s.Files, FileState{Path: p, Previous: string(prev)}) }); err != nil {
			return err
		}
	} else if err := g.ensureWritten(); err != nil {
		return err
	}
	if cur, err := g.h.ReadFile(p); err == nil && strings.TrimSpace(string(cur)) == strings.TrimSpace(value) {
		return nil
	}
	return g.h.WriteString(p, value)
}

// SetCoalesce sets an interface's interrupt coalescing after recording the
// previous settings, unless the Guard has restored. It needs the live
// machine.
func (g *Guard) SetCoalesce(ifname string, c netif.Coalesce) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.restored {
		return ErrRestored
	}
	eth := g.ethtool()
	if eth == nil {
		return host.ErrNotLive
	}
	if !slices.ContainsFunc(g.file.Saved.Coalesce, func(s CoalesceState) bool { return s.Interface == ifname }) {
		prev, err := eth.Coalesce(ifname)
		if err != nil {
			return fmt.Errorf("reading the coalescing of %s before changing it: %w", ifname, err)
		}
		if err := g.record(func(s *State) {
			s.Coalesce = append(s.Coalesce, CoalesceState{Interface: ifname, Previous: *prev})
		}); err != nil {
			return err
		}
	} else if err := g.ensureWritten(); err != nil {
		return err
	}
	return eth.SetCoalesce(ifname, c)
}

// ethtool returns the Guard's ethtool interface: the one given, else the
// kernel's on the live machine, else nil.
func (g *Guard) ethtool() netif.Ethtool {
	if g.eth != nil {
		return g.eth
	}
	if g.h.Live() {
		return netif.Live{}
	}
	return nil
}

// restoreFiles writes back the files and coalescing of st that differ from
// the machine's current values, files last changed first. A choice
// attribute (ASPM policy: "default performance [powersave]") is written
// back as its selected word, since the kernel accepts only that.
func restoreFiles(h *host.Host, st State, eth netif.Ethtool) []error {
	var errs []error
	for i := len(st.Files) - 1; i >= 0; i-- {
		f := st.Files[i]
		if f.Previous == "" {
			continue
		}
		if cur, err := h.ReadFile(f.Path); err == nil && string(cur) == f.Previous {
			continue
		}
		if err := h.WriteString(f.Path, writable(f.Previous)); err != nil {
			errs = append(errs, err)
		}
	}
	if len(st.Coalesce) == 0 {
		return errs
	}
	if eth == nil && h.Live() {
		eth = netif.Live{}
	}
	for _, c := range st.Coalesce {
		if eth == nil {
			errs = append(errs, fmt.Errorf("coalescing of %s: %w", c.Interface, host.ErrNotLive))
			continue
		}
		if cur, err := eth.Coalesce(c.Interface); err == nil && *cur == c.Previous {
			continue
		}
		if err := eth.SetCoalesce(c.Interface, c.Previous); err != nil {
			errs = append(errs, fmt.Errorf("coalescing of %s: %w", c.Interface, err))
		}
	}
	return errs
}

// writable turns a saved content into what the kernel accepts back: the
// selected word of a choice attribute, else the content itself.
func writable(content string) string {
	if sel := kernelfile.ParseChoice(content).Selected; sel != "" {
		return sel
	}
	return content
}
