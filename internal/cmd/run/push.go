package run

import (
	"context"
	"fmt"

	"boardbench/internal/cmdstore"
	"boardbench/internal/cmdutil"
	"boardbench/internal/labapi"
	"boardbench/internal/redact"
	"boardbench/internal/regfile"
	"boardbench/internal/result"
	"boardbench/internal/session"
)

// pushClient checks --push and --token-file before anything is measured
// (bad input: exit 2); nil without --push.
func pushClient(f *cmdutil.Factory, push, tokenFile string) (*labapi.Client, error) {
	if push == "" {
		if tokenFile != "" {
			return nil, cmdutil.Usagef("--token-file goes with --push")
		}
		return nil, nil
	}
	if !labapi.IsLab(push) {
		return nil, cmdutil.Usagef("--push %q: want a lab's https:// URL (push to a store with 'boardbench results push' after the run)", redact.ConnString(push))
	}
	c, warn, err := labapi.NewClient(push, tokenFile)
	if err != nil {
		return nil, cmdutil.Usagef("--push: %v", err)
	}
	if warn != "" {
		fmt.Fprintln(f.IO.ErrOut, "boardbench: warning: "+warn)
	}
	return c, nil
}

// pushAfterRun uploads the run's result: from the store, where one that
// cannot be pushed is kept as pending (labapi.PushStored); without a
// store (--no-store), from its file. A failure is a warning: the run's
// own exit status stands.
func pushAfterRun(ctx context.Context, f *cmdutil.Factory, c *labapi.Client, out *session.Outcome) {
	warn := func(format string, args ...any) {
		fmt.Fprintf(f.IO.ErrOut, "boardbench: warning: --push: "+format+"\n", args...)
	}
	if out.StoreID != "" {
		st, err := cmdstore.Open(context.WithoutCancel(ctx), f.Store)
		if err != nil {
			warn("%v", err)
			return
		}
		defer st.Close()
		if _, err := labapi.PushStored(ctx, st, c, []string{out.StoreID}, f.IO.ErrOut); err != nil {
			warn("%v", err)
		}
		return
	}
	if out.Path == "" {
		warn("the result was written nowhere; nothing to push")
		return
	}
	doc, err := regfile.Read(out.Path, result.MaxFileBytes, regfile.Follow)
	if err == nil {
		var ans labapi.UploadAnswer
		if ans, err = c.Upload(ctx, doc); err == nil {
			fmt.Fprintf(f.IO.ErrOut, "boardbench: pushed %s: %s\n", ans.ID, c.Link(ans.URL))
			return
		}
	}
	warn("%v; not kept as pending (no results store): push %s later with 'boardbench import' and 'boardbench results push'", err, out.Path)
}
