package results

import (
	"context"
	"errors"
	"fmt"

	"boardbench/internal/cmdutil"
	"boardbench/internal/labapi"
	"boardbench/internal/redact"
	"boardbench/internal/store"

	"github.com/spf13/cobra"
)

// pushOptions are results push's flags.
type pushOptions struct {
	to        string
	tokenFile string
	pending   bool
	q         store.Query
	asJSON    bool
}

func newPushCmd(f *cmdutil.Factory) *cobra.Command {
	var o pushOptions
	cmd := &cobra.Command{
		Use:   "push [https://LAB | postgres://... | --to URL] [--pending]",
		Short: "Upload the stored results to a lab, or copy them to another store, idempotently",
		Long: `Push the stored results to a lab or to another store. Results are matched by
id: one already there is left as it is, so pushing again sends only what
is new. --board and --tag choose what to push.

To a lab (https://LAB, or http://LAB on a trusted network): each result is
uploaded to the lab's 'serve --accept-uploads' with the token in
--token-file or $BOARDBENCH_TOKEN (made by 'boardbench lab token add' on
the lab). A result the lab refuses, or cannot take because it cannot be
reached, is kept as pending in this store; --pending tries the pending
ones again (all of them, or those of the target given).

To a store (a postgres:// URL, or another SQLite file): the documents and
tags are copied. A server that refuses connections for now (too many
connections) is tried again with a growing wait, for up to 10 minutes;
a server that cannot be reached keeps the results as pending (the
password is not kept: give the URL again with --pending).`,
		Example: `  boardbench results push https://lab.example.org --token-file /etc/boardbench/token
  BOARDBENCH_TOKEN=... boardbench results push https://lab.example.org --board 'rock 5b'
  boardbench results push --pending --token-file /etc/boardbench/token
  boardbench results push postgres://lab@dbhost/boardbench`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				if o.to != "" {
					return cmdutil.Usagef("give the target once: as an argument or as --to")
				}
				o.to = args[0]
			}
			return runPush(cmd.Context(), f, o)
		},
	}
	cmd.Flags().StringVar(&o.to, "to", "", "the target: a lab's https:// `URL`, a postgres:// URL or a SQLite file")
	cmd.Flags().StringVar(&o.tokenFile, "token-file", "", "read the lab's upload token from `FILE` (else $BOARDBENCH_TOKEN)")
	cmd.Flags().BoolVar(&o.pending, "pending", false, "push the results kept as pending by earlier pushes")
	cmd.Flags().StringVar(&o.q.Board, "board", "", "only results of the board `NAME`")
	cmd.Flags().StringVar(&o.q.Tag, "tag", "", "only results tagged `TAG`")
	cmdutil.AddJSONFlag(cmd, &o.asJSON)
	return cmd
}

func runPush(ctx context.Context, f *cmdutil.Factory, o pushOptions) error {
	switch {
	case o.to == "" && !o.pending:
		return cmdutil.Usagef("results push needs a target: https://LAB, postgres://user@host/db or a SQLite file (or --pending)")
	case o.pending && (o.q.Board != "" || o.q.Tag != ""):
		return cmdutil.Usagef("--pending pushes every pending result; --board and --tag do not apply")
	}
	var client *labapi.Client
	if labapi.IsLab(o.to) {
		c, err := labClient(f, o.to, o.tokenFile)
		if err != nil {
			return err
		}
		client = c
	}
	if o.pending {
		return pushPending(ctx, f, o, client)
	}
	if client != nil {
		st, err := open(ctx, f)
		if err != nil {
			return err
		}
		defer st.Close()
		o.q.Sort, o.q.Desc = "created_at", false
		recs, _, err := st.List(ctx, o.q)
		if err != nil {
			return err
		}
		ids := make([]string, len(recs))
		for i, r := range recs {
			ids[i] = r.ID
		}
		sum, err := labapi.PushStored(ctx, st, client, ids, f.IO.ErrOut)
		return report(f, o, sum, err)
	}
	// The source is read only (it may be on a read-only mount); it is
	// opened for writing only to keep results as pending.
	src, err := openRead(ctx, f)
	if err != nil {
		return err
	}
	defer src.Close()
	o.q.Sort, o.q.Desc = "created_at", false
	recs, _, err := src.List(ctx, o.q)
	if err != nil {
		return err
	}
	sum, err := pushToStore(ctx, src, func(ctx context.Context) (store.Store, error) { return open(ctx, f) }, o.to, recs)
	return report(f, o, sum, err)
}

// labClient checks the lab's URL and reads the token: bad input (exit 2)
// before anything is sent.
func labClient(f *cmdutil.Factory, target, tokenFile string) (*labapi.Client, error) {
	c, warn, err := labapi.NewClient(target, tokenFile)
	if err != nil {
		return nil, cmdutil.Usagef("%v", err)
	}
	if warn != "" {
		fmt.Fprintln(f.IO.ErrOut, "boardbench: warning: "+warn)
	}
	return c, nil
}

