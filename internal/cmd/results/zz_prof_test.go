package results

import (
	"io"
	"os"
	"testing"

	"boardbench/internal/cmdutil"
	"boardbench/internal/iostreams"
)

func BenchmarkZZList(b *testing.B) {
	path := os.Getenv("ZZ_STORE")
	for b.Loop() {
		for _, args := range [][]string{{"list"}, {"list", "--json"}} {
			ios, _, _ := iostreams.Test()
			ios.Out = io.Discard
			f := &cmdutil.Factory{IO: ios, Store: cmdutil.StoreOptions{Spec: path}}
			cmd := NewCmd(f)
			cmd.SetArgs(args)
			if err := cmd.Execute(); err != nil {
				b.Fatal(err)
			}
		}
	}
}
