//go:build !board

package store

import (
	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" database/sql driver
)
