package writewatch

import (
	"context"
	"fmt"
	"path"
	"strings"
	"time"

	"boardbench/internal/blockdev"
	"boardbench/internal/host"
	"boardbench/internal/result"
	"boardbench/internal/session"
)

// Target is what `boardbench writes` watches: the block device whose
// counters it reads, the identity of what the user named, and the facts
// its advice reads.
type Target struct {
	// Device is the block device's name (mmcblk0p2).
	Device string
	ID     *blockdev.Identity
	Facts  Facts
}

// ResolveTarget finds the device behind target, a device name (mmcblk0p2),
// a device node or a path, and the facts of its advice (the swap devices,
// the device of /var/log). An error wrapping blockdev.ErrNotFound means
// there is no such device or path.
func ResolveTarget(ctx context.Context, h *host.Host, target string) (Target, error) {
	// A bare device name (mmcblk0p2) is a device; anything else a path.
	p := target
	if !strings.Contains(target, "/") && h.Exists("/sys/class/block/"+target) {
		p = "/dev/" + target
	}
	id, err := blockdev.Resolve(ctx, h, p, blockdev.Options{Redact: true})
	if err != nil {
		return Target{}, err
	}
	dev := deviceToWatch(h, p, id)
	if dev == "" {
		return Target{}, fmt.Errorf("%s: no block device to watch (%s)", target, firstNonEmpty(id.NotStorage, strings.Join(id.Notes, "; ")))
	}
	if _, err := ReadStat(h, dev); err != nil {
		return Target{}, fmt.Errorf("%s: cannot read its counters: %v", dev, err)
	}
	facts := Facts{Root: id, Swaps: map[string]*blockdev.Identity{}}
	for _, s := range Swaps(h) {
		facts.Swaps[s], _ = blockdev.Resolve(ctx, h, s, blockdev.Options{Redact: true, KernelLog: []byte{}})
	}
	facts.VarLog, _ = blockdev.Resolve(ctx, h, "/var/log", blockdev.Options{Redact: true, KernelLog: []byte{}})
	return Target{Device: dev, ID: id, Facts: facts}, nil
}

// Label names the target for a person: its label, else its path, then
// what it is (Medium), e.g. "mmcblk0 (SD card SanDisk SC16G); SD card
// (flash)".
func (t Target) Label() string {
	what, _ := Medium(t.ID)
	return firstNonEmpty(t.ID.Label(), t.ID.Path) + "; " + what
}

// CommandStep is the plan of `boardbench writes`: one passive step that
// watches t.Device every interval (count lines, 0 until ctx ends), calls
// onLine for each line and leaves the figures, with their advice, in figs
// and in the phase. Ending by ctx is the end the user asked for, no error.
func CommandStep(h *host.Host, t Target, interval time.Duration, count int, onLine func(result.WritesLine), figs *result.WritesFigures) session.Step {
	return session.Step{Name: result.PhaseWrites, Title: "Writes to " + t.Device, Estimate: time.Duration(max(count, 1)) * interval,
		Run: func(ctx context.Context, ph *result.Phase) error {
			// Other processes' work is what this phase watches, not
			// interference with it.
			ph.Passive = true
			var err error
			*figs, err = Watch(ctx, h, Config{Device: t.Device, Interval: interval, Count: count, OnLine: onLine})
			figs.Advice = Advise(t.Facts, *figs)
			if what, flash := Medium(t.ID); !flash {
				ph.Notes = append(ph.Notes, fmt.Sprintf("no advice: %s is a %s; the advice spares the wear of flash", t.Device, what))
			}
			if ferr := ph.SetFigures(*figs); ferr != nil {
				return ferr
			}
			if err == nil && ctx.Err() != nil {
				// The end the user asked for: the summary comes below.
				return nil
			}
			return err
		}}
}

// deviceToWatch returns the block device whose counters the watch reads
// for the resolved target: for a device node (vda, /dev/vda, loop0,
// mmcblk0p2) the device itself; for a path the device holding its
// filesystem (WatchedDevice). "" when there is none.
func deviceToWatch(h *host.Host, p string, id *blockdev.Identity) string {
	if !id.Raw {
		return WatchedDevice(id)
	}
	for _, name := range []string{id.Partition, WatchedDevice(id), path.Base(p), id.Name} {
		if name != "" && name != "." && name != "/" && h.Exists("/sys/class/block/"+name+"/stat") {
			return name
		}
	}
	return ""
}
