// Package lab implements `boardbench lab`: what a lab machine's operator
// manages beside `serve` — today the upload tokens (lab token
// add|list|revoke), kept hashed in the results store (docs/lab.md).
package lab

import (
	"errors"
	"fmt"
	"time"

	"boardbench/internal/cmdstore"
	"boardbench/internal/cmdutil"
	"boardbench/internal/store"
	"boardbench/internal/textfmt"

	"github.com/spf13/cobra"
)

// NewCmd returns the lab command.
func NewCmd(f *cmdutil.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "lab",
		Short: "Manage a lab's results store: upload tokens (lab machines)",
		Args:  cobra.NoArgs,
	}
	cmd.AddCommand(newTokenCmd(f))
	return cmd
}

func newTokenCmd(f *cmdutil.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "token",
		Short: "Make, list and revoke the tokens boards upload results with",
		Long: `Upload tokens let boards push results to 'serve --accept-uploads'
(results push https://LAB, run --push https://LAB). A token is shown once,
when it is made; the store keeps only its SHA-256. Its name is recorded
with every result uploaded with it. A revoked token is refused (403); its
name is never given to another token.`,
		Example: `  boardbench --store postgres://lab@db/boardbench lab token add rock5b-desk
  boardbench lab token list
  boardbench lab token revoke rock5b-desk`,
		Args: cobra.NoArgs,
	}
	cmd.AddCommand(newAddCmd(f), newListCmd(f), newRevokeCmd(f))
	return cmd
}

func newAddCmd(f *cmdutil.Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "add NAME",
		Short: "Make a token named NAME and print it (once)",
		Args:  cmdutil.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := store.CheckTokenName(args[0]); err != nil {
				return cmdutil.Usagef("%v", err)
			}
			st, err := cmdstore.Create(cmd.Context(), f.Store)
			if err != nil {
				return err
			}
			defer st.Close()
			secret, err := store.AddToken(cmd.Context(), st, args[0])
			if errors.Is(err, store.ErrTokenExists) {
				return cmdutil.Usagef("%v", err)
			} else if err != nil {
				return err
			}
			fmt.Fprintln(f.IO.Out, secret)
			fmt.Fprintf(f.IO.ErrOut, "boardbench: token %q made in %s; it is shown only now: keep it in a file of mode 600 on the board (results push --token-file FILE)\n", args[0], store.Where(st))
			return nil
		},
	}
}

func newListCmd(f *cmdutil.Factory) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the tokens (never their secrets) with their uploads",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			st, err := cmdstore.Open(cmd.Context(), f.Store)
			if err != nil {
				return err
			}
			defer st.Close()
			toks, err := store.Tokens(cmd.Context(), st)
			if err != nil {
				return err
			}
			if asJSON {
				if toks == nil {
					toks = []store.Token{}
				}
				return f.WriteJSON(toks)
			}
			if len(toks) == 0 {
				fmt.Fprintf(f.IO.ErrOut, "boardbench: no tokens in %s ('boardbench lab token add NAME' makes one)\n", store.Where(st))
				return nil
			}
			t := textfmt.NewTable("NAME", "MADE", "STATE", "UPLOADS", "LAST UPLOAD")
			for _, k := range toks {
				state := "in use"
				if k.Revoked() {
					state = "revoked " + when(k.RevokedAt)
				}
				last := "none"
				if !k.LastUpload.IsZero() {
					last = when(k.LastUpload)
				}
				t.Row(k.Name, when(k.CreatedAt), state, fmt.Sprint(k.Uploads), last)
			}
			t.Write(f.IO.Out)
			return nil
		},
	}
	cmdutil.AddJSONFlag(cmd, &asJSON)
	return cmd
}

func when(t time.Time) string { return t.Local().Format("2006-01-02 15:04") }

func newRevokeCmd(f *cmdutil.Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "revoke NAME",
		Short: "Revoke the token named NAME: its uploads are refused from now on",
		Args:  cmdutil.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, err := cmdstore.Open(cmd.Context(), f.Store)
			if err != nil {
				return err
			}
			defer st.Close()
			err = store.RevokeToken(cmd.Context(), st, args[0])
			if errors.Is(err, store.ErrTokenUnknown) {
				return cmdutil.Usagef("%v in %s", err, store.Where(st))
			} else if err != nil {
				return err
			}
			fmt.Fprintf(f.IO.ErrOut, "boardbench: token %q revoked; the results it uploaded stay\n", args[0])
			return nil
		},
	}
}
