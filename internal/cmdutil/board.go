package cmdutil

import "strings"

// FullBuild is the build command that gives the full binary, with the
// lab's parts a board build leaves out.
const FullBuild = "go build -o boardbench ./cmd/boardbench"

// LabOnly is the refusal of a board build (go build -tags board) asked for
// one of the lab's parts (serve, charts, report --html): one line naming
// the command to run on a lab machine instead, as a UsageError (exit 2).
// what names the part, cmdline the command (words) to run there.
func LabOnly(what string, cmdline ...string) error {
	return Usagef("%s is not in this board build of boardbench; on a lab machine with the full build (%s) run: %s",
		what, FullBuild, strings.Join(cmdline, " "))
}
