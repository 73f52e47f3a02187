package store

// What a lab keeps beside the results: upload tokens (serve
// --accept-uploads, boardbench lab token), the token each uploaded result
// came with, and on a board the results it could not push yet (results
// push --pending). The tables are the lab migration's (schema.go).

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"
)

// TokenPrefix starts every upload token, so that one found in a file or a
// log is recognisable.
const TokenPrefix = "bbt_"

// MaxTokenName bounds a token's name.
const MaxTokenName = 64

// Errors of the token functions (wrapped).
const (
	// ErrTokenUnknown: no token has this secret (answered 401).
	ErrTokenUnknown = sentinel("unknown token")
	// ErrTokenRevoked: the token was revoked (answered 403).
	ErrTokenRevoked = sentinel("token revoked")
	// ErrTokenExists: a token of this name exists, or existed (names are
	// recorded with uploads, so one is never reused).
	ErrTokenExists = sentinel("a token of this name exists already")
	// ErrNoLab: the store is not one of this package's SQL stores.
	ErrNoLab = sentinel("this store keeps no tokens or pending pushes")
)

// Token is a stored upload token: never its secret, which is shown once
// when it is made and kept only as its SHA-256.
type Token struct {
	Name      string    `json:"name"`
	CreatedAt time.Time `json:"created_at"`
	// RevokedAt is zero for a token in use.
	RevokedAt time.Time `json:"revoked_at,omitzero"`
	// Uploads counts the results stored by an upload with this token;
	// LastUpload is the newest one's time (zero when none).
	Uploads    int       `json:"uploads"`
	LastUpload time.Time `json:"last_upload,omitzero"`
}

// Revoked reports whether the token was revoked.
func (t Token) Revoked() bool { return !t.RevokedAt.IsZero() }

func labOf(st Store) (*sqlStore, error) {
	switch s := st.(type) {
	case *sqlStore:
		return s, nil
	case *retrying:
		return labOf(s.Store)
	}
	return nil, ErrNoLab
}

// CheckTokenName accepts a token's name: 1 to MaxTokenName letters,
// digits, '-', '_', '.' and '@'.
func CheckTokenName(name string) error {
	if name == "" || len(name) > MaxTokenName {
		return fmt.Errorf("a token name has 1 to %d characters", MaxTokenName)
	}
	for _, c := range name {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("-_.@", c)) {
			return fmt.Errorf("token name %q: only letters, digits, '-', '_', '.' and '@'", truncateName(name))
		}
	}
	return nil
}

func truncateName(s string) string {
	if len(s) > MaxTokenName {
		s = s[:MaxTokenName] + "…"
	}
	return strings.ToValidUTF8(s, "?")
}

// tokenHash is how a token is kept: the hex SHA-256 of its secret. The
// secret is 256 random bits, so a plain hash needs no salt or stretching.
func tokenHash(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

// AddToken makes a token named name and returns its secret (TokenPrefix
// and 43 characters of 256 random bits): the only time it is seen, as the
// store keeps its hash only.
func AddToken(ctx context.Context, st Store, name string) (string, error) {
	s, err := labOf(st)
	if err != nil {
		return "", err
	}
	if err := CheckTokenName(name); err != nil {
		return "", err
	}
	var raw [32]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return "", err
	}
	secret := TokenPrefix + base64.RawURLEncoding.EncodeToString(raw[:])
	res, err := s.db.ExecContext(ctx, s.q(`INSERT INTO lab_tokens (name, hash, created_at) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING`),
		name, tokenHash(secret), formatTime(time.Now()))
	if err != nil {
		return "", err
	}
	if n, err := res.RowsAffected(); err != nil {
		return "", err
	} else if n == 0 {
		return "", fmt.Errorf("token %q: %w (a revoked name is not reused: its uploads carry it)", name, ErrTokenExists)
	}
	return secret, nil
}

