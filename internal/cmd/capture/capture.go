// Package capture implements `boardbench capture`: pack everything `info`
// reads into an archive that `info --root` reads back.
package capture

import (
	"encoding/json"
	"fmt"
	"io"

	"boardbench/internal/capture"
	"boardbench/internal/cmdutil"
	"boardbench/internal/host"
	"boardbench/internal/inventory"
	"boardbench/internal/outfile"

	"github.com/spf13/cobra"
)

// NewCmd returns the capture command.
func NewCmd(f *cmdutil.Factory) *cobra.Command {
	var root, output string
	var noRedact bool
	cmd := &cobra.Command{
		Use:   "capture -o FILE.tar.gz",
		Short: "Pack the files and command outputs that describe this machine into a fixture archive",
		Long: `Record every file and command output that "boardbench info" reads (plus the
kernel log where readable) into a tar.gz archive. Unpacked, the archive is a
root directory that "boardbench info --root DIR" describes as the same machine.

Serial numbers and MAC addresses are redacted unless --no-redact is given.

The archive is written atomically (a temporary file in the same directory,
synced, then renamed). An existing FILE must be a regular file: a device,
FIFO or directory is refused with exit status 2. "-o -" writes the archive
to standard output.`,
		Example: `  boardbench capture -o rock5b.tar.gz
  mkdir rock5b && tar -xzf rock5b.tar.gz -C rock5b && boardbench info --root rock5b
  boardbench capture -o - | ssh me@desk 'cat > board.tar.gz'`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if output == "" {
				return cmdutil.Usagef("capture needs -o FILE.tar.gz (or -o - for standard output)")
			}
			if err := outfile.Check(output); err != nil {
				return err
			}
			rec := host.NewRecorder()
			h, err := f.NewHost(root, host.WithRecorder(rec))
			if err != nil {
				return err
			}
			in := inventory.Collect(h, inventory.Options{Redact: !noRedact})
			dmesgNote := "kernel log included"
			if _, err := h.Run(cmd.Context(), "dmesg"); err != nil {
				dmesgNote = "kernel log not included: " + err.Error()
			}
			if data, err := json.MarshalIndent(in, "", "  "); err == nil {
				rec.AddCommandOutput("boardbench_info_--json", append(data, '\n'))
			}
			snap := rec.Snapshot()
			write := func(w io.Writer) error {
				return capture.Write(w, snap, capture.Options{Redact: !noRedact})
			}
			if outfile.IsStdout(output) {
				if err := write(f.IO.RawOut()); err != nil {
					return err
				}
				if err := f.IO.OutErr(); err != nil {
					return err
				}
			} else if err := outfile.Write(output, write); err != nil {
				return err
			}
			fmt.Fprintf(f.IO.ErrOut, "boardbench: wrote %s (%d files, %d links, %d command outputs; %s)\n",
				name(output), len(snap.Files), len(snap.Links), len(snap.Commands), dmesgNote)
			return nil
		},
	}
	cmdutil.AddRootFlag(cmd, &root)
	cmd.Flags().StringVarP(&output, "output", "o", "", "write the archive to `FILE` (tar.gz; - for standard output)")
	cmd.Flags().BoolVar(&noRedact, "no-redact", false, "keep MAC addresses and serial numbers")
	return cmd
}

// name is how the summary line names the output.
func name(output string) string {
	if outfile.IsStdout(output) {
		return "the archive to standard output"
	}
	return output
}
