// Package storage implements `boardbench storage [PATH|DEVICE]`: what the
// storage behind a path is (device, bus, SD/eMMC registers and bus mode,
// filesystem options) and how fast it is, as the iozone table users know,
// measured natively with O_DIRECT in a temporary file, with findings that
// explain slow figures.
package storage

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"boardbench/internal/benchtool/fio"
	"boardbench/internal/blockdev"
	"boardbench/internal/check"
	"boardbench/internal/cmdutil"
	"boardbench/internal/finding"
	"boardbench/internal/host"
	machine "boardbench/internal/inventory"
	"boardbench/internal/iostreams"
	"boardbench/internal/kernelfile"
	"boardbench/internal/power"
	"boardbench/internal/report/runtext"
	"boardbench/internal/result"
	"boardbench/internal/review"
	"boardbench/internal/session"
	"boardbench/internal/storagebench"
	"boardbench/internal/tempsweep"
	"boardbench/internal/textfmt"
	"boardbench/internal/tools"
	"boardbench/internal/tune"

	"github.com/spf13/cobra"
)

type options struct {
	output, size, destructive                   string
	asJSON, short, withFio, noRedact, noInstall bool
	cellTime                                    time.Duration
	power                                       power.Options
	clockMHz                                    int
}

// NewCmd returns the storage command.
func NewCmd(f *cmdutil.Factory) *cobra.Command {
	var opts options
	cmd := &cobra.Command{
		Use:   "storage [PATH|DEVICE]",
		Short: "Describe and measure the storage behind a path (iozone-style table, findings)",
		Long: `Say what storage holds PATH (default: the current directory): its mount and
filesystem options, the partition and whole device underneath through bind
mounts, overlayfs, loop, device-mapper (dm-crypt, LVM) and md, the kind and bus
(SD, eMMC, NVMe, SATA, USB with its bridge and UAS or usb-storage, virtio), the
SD/eMMC registers (CID, CSD, the classes an SD card claims) and bus mode, the
I/O scheduler, read-ahead and TRIM.

Then measure it natively with O_DIRECT in temporary files: for record sizes
4k, 16k, 512k, 1024k and 16384k, write, rewrite, read, reread, random read and
random write, in KiB/s (1 KiB = 1024 bytes) like iozone -e -I -a -s 100M.
The read file (--size, default 100M) is written whole first; read, reread and
the random cells use all of it (each row's read goes on where the previous
one stopped), write and rewrite a new write file per record size. Each cell
stops after --cell-time or a quarter of the read file, but not before 4
records on the byte budget, so a slow card gives its figures in a fraction of
iozone's time. --fio repeats the same cells with fio. The temporary files are
invisible (unlinked) from the start and gone however boardbench ends.

A raw block device is written only with --destructive NAME, NAME being the
device's name typed a second time: its data is destroyed.`,
		Example: `  boardbench storage
  boardbench storage /mnt/usb --fio
  boardbench storage --short --json > storage.json
  boardbench storage /srv -o storage.json && boardbench report storage.json
  boardbench storage /dev/sda --destructive sda   # DESTROYS the data on sda`,
		Args: cmdutil.MaximumArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			p := "."
			if len(args) == 1 {
				p = args[0]
			}
			return run(cmd.Context(), f, p, opts)
		},
	}
	cmdutil.AddJSONFlag(cmd, &opts.asJSON)
	power.AddFlags(cmd, &opts.power)
	fl := cmd.Flags()
	fl.StringVarP(&opts.output, "output", "o", "", "also write the result (with the monitor's evidence) to `FILE`, for boardbench report")
	fl.StringVar(&opts.size, "size", "", "size of the read file (`SIZE`, at least 64M, e.g. 256M; default 100M, less when space is short)")
	fl.DurationVar(&opts.cellTime, "cell-time", storagebench.DefaultCellLimit, "time limit of each cell of the table")
	fl.BoolVar(&opts.short, "short", false, "a quick run: 64 MiB read file, 0.2 s per cell")
	fl.BoolVar(&opts.withFio, "fio", false, "also run fio with the same patterns (installed when missing, as root)")
	fl.BoolVar(&opts.noInstall, "no-install", false, "never install fio; skip the fio step when it is missing")
	fl.BoolVar(&opts.noRedact, "no-redact", false, "show serial numbers (CID serial, disk serial)")
	fl.StringVar(&opts.destructive, "destructive", "", "write to the raw device `NAME` (typed again), destroying its data")
	fl.IntVar(&opts.clockMHz, "clock", 0, "pin every CPU's clock at `MHZ` MHz for the run (cpufreq, root; restored at the end)")
	return cmd
}

