package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestTokens(t *testing.T) {
	st, _ := openTemp(t)
	ctx := context.Background()
	secret, err := AddToken(ctx, st, "rock5b")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(secret, TokenPrefix) || len(secret) != len(TokenPrefix)+43 {
		t.Errorf("secret %q", secret)
	}
	other, err := AddToken(ctx, st, "pi5")
	if err != nil || other == secret {
		t.Fatalf("second token %q, %v", other, err)
	}
	if _, err := AddToken(ctx, st, "rock5b"); !errors.Is(err, ErrTokenExists) {
		t.Errorf("the same name again: %v", err)
	}
	for _, bad := range []string{"", "a b", "x/y", strings.Repeat("n", MaxTokenName+1), "tab\there"} {
		if _, err := AddToken(ctx, st, bad); err == nil {
			t.Errorf("name %q taken", bad)
		}
	}
	// Only the hash is kept.
	var n int
	if err := st.(*sqlStore).db.QueryRowContext(ctx, `SELECT COUNT(*) FROM lab_tokens WHERE hash = ? OR name = ?`, secret, secret).Scan(&n); err != nil || n != 0 {
		t.Errorf("the secret is stored as it is (%d, %v)", n, err)
	}
	if name, err := CheckToken(ctx, st, secret); err != nil || name != "rock5b" {
		t.Errorf("check: %q, %v", name, err)
	}
	if _, err := CheckToken(ctx, st, secret+"x"); !errors.Is(err, ErrTokenUnknown) {
		t.Errorf("a wrong secret: %v", err)
	}
	if err := RevokeToken(ctx, st, "rock5b"); err != nil {
		t.Fatal(err)
	}
	if err := RevokeToken(ctx, st, "rock5b"); err != nil {
		t.Errorf("revoking again: %v", err)
	}
	if err := RevokeToken(ctx, st, "nosuch"); !errors.Is(err, ErrTokenUnknown) {
		t.Errorf("revoking an unknown name: %v", err)
	}
	if name, err := CheckToken(ctx, st, secret); !errors.Is(err, ErrTokenRevoked) || name != "rock5b" {
		t.Errorf("revoked: %q, %v", name, err)
	}
	if _, err := AddToken(ctx, st, "rock5b"); !errors.Is(err, ErrTokenExists) {
		t.Errorf("a revoked name reused: %v", err)
	}
	toks, err := Tokens(ctx, st)
	if err != nil || len(toks) != 2 || toks[0].Name != "pi5" || toks[0].Revoked() || !toks[1].Revoked() {
		t.Errorf("tokens %+v, %v", toks, err)
	}
}

func TestPutUploadKeepsTheFirstUploader(t *testing.T) {
	st, _ := openTemp(t)
	ctx := context.Background()
	doc := mustJSON(t, testResult("00000000000000aa", "Rock 5B", "RK3588", "6.1", 10000, time.Now()))
	for i, c := range []struct {
		name    string
		created bool
	}{{"first", true}, {"second", false}} {
		id, created, err := PutUpload(ctx, st, doc, c.name)
		if err != nil || created != c.created || id != "00000000000000aa" {
			t.Fatalf("upload %d: %s %v %v", i+1, id, created, err)
		}
	}
	if name, err := Uploader(ctx, st, "00000000000000aa"); err != nil || name != "first" {
		t.Errorf("uploader %q, %v", name, err)
	}
	if name, err := Uploader(ctx, st, "00000000000000bb"); err != nil || name != "" {
		t.Errorf("uploader of no upload %q, %v", name, err)
	}
}

func TestPendingPushes(t *testing.T) {
	st, _ := openTemp(t)
	ctx := context.Background()
	for _, p := range []struct{ id, target string }{{"a1", "https://lab"}, {"a2", "https://lab"}, {"a1", "postgres://u@db/x"}} {
		if err := AddPending(ctx, st, p.id, p.target, "connection refused"); err != nil {
			t.Fatal(err)
		}
	}
	if err := AddPending(ctx, st, "a1", "https://lab", strings.Repeat("e", 2*MaxPendingError)); err != nil {
		t.Fatal(err)
	}
	all, err := PendingPushes(ctx, st, "")
	if err != nil || len(all) != 3 {
		t.Fatalf("%d pending, %v", len(all), err)
	}
	lab, err := PendingPushes(ctx, st, "https://lab")
	if err != nil || len(lab) != 2 {
		t.Fatalf("lab: %+v, %v", lab, err)
	}
	for _, p := range lab {
		if p.ID == "a1" && (p.Attempts != 2 || len(p.LastError) != MaxPendingError) {
			t.Errorf("a1 after two failures: %d attempts, error of %d bytes", p.Attempts, len(p.LastError))
		}
	}
	if err := RemovePending(ctx, st, "a1", "https://lab"); err != nil {
		t.Fatal(err)
	}
	if lab, _ := PendingPushes(ctx, st, "https://lab"); len(lab) != 1 || lab[0].ID != "a2" {
		t.Errorf("after removing a1: %+v", lab)
	}
}

type sqlStateErr string

func (e sqlStateErr) Error() string    { return "server says " + string(e) }
func (e sqlStateErr) SQLState() string { return string(e) }

func TestIsTransient(t *testing.T) {
	for err, want := range map[error]bool{
		nil:                  false,
		sqlStateErr("53300"): true,
		fmt.Errorf("open: %w", sqlStateErr("57P03")):                    true,
		sqlStateErr("23505"):                                            false,
		errors.New("FATAL: sorry, too many clients already"):            true,
		errors.New("dial tcp 127.0.0.1:1: connect: connection refused"): false,
		context.Canceled: false,
	} {
		if got := IsTransient(err); got != want {
			t.Errorf("%v: %v, want %v", err, got, want)
		}
	}
}

func TestBackoffRetriesOnlyTransient(t *testing.T) {
	var waits []time.Duration
	b := Backoff{First: 100 * time.Millisecond, Max: 400 * time.Millisecond,
		Sleep: func(_ context.Context, d time.Duration) error { waits = append(waits, d); return nil }}
	n := 0
	err := b.Do(context.Background(), func() error {
		if n++; n < 5 {
			return sqlStateErr("53300")
		}
		return nil
	})
	if err != nil || n != 5 || len(waits) != 4 {
		t.Fatalf("err %v after %d calls, %d waits", err, n, len(waits))
	}
	for i, w := range waits {
		top := min(100*time.Millisecond<<i, 400*time.Millisecond)
		if w < top/2 || w > top {
			t.Errorf("wait %d: %v, want between %v and %v", i+1, w, top/2, top)
		}
	}
	n = 0
	err = b.Do(context.Background(), func() error { n++; return sqlStateErr("23505") })
	if n != 1 || err == nil {
		t.Errorf("a lasting error was tried %d times", n)
	}
}