// Tokens lists the tokens by name, with their upload counts.
func Tokens(ctx context.Context, st Store) ([]Token, error) {
	s, err := labOf(st)
	if err != nil {
		return nil, err
	}
	rows, err := s.db.QueryContext(ctx, `SELECT t.name, t.created_at, t.revoked_at, COUNT(u.result_id), COALESCE(MAX(u.uploaded_at), '')
		FROM lab_tokens t LEFT JOIN result_uploads u ON u.token_name = t.name
		GROUP BY t.name, t.created_at, t.revoked_at ORDER BY t.name`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Token
	for rows.Next() {
		var t Token
		var created, revoked, last string
		if err := rows.Scan(&t.Name, &created, &revoked, &t.Uploads, &last); err != nil {
			return nil, err
		}
		t.CreatedAt = parseTime(created)
		if revoked != "" {
			t.RevokedAt = parseTime(revoked)
		}
		if last != "" {
			t.LastUpload = parseTime(last)
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// RevokeToken revokes the token named name: uploads with it are refused
// from then on (the results it uploaded stay). Revoking a revoked token
// changes nothing; an unknown name is ErrTokenUnknown.
func RevokeToken(ctx context.Context, st Store, name string) error {
	s, err := labOf(st)
	if err != nil {
		return err
	}
	if _, err := s.db.ExecContext(ctx, s.q(`UPDATE lab_tokens SET revoked_at = ? WHERE name = ? AND revoked_at = ''`),
		formatTime(time.Now()), name); err != nil {
		return err
	}
	var n int
	if err := s.db.QueryRowContext(ctx, s.q(`SELECT COUNT(*) FROM lab_tokens WHERE name = ?`), name).Scan(&n); err != nil {
		return err
	}
	if n == 0 {
		return fmt.Errorf("token %q: %w", truncateName(name), ErrTokenUnknown)
	}
	return nil
}

// CheckToken returns the name of the token whose secret is secret:
// ErrTokenUnknown when none is, ErrTokenRevoked when it was revoked.
func CheckToken(ctx context.Context, st Store, secret string) (string, error) {
	s, err := labOf(st)
	if err != nil {
		return "", err
	}
	var name, revoked string
	err = s.db.QueryRowContext(ctx, s.q(`SELECT name, revoked_at FROM lab_tokens WHERE hash = ?`), tokenHash(secret)).Scan(&name, &revoked)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return "", ErrTokenUnknown
	case err != nil:
		return "", err
	case revoked != "":
		return name, ErrTokenRevoked
	}
	return name, nil
}

// PutUpload stores an uploaded result document as Put does and records
// the name of the token it came with. The same result uploaded again
// changes nothing (created is false) and keeps its first uploader; a
// retry after a failure between the two writes records the uploader then.
func PutUpload(ctx context.Context, st Store, doc []byte, tokenName string) (id string, created bool, err error) {
	s, err := labOf(st)
	if err != nil {
		return "", false, err
	}
	id, created, err = s.Put(ctx, doc)
	if err != nil {
		return "", false, err
	}
	if _, err := s.db.ExecContext(ctx, s.q(`INSERT INTO result_uploads (result_id, token_name, uploaded_at) VALUES (?, ?, ?)
		ON CONFLICT (result_id) DO NOTHING`), id, tokenName, formatTime(time.Now())); err != nil {
		return "", false, err
	}
	return id, created, nil
}

// Uploader returns the name of the token the result id was uploaded
// with, "" for a result that was not uploaded.
func Uploader(ctx context.Context, st Store, id string) (string, error) {
	s, err := labOf(st)
	if err != nil {
		return "", err
	}
	var name string
	err = s.db.QueryRowContext(ctx, s.q(`SELECT token_name FROM result_uploads WHERE result_id = ?`), id).Scan(&name)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return name, err
}

// Pending is a result that could not be pushed to a target yet.
type Pending struct {
	ID string `json:"id"`
	// Target is where it goes: a lab's URL, or a PostgreSQL URL without
	// its password.
	Target    string    `json:"target"`
	AddedAt   time.Time `json:"added_at"`
	Attempts  int       `json:"attempts"`
	LastError string    `json:"last_error"`
}

// MaxPendingError bounds the error text kept with a pending push.
const MaxPendingError = 500

// AddPending keeps the result id as pending for target, with the error of
// the attempt that failed; a result pending already has its attempts
// counted up and its error replaced.
func AddPending(ctx context.Context, st Store, id, target, errText string) error {
	s, err := labOf(st)
	if err != nil {
		return err
	}
	if len(errText) > MaxPendingError {
		errText = errText[:MaxPendingError]
	}
	errText = strings.ToValidUTF8(errText, "?")
	_, err = s.db.ExecContext(ctx, s.q(`INSERT INTO pending_pushes (result_id, target, added_at, attempts, last_error) VALUES (?, ?, ?, 1, ?)
		ON CONFLICT (result_id, target) DO UPDATE SET attempts = pending_pushes.attempts + 1, last_error = excluded.last_error`),
		id, target, formatTime(time.Now()), errText)
	return err
}

// PendingPushes lists the pending pushes, oldest first; target "" lists
// every target's.
func PendingPushes(ctx context.Context, st Store, target string) ([]Pending, error) {
	s, err := labOf(st)
	if err != nil {
		return nil, err
	}
	query, args := `SELECT result_id, target, added_at, attempts, last_error FROM pending_pushes`, []any{}
	if target != "" {
		query += ` WHERE target = ?`
		args = append(args, target)
	}
	rows, err := s.db.QueryContext(ctx, s.q(query+` ORDER BY added_at, result_id`), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Pending
	for rows.Next() {
		var p Pending
		var added string
		if err := rows.Scan(&p.ID, &p.Target, &added, &p.Attempts, &p.LastError); err != nil {
			return nil, err
		}
		p.AddedAt = parseTime(added)
		out = append(out, p)
	}
	return out, rows.Err()
}

// RemovePending forgets a pending push (done, or its result is gone).
func RemovePending(ctx context.Context, st Store, id, target string) error {
	s, err := labOf(st)
	if err != nil {
		return err
	}
	_, err = s.db.ExecContext(ctx, s.q(`DELETE FROM pending_pushes WHERE result_id = ? AND target = ?`), id, target)
	return err
}