// pushToStore copies recs from src to the store to names, trying a busy
// PostgreSQL server again (store.DefaultBackoff); what cannot be pushed
// is kept as pending, in the store keepIn opens (nil: src), under the
// target's URL without its password.
func pushToStore(ctx context.Context, src store.Store, keepIn func(context.Context) (store.Store, error), to string, recs []store.Record) (labapi.Summary, error) {
	target := redact.ConnString(to)
	sum := labapi.Summary{Target: target}
	dst, err := store.OpenRetrying(ctx, to, store.DefaultBackoff)
	var ps PushSummary
	if err == nil {
		ps, err = pushRecords(ctx, src, dst, recs)
		sum.Pushed, sum.Present = ps.Pushed, ps.Present
	}
	if err == nil {
		dst.Close()
		if keepIn == nil {
			for _, r := range recs {
				_ = store.RemovePending(ctx, src, r.ID, target)
			}
		}
		return sum, nil
	}
	if dst != nil {
		dst.Close()
	}
	var usage *cmdutil.UsageError
	if errors.As(err, &usage) || cmdutil.ExitCode(err) == 2 {
		return sum, err
	}
	// Those pushed are the first Pushed+Present (in order); the rest wait.
	kctx := context.WithoutCancel(ctx)
	keep := src
	if keepIn != nil {
		k, kerr := keepIn(kctx)
		if kerr != nil {
			return sum, fmt.Errorf("%v; the results cannot be kept as pending: %v", err, kerr)
		}
		defer k.Close()
		keep = k
	}
	for _, r := range recs[min(len(recs), ps.Pushed+ps.Present):] {
		if perr := store.AddPending(kctx, keep, r.ID, target, err.Error()); perr != nil {
			if errors.Is(perr, store.ErrNoLab) {
				return sum, err
			}
			return sum, fmt.Errorf("%v; keeping the results as pending: %v", err, perr)
		}
		sum.Pending++
	}
	if sum.Pending == 0 {
		return sum, err
	}
	return sum, fmt.Errorf("%d result(s) not pushed to %s, %w in the store ('boardbench results push --pending %s' retries them): %v", sum.Pending, target, labapi.ErrPending, "URL", err)
}

// pushPending pushes the pending results: those of the target given, or
// every target's (a store's URL must be given again: its password is not
// kept).
func pushPending(ctx context.Context, f *cmdutil.Factory, o pushOptions, client *labapi.Client) error {
	st, err := open(ctx, f)
	if err != nil {
		return err
	}
	defer st.Close()
	want := ""
	switch {
	case client != nil:
		want = labapi.Target(client.Base)
	case o.to != "":
		want = redact.ConnString(o.to)
	}
	pend, err := store.PendingPushes(ctx, st, want)
	if err != nil {
		return err
	}
	if len(pend) == 0 {
		fmt.Fprintf(f.IO.ErrOut, "boardbench: no pending results in %s\n", whereOf(st))
		return report(f, o, labapi.Summary{Target: want}, nil)
	}
	var order []string
	byTarget := map[string][]string{}
	for _, p := range pend {
		if _, ok := byTarget[p.Target]; !ok {
			order = append(order, p.Target)
		}
		byTarget[p.Target] = append(byTarget[p.Target], p.ID)
	}
	var sums []labapi.Summary
	var firstErr error
	for _, target := range order {
		ids := byTarget[target]
		var sum labapi.Summary
		var err error
		switch {
		case labapi.IsLab(target):
			c := client
			if c == nil {
				if c, err = labClient(f, target, o.tokenFile); err != nil {
					return err
				}
			}
			sum, err = labapi.PushStored(ctx, st, c, ids, f.IO.ErrOut)
		case o.to != "":
			recs := make([]store.Record, 0, len(ids))
			for _, id := range ids {
				r, rerr := st.Record(ctx, id)
				if errors.Is(rerr, store.ErrNotFound) {
					_ = store.RemovePending(ctx, st, id, target)
					continue
				} else if rerr != nil {
					return rerr
				}
				recs = append(recs, r)
			}
			sum, err = pushToStore(ctx, st, nil, o.to, recs)
		default:
			fmt.Fprintf(f.IO.ErrOut, "boardbench: %d result(s) pending for %s: give its URL with the password to push them (results push --pending URL)\n", len(ids), target)
			sum = labapi.Summary{Target: target, Pending: len(ids)}
			err = fmt.Errorf("%d result(s) pending for %s not tried: %w", len(ids), target, labapi.ErrPending)
		}
		sums = append(sums, sum)
		if err != nil && firstErr == nil {
			firstErr = err
		}
	}
	if o.asJSON {
		if jerr := f.WriteJSON(sums); firstErr == nil {
			firstErr = jerr
		}
		return firstErr
	}
	for _, s := range sums {
		printSummary(f, s)
	}
	return firstErr
}

func report(f *cmdutil.Factory, o pushOptions, sum labapi.Summary, err error) error {
	if o.asJSON {
		if jerr := f.WriteJSON(sum); err == nil {
			err = jerr
		}
		return err
	}
	printSummary(f, sum)
	return err
}

func printSummary(f *cmdutil.Factory, s labapi.Summary) {
	fmt.Fprintf(f.IO.Out, "pushed %d new result(s) to %s; %d were already there", s.Pushed, s.Target, s.Present)
	if s.Pending > 0 {
		fmt.Fprintf(f.IO.Out, "; %d kept as pending", s.Pending)
	}
	fmt.Fprintln(f.IO.Out)
}
