//go:build !board

package store

import (
	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" database/sql driver
)

// noPostgres is nil: this build has the PostgreSQL driver. A board build
// (go build -tags board) leaves it out (pgx_board.go).
var noPostgres error
