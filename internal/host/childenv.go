package host

import (
	"os"
	"strings"
)

// ownSecretEnv are boardbench's own environment variables that may hold
// credentials (a store's URL with its password). No child of boardbench
// gets them: a benchmark, a short command, a `cmd:` power program or the
// user's own `monitor -- COMMAND` has no use for boardbench's store.
var ownSecretEnv = []string{"BOARDBENCH_STORE", "BOARDBENCH_TEST_POSTGRES", "BOARDBENCH_BENCH_STORE"}

// databaseSecretEnv are the user's own database credentials (libpq's
// PGPASSWORD, which boardbench's PostgreSQL store reads too). The user set
// them for their own tools, so the user's own commands keep them
// (`monitor -- pgbench …` needs it); the programs boardbench chooses —
// benchmark tools, short commands — do not get them.
var databaseSecretEnv = []string{"PGPASSWORD"}

// ChildEnv returns env (nil: boardbench's own environment) without the
// variables a child must not inherit: ownSecretEnv always, and
// databaseSecretEnv unless userCommand (the user's own command line). It is
// the one filter of every child's environment: proc.Start and Run use it.
func ChildEnv(env []string, userCommand bool) []string {
	if env == nil {
		env = os.Environ()
	}
	out := make([]string, 0, len(env))
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if contains(ownSecretEnv, name) || (!userCommand && contains(databaseSecretEnv, name)) {
			continue
		}
		out = append(out, kv)
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
