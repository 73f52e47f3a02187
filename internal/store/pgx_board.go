//go:build board

package store

// noPostgres is why a board build (go build -tags board) opens no
// PostgreSQL store: the driver is left out to keep the binary small. It
// exits 2 (a refusal before anything is done).
var noPostgres error = boardRefusal("a PostgreSQL store is not in this board build of boardbench; " +
	"push to a SQLite file (results push --to FILE) and copy it to the lab, " +
	"or use the full build (go build -o boardbench ./cmd/boardbench)")

// boardRefusal is an error with exit status 2.
type boardRefusal string

func (e boardRefusal) Error() string { return string(e) }

// ExitCode is 2: nothing was done.
func (e boardRefusal) ExitCode() int { return 2 }
