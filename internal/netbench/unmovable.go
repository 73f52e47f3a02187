package netbench

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"boardbench/internal/check"
	"boardbench/internal/host"
	"boardbench/internal/inventory/cpu"
	"boardbench/internal/outfile"
	"boardbench/internal/regfile"
	"boardbench/internal/result"
)

// UnmovableFile is the record, in the tuning state directory, of the
// interrupts that did not move when `net --apply` wrote their affinity. It
// lives as long as that directory (/run/boardbench: until the next boot,
// when interrupt numbers may change).
const UnmovableFile = "net-unmovable.json"

// maxUnmovableBytes bounds the record's size.
const maxUnmovableBytes = 1 << 20

// unmovableDoc is the record's JSON.
type unmovableDoc struct {
	IRQs []result.NetUnmoved `json:"irqs"`
}

// LoadUnmovable reads the record in dir; a missing, unreadable or
// malformed record is an empty one (the advice is then as without it).
func LoadUnmovable(dir string) []result.NetUnmoved {
	b, err := regfile.Read(filepath.Join(dir, UnmovableFile), maxUnmovableBytes, regfile.NoFollow)
	if err != nil {
		return nil
	}
	var d unmovableDoc
	if json.Unmarshal(b, &d) != nil {
		return nil
	}
	return d.IRQs
}

// SaveUnmovable adds found to the record in dir (one entry per interrupt
// number and handlers, the newest kept), creating dir when missing.
func SaveUnmovable(dir string, found []result.NetUnmoved) error {
	if len(found) == 0 {
		return nil
	}
	all := LoadUnmovable(dir)
	for _, u := range found {
		all = slices.DeleteFunc(all, func(o result.NetUnmoved) bool { return o.IRQ == u.IRQ && o.Name == u.Name })
		all = append(all, u)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("unmovable interrupts: %v", err)
	}
	b, err := json.MarshalIndent(unmovableDoc{IRQs: all}, "", "  ")
	if err != nil {
		return err
	}
	return outfile.WriteFile(filepath.Join(dir, UnmovableFile), append(b, '\n'))
}

// CheckMoved reads back the effective affinity of every interrupt whose
// affinity was written: one whose write failed, or whose
// effective_affinity_list shares no CPU with the CPUs written, did not
// move. An unreadable effective affinity (older kernels, some interrupt
// controllers) says nothing either way and is left out. Called after the
// traffic steps, so that a move the kernel defers to the next interrupt
// has happened.
func CheckMoved(h *host.Host, writes []check.Spread, errs []error) []result.NetUnmoved {
	var out []result.NetUnmoved
	for i, s := range writes {
		if s.IRQ == "" {
			continue
		}
		wanted := cpuListString(s.CPUs)
		eff, rerr := h.ReadString("/proc/irq/" + s.IRQ + "/effective_affinity_list")
		eff = strings.TrimSpace(eff)
		if i < len(errs) && errs[i] != nil {
			if rerr != nil {
				eff = "unknown"
			}
			out = append(out, result.NetUnmoved{IRQ: s.IRQ, Name: s.Name, Wanted: wanted, Effective: eff,
				Reason: "writing its affinity failed: " + errs[i].Error()})
			continue
		}
		if rerr != nil || eff == "" {
			continue
		}
		cpus, err := cpu.ParseCPUList(eff)
		if err != nil || slices.ContainsFunc(cpus, func(c int) bool { return slices.Contains(s.CPUs, c) }) {
			continue
		}
		out = append(out, result.NetUnmoved{IRQ: s.IRQ, Name: s.Name, Wanted: wanted, Effective: eff,
			Reason: "its effective affinity did not follow the affinity written"})
	}
	return out
}

// cpuListString writes CPUs as a list ("1,3").
func cpuListString(cpus []int) string {
	var parts []string
	for _, c := range cpus {
		parts = append(parts, fmt.Sprint(c))
	}
	return strings.Join(parts, ",")
}