var errNotLive = errors.New("storage measures the machine it runs on; not a recorded root")

// parseSize reads 100M, 1G, 65536K or a number of bytes.
func parseSize(s string) (int64, error) {
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

func run(ctx context.Context, f *cmdutil.Factory, p string, opts options) error {
	if ctx == nil {
		ctx = context.Background()
	}
	h, err := f.LiveHost(errNotLive)
	if err != nil {
		return err
	}
	if err := tune.CheckClock(h, "--clock", opts.clockMHz, f.IsRoot()); err != nil {
		return cmdutil.Refusef("%v", err)
	}
	want := int64(0)
	if opts.size != "" {
		if want, err = parseSize(opts.size); err != nil {
			return cmdutil.Usagef("--size: %v", err)
		}
	}
	cellLimit := opts.cellTime
	if opts.short {
		want, cellLimit = storagebench.MinFileBytes, 200*time.Millisecond
	}
	if cellLimit <= 0 || cellLimit > time.Hour {
		return cmdutil.Usagef("--cell-time: %s is out of range", cellLimit)
	}
	if err := refuseSpecialFile(p); err != nil {
		return err
	}
	id, err := blockdev.Resolve(ctx, h, p, blockdev.Options{Redact: !opts.noRedact})
	if err != nil {
		if errors.Is(err, blockdev.ErrNotFound) {
			return cmdutil.Usagef("%v", err)
		}
		return err
	}
	if !id.Raw && id.Mount != nil && blockdev.PseudoFS(id.Mount.FSType) {
		return cmdutil.Usagef("%s is on %s (%s), a kernel pseudo filesystem: not storage", p, id.Mount.MountPoint, id.Mount.FSType)
	}
	cfg := storagebench.Config{CellLimit: cellLimit}
	if id.Raw {
		if err := destructiveAllowed(h, id, opts.destructive); err != nil {
			return err
		}
		cfg.Device = id.Path
		cfg.FileBytes = storagebench.DefaultFileBytes
		if want > 0 {
			cfg.FileBytes = want
		}
		if cfg.FileBytes < storagebench.MinFileBytes {
			return cmdutil.Usagef("--size %s is below the smallest test region, %s", opts.size, textfmt.Bytes(storagebench.MinFileBytes))
		}
		if need := cfg.FileBytes + storagebench.WriteFileBytes(cfg.FileBytes); id.Block != nil && id.Block.SizeBytes != nil && *id.Block.SizeBytes < need {
			return cmdutil.Usagef("%s holds %s, less than the %s the test writes", id.Path, textfmt.Bytes(*id.Block.SizeBytes), textfmt.Bytes(need))
		}
	} else {
		if opts.destructive != "" {
			return cmdutil.Usagef("--destructive is for a raw block device; %s is not one", p)
		}
		dir := id.Path
		if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
			dir = filepath.Dir(dir)
		}
		if id.Filesystem != nil && id.Filesystem.ReadOnly {
			return fmt.Errorf("%s is on a read-only filesystem (%s): nothing can be measured there", dir, id.Mount.MountPoint)
		}
		free, err := storagebench.FreeBytes(dir)
		if err != nil {
			return err
		}
		if cfg.FileBytes, err = storagebench.SizeFor(want, free); err != nil {
			if opts.size != "" {
				return cmdutil.Usagef("--size %s: %s: %v", opts.size, dir, err)
			}
			return fmt.Errorf("%s: %w", dir, err)
		}
		cfg.Dir = dir
		// fio's files of a run killed with SIGKILL (64 MiB each, hidden).
		swept := tempsweep.Sweep(dir, tempsweep.Options{Patterns: fio.TempNames, UID: -1})
		if line := tempsweep.Line(dir, swept); line != "" {
			fmt.Fprintf(f.IO.ErrOut, "boardbench: %s\n", line)
		}
	}
	governors, ioIsBusy := cpufreqState(h)
	fioSkip, fioTool := "", (*tools.Tool)(nil)
	switch {
	case !opts.withFio:
		fioSkip = "not asked for (--fio)"
	case cfg.Device != "":
		fioSkip = "not run on a raw device"
	default:
		fioTool, fioSkip = findFio(ctx, h, !opts.noInstall)
	}

	info := machine.Collect(h, machine.Options{Redact: !opts.noRedact})
	status := f.IO.NewStatus(iostreams.StatusOptions{Prefix: "boardbench storage"})
	scfg := session.Config{Host: h, Info: info, Command: "storage", Path: opts.output, Warn: f.IO.ErrOut, Keep: f.Keep,
		Power: opts.power, Status: status,
		Print: session.Printer{Out: f.IO.Out, JSON: opts.asJSON, TextHasVerdict: true,
			Text: func(w io.Writer, r *result.Result) { runtext.Render(w, r, f.IO.ColorEnabled()) }},
		Options: map[string]any{"path": p, "size_bytes": cfg.FileBytes, "cell_time_s": cellLimit.Seconds(), "short": opts.short,
			"fio": opts.withFio, "no_install": opts.noInstall, "destructive": opts.destructive != ""},
		Summarize: summarize,
		Findings: func(r *result.Result) []finding.Finding {
			return check.StorageFindings(r)
		}}
	cells := len(storagebench.DefaultRecordsKiB) * len(storagebench.Tests)
	done := 0
	cfg.Progress = func(rec int, test string) {
		if test == "fill" {
			status.Show(fmt.Sprintf("writing the %s read file", textfmt.Bytes(cfg.FileBytes)))
			return
		}
		done++
		status.Show(fmt.Sprintf("%d/%d %d KiB %s", done, cells, rec, strings.ReplaceAll(test, "_", " ")))
	}
	var measured *result.StorageFigures
	// fioErr is why fio failed: the command must not succeed silently.
	var fioErr error
	steps := []session.Step{{Name: result.PhaseStorage, Title: "Native O_DIRECT storage test (iozone-style table) in " + firstOf(cfg.Dir, cfg.Device),
		Kind: "storage", Estimate: time.Duration(cells) * cellLimit,
		Run: func(ctx context.Context, ph *result.Phase) error {
			irqBefore, irqOK := readInterrupts(h)
			figs, err := storagebench.Run(ctx, cfg)
			figs.Governors, figs.IOIsBusy = governors, ioIsBusy
			if irqAfter, ok := readInterrupts(h); ok && irqOK {
				figs.IRQ, figs.IRQCPUs = busiestIRQ(irqBefore, irqAfter)
			}
			measured = &figs
			if ferr := ph.SetFigures(figs); ferr != nil {
				return ferr
			}
			return err
		}}}
	fioStep := session.Step{Name: result.PhaseStorageFio, Title: "fio repeating the same cells", Kind: "storage", Estimate: 5 * cellLimit, Skip: fioSkip}
	if fioSkip == "" {
		fioStep.Run = func(ctx context.Context, ph *result.Phase) error {
			if measured == nil {
				return errors.New("the storage test did not run: nothing for fio to repeat")
			}
			jobs, err := fio.Plan(*measured)
			if err != nil {
				return err
			}
			figs, raw, err := fio.Run(ctx, fio.Config{Binary: fioTool.Command(), Dir: cfg.Dir, Jobs: jobs})
			ph.RawOutput = string(raw)
			if err != nil {
				fioErr = err
				return err
			}
			return ph.SetFigures(figs)
		}
	}
	steps = append(steps, fioStep)
	_, err = session.Measure(ctx, scfg, session.Plan{Prepare: func(ctx context.Context, s *session.Session) ([]session.Step, error) {
		s.Result().Device = id.ToResult()
		if err := s.PinClock(ctx, opts.clockMHz); err != nil {
			return nil, err
		}
		return steps, nil
	}})
	if err != nil {
		return err
	}
	return fioFailed(fioErr)
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
