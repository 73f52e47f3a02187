//go:build board

package buildinfo

// Board says whether this is a board build (go build -tags board): one
// without the lab's parts (serve, charts, report --html). See
// docs/architecture.md, "Board builds".
const Board = true
