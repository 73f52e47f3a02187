package storagerun

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path"
	"strconv"
	"strings"
	"time"

	"boardbench/internal/blockdev"
	"boardbench/internal/cmdutil"
	"boardbench/internal/host"
	"boardbench/internal/kernelfile"
	"boardbench/internal/result"
	"boardbench/internal/review"
	"boardbench/internal/tools"
)

// ParseSize reads 100M, 1G, 65536K or a number of bytes.
func ParseSize(s string) (int64, error) {
	typed := s
	s = strings.TrimSpace(strings.ToUpper(s))
	mult := int64(1)
	for suffix, m := range map[string]int64{"K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40} {
		if t, ok := strings.CutSuffix(strings.TrimSuffix(s, "IB"), suffix); ok {
			s, mult = t, m
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 || n > math.MaxInt64/mult {
		return 0, fmt.Errorf("%q is not a size (e.g. 256M)", typed)
	}
	return n * mult, nil
}

// fioFailed is the command's error when the fio step failed (nil when it
// did not): the result is written with the phase failed, and the exit
// status says so.
func fioFailed(err error) error {
	if err == nil || errors.Is(err, context.Canceled) {
		return nil
	}
	return fmt.Errorf("the fio step failed: %w", err)
}

// refuseSpecialFile refuses a path that is a special file other than a
// block device (/dev/null, a FIFO, a socket): there is no storage to
// measure behind it.
func refuseSpecialFile(p string) error {
	fi, err := os.Stat(p)
	if err != nil {
		return nil // Resolve says what is wrong with the path
	}
	m := fi.Mode()
	switch {
	case m&fs.ModeDevice != 0 && m&fs.ModeCharDevice == 0:
		return nil // a block device
	case m&fs.ModeCharDevice != 0:
		return cmdutil.Usagef("%s is a character device, not storage: give a directory or a block device", p)
	case m&fs.ModeNamedPipe != 0:
		return cmdutil.Usagef("%s is a FIFO, not storage: give a directory or a block device", p)
	case m&fs.ModeSocket != 0:
		return cmdutil.Usagef("%s is a socket, not storage: give a directory or a block device", p)
	}
	return nil
}

// findFio returns fio, installing it first when allowed; otherwise the
// reason the fio step is skipped.
func findFio(ctx context.Context, h *host.Host, allowInstall bool) (*tools.Tool, string) {
	if t, _ := tools.FindFio(ctx, h); t != nil {
		return t, ""
	}
	inst, err := tools.NewInstaller(h, allowInstall)
	if err != nil {
		return nil, "fio is not installed: " + err.Error()
	}
	t, err := inst.Ensure(ctx, tools.KindFio)
	if err != nil {
		return nil, err.Error()
	}
	return t, ""
}

func firstOf(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// summarize is the session's summary with the storage headline.
func summarize(phases []result.Phase) result.Summary {
	s := result.BuildSummary(phases)
	for _, p := range phases {
		if p.Name != result.PhaseStorage || len(p.Figures) == 0 {
			continue
		}
		var f result.StorageFigures
		if err := json.Unmarshal(p.Figures, &f); err == nil {
			s.StorageSummary = result.StorageSummaryOf(f)
		}
	}
	return s
}

// destructiveAllowed refuses a raw device unless --destructive names it
// again, and refuses a mounted one in any case.
func destructiveAllowed(h *host.Host, id *blockdev.Identity, typed string) error {
	name := path.Base(id.Path)
	if typed == "" {
		return cmdutil.Usagef("%s is a raw block device: the test would destroy its data; to do so anyway, type its name again: --destructive %s", id.Path, name)
	}
	if typed != name && "/dev/"+typed != id.Path {
		return cmdutil.Usagef("--destructive %s does not name %s: nothing written", typed, id.Path)
	}
	// The mounts of the node itself, its partitions and what is stacked on
	// it: id.Block describes the storage under a stacked node (a loop
	// device's backing file's disk), whose mounts say nothing about the
	// node.
	node := nodeName(h, id)
	if node == "" {
		return cmdutil.Usagef("%s: cannot tell which block device it is; refusing to write to it", id.Path)
	}
	for _, dev := range append([]string{node}, blockdev.StackedOn(h, node)...) {
		if mp := mountedAt(h, dev); mp != "" {
			if dev == node {
				return cmdutil.Usagef("%s is mounted on %s: refusing to write to it", id.Path, mp)
			}
			return cmdutil.Usagef("%s has %s mounted on %s: refusing to write to it", id.Path, dev, mp)
		}
	}
	return nil
}

// nodeName is the /sys/class/block name of the raw device node id
// resolved: its partition, the stacked layer it is (loop0, dm-0), else its
// whole device.
func nodeName(h *host.Host, id *blockdev.Identity) string {
	cands := []string{id.Partition}
	if len(id.Stack) > 0 {
		cands = append(cands, id.Stack[0].Device)
	}
	for _, n := range append(cands, path.Base(id.Path), id.Name) {
		if n != "" && n != "." && n != "/" && h.Exists("/sys/class/block/"+n+"/dev") {
			return n
		}
	}
	return ""
}

// mountedAt returns a mount point of the block device name ("" when it is
// not mounted), matching its major:minor in the mount table.
func mountedAt(h *host.Host, name string) string {
	dev, err := h.ReadString("/sys/class/block/" + name + "/dev")
	if err != nil {
		return ""
	}
	dev = strings.TrimSpace(dev)
	mounts, err := kernelfile.ReadMountInfo(h, kernelfile.Self)
	if err != nil {
		return ""
	}
	for _, m := range mounts {
		if m.DevNo == dev {
			return m.MountPoint
		}
	}
	return ""
}

// cpufreqState returns the governor per policy and ondemand's io_is_busy:
// false when any ondemand tunable directory (per policy on big.LITTLE
// boards, or the global one) has it off, nil when ondemand is not in use or
// does not say.
func cpufreqState(h *host.Host) ([]string, *bool) {
	var govs []string
	names, _ := h.ReadDirNames("/sys/devices/system/cpu/cpufreq")
	for _, n := range names {
		if !strings.HasPrefix(n, "policy") {
			continue
		}
		g, err := h.ReadString("/sys/devices/system/cpu/cpufreq/" + n + "/scaling_governor")
		if err != nil {
			continue
		}
		govs = append(govs, n+": "+strings.TrimSpace(g))
	}
	env := review.NewEnv(h, time.Now())
	var busy *bool
	for _, d := range review.OndemandDirs(env) {
		v, ok := env.Read(review.AreaCPU, d+"/io_is_busy")
		if !ok {
			continue
		}
		b := v == "1"
		if busy == nil || !b {
			busy = &b
		}
		if !b {
			for i, g := range govs {
				if pol, _, _ := strings.Cut(g, ":"); strings.Contains(d, "/"+pol+"/") {
					govs[i] += " (io_is_busy=0)"
				}
			}
		}
	}
	return govs, busy
}
