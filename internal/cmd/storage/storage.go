// Package storage implements `boardbench storage [PATH|DEVICE]...`: the
// command's flags and its run function; the plan of steps is
// internal/storagerun's.
package storage

import (
	"context"
	"io"

	"boardbench/internal/cmdutil"
	"boardbench/internal/iostreams"
	"boardbench/internal/power"
	"boardbench/internal/report/runtext"
	"boardbench/internal/result"
	"boardbench/internal/session"
	"boardbench/internal/storagebench"
	"boardbench/internal/storagerun"
	"boardbench/internal/tune"

	"github.com/spf13/cobra"
)

// Options are the command's flags and arguments.
type Options struct {
	IO      *iostreams.IOStreams
	Factory *cmdutil.Factory
	// Ctx is the command's context.
	Ctx    context.Context
	AsJSON bool
	storagerun.Options
}

// NewCmd returns the storage command; runF, when not nil, receives the
// options instead of run (tests).
func NewCmd(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{IO: f.IO, Factory: f}
	cmd := &cobra.Command{
		Use:   "storage [PATH|DEVICE] [PATH...]",
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
iozone's time. Then the latency cells: 4 KiB random reads and writes with 1
and 32 requests in flight (Linux native AIO), with the p50, p99 and p99.9
completion latency. --fio repeats the same cells with fio. The temporary
files are invisible (unlinked) from the start and gone however boardbench
ends.

Several paths (on different devices) are measured at the same time, each
cell starting on all of them together: each device's table and their sum
show a shared bus (USB hub, PCIe switch).

--sustained SIZE only writes sequentially until the rate falls (4 windows
in a row below 60% of the median of the earlier ones: a full SLC cache) or
SIZE is written, and reports the cache size and the rate after it; SIZE must
fit in the free space less a margin. --verify-capacity only fills the free
space with position-tagged blocks through the file system, reads them back
and reports how much really holds data (fake cards).

An NVMe drive's power states and APST limit are shown with the device.

A raw block device is written only with --destructive NAME, NAME being the
device's name typed a second time: its data is destroyed.`,
		Example: `  boardbench storage
  boardbench storage /mnt/usb --fio
  boardbench storage --short --json > storage.json
  boardbench storage /srv -o storage.json && boardbench report storage.json
  boardbench storage /mnt/usb1 /mnt/usb2          # both at once, and the sum
  boardbench storage --sustained 8G /mnt/sd
  boardbench storage --verify-capacity /media/card
  boardbench storage /dev/sda --destructive sda   # DESTROYS the data on sda`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Paths, opts.Ctx = args, cmd.Context()
			if runF != nil {
				return runF(opts)
			}
			return run(opts)
		},
	}
	cmdutil.AddJSONFlag(cmd, &opts.AsJSON)
	power.AddFlags(cmd, &opts.Power)
	fl := cmd.Flags()
	fl.StringVarP(&opts.Output, "output", "o", "", "also write the result (with the monitor's evidence) to `FILE`, for boardbench report")
	fl.StringVar(&opts.SizeText, "size", "", "size of the read file (`SIZE`, at least 64M, e.g. 256M; default 100M, less when space is short)")
	fl.DurationVar(&opts.CellLimit, "cell-time", storagebench.DefaultCellLimit, "time limit of each cell of the table")
	fl.BoolVar(&opts.Short, "short", false, "a quick run: 64 MiB read file, 0.2 s per cell")
	fl.BoolVar(&opts.Fio, "fio", false, "also run fio with the same patterns (installed when missing, as root)")
	fl.BoolVar(&opts.NoInstall, "no-install", false, "never install fio; skip the fio step when it is missing")
	fl.BoolVar(&opts.NoRedact, "no-redact", false, "show serial numbers (CID serial, disk serial)")
	fl.StringVar(&opts.Destructive, "destructive", "", "write to the raw device `NAME` (typed again), destroying its data")
	fl.StringVar(&opts.SustainedText, "sustained", "", "only write sequentially until the rate falls (a full write cache) or `SIZE` is written; report the cache size and the rate after it")
	fl.IntVar(&opts.ClockMHz, "clock", 0, "pin every CPU's clock at `MHZ` MHz for the run (cpufreq, root; restored at the end)")
	fl.BoolVar(&opts.VerifyCapacity, "verify-capacity", false, "only fill the free space with position-tagged blocks, read them back and report the real capacity (fake cards)")
	return cmd
}

const errNotLive = sentinel("storage measures the machine it runs on; not a recorded root")

// sentinel is an error value of this package that callers match with
// errors.Is; being a string constant, it costs nothing at start-up.
type sentinel string

func (e sentinel) Error() string { return string(e) }

func run(opts *Options) error {
	ctx := opts.Ctx
	if ctx == nil {
		ctx = context.Background()
	}
	h, err := opts.Factory.LiveHost(errNotLive)
	if err != nil {
		return err
	}
	pins, err := tune.CheckClock(h, "--clock", opts.ClockMHz, opts.Factory.IsRoot())
	if err != nil {
		return cmdutil.Refusef("%v", err)
	}
	ios := opts.IO
	env := storagerun.Env{Host: h, Out: ios.Out, ErrOut: ios.ErrOut, Keep: opts.Factory.Keep, Clock: pins,
		Status: ios.NewStatus(iostreams.StatusOptions{Prefix: "boardbench storage"}),
		Print: session.Printer{Out: ios.Out, JSON: opts.AsJSON, TextHasVerdict: true,
			Text: func(w io.Writer, r *result.Result) { runtext.Render(w, r, ios.ColorEnabled()) }}}
	return storagerun.Run(ctx, env, opts.Options)
}
