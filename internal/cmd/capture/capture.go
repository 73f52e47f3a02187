// Package capture implements `boardbench capture`: pack everything `info`
// reads into an archive that `info --root` reads back.
package capture

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"boardbench/internal/capture"
	"boardbench/internal/cmdutil"
	"boardbench/internal/host"
	"boardbench/internal/inventory"

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

Serial numbers and MAC addresses are redacted unless --no-redact is given.`,
		Example: `  boardbench capture -o rock5b.tar.gz
  mkdir rock5b && tar -xzf rock5b.tar.gz -C rock5b && boardbench info --root rock5b`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if output == "" {
				return cmdutil.Usagef("capture needs -o FILE.tar.gz")
			}
			rec := host.NewRecorder()
			h, err := f.NewHost(root, host.WithRecorder(rec))
			if err != nil {
				return err
			}
			in := inventory.Collect(h, inventory.Options{Redact: !noRedact})
			dmesgNote := "kernel log included"
			if _, err := h.Run(context.Background(), "dmesg"); err != nil {
				dmesgNote = "kernel log not included: " + err.Error()
			}
			if data, err := json.MarshalIndent(in, "", "  "); err == nil {
				rec.AddCommandOutput("boardbench_info_--json", append(data, '\n'))
			}
			snap := rec.Snapshot()
			if err := writeAtomically(output, func(w *os.File) error {
				return capture.Write(w, snap, capture.Options{Redact: !noRedact})
			}); err != nil {
				return err
			}
			fmt.Fprintf(f.IO.ErrOut, "boardbench: wrote %s (%d files, %d links, %d command outputs; %s)\n",
				output, len(snap.Files), len(snap.Links), len(snap.Commands), dmesgNote)
			return nil
		},
	}
	cmdutil.AddRootFlag(cmd, &root)
	cmd.Flags().StringVarP(&output, "output", "o", "", "write the archive to `FILE` (tar.gz)")
	cmd.Flags().BoolVar(&noRedact, "no-redact", false, "keep MAC addresses and serial numbers")
	return cmd
}

// writeAtomically writes through a temporary file in the same directory and
// renames it into place, so a failure never leaves a truncated archive.
func writeAtomically(name string, write func(*os.File) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(name), ".boardbench-capture-*")
	if err != nil {
		return fmt.Errorf("cannot write %s: %v", name, err)
	}
	defer os.Remove(tmp.Name())
	if err := write(tmp); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), name)
}
