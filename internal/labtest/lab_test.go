package labtest

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"boardbench/internal/labapi"
	"boardbench/internal/result"
	"boardbench/internal/serve/servetest"
	"boardbench/internal/store"
	"boardbench/internal/testutil/need"

	_ "github.com/jackc/pgx/v5/stdlib"
)

// PostgresEnv names the test server (scripts/pg-throwaway.sh starts one).
const PostgresEnv = "BOARDBENCH_TEST_POSTGRES"

var (
	binOnce sync.Once
	binPath string
	binErr  error
)

// boardbench builds cmd/boardbench once for the package's tests.
func boardbench(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		dir, err := os.MkdirTemp("", "boardbench-labtest-bin-")
		if err != nil {
			binErr = err
			return
		}
		binPath = filepath.Join(dir, "boardbench")
		if out, err := exec.Command("go", "build", "-o", binPath, "boardbench/cmd/boardbench").CombinedOutput(); err != nil {
			binErr = fmt.Errorf("%v\n%s", err, out)
		}
	})
	if binErr != nil {
		t.Fatalf("building boardbench: %v", binErr)
	}
	return binPath
}

// run runs the built binary with a private HOME and no store variable.
func run(t *testing.T, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(boardbench(t), args...)
	cmd.Env = append([]string{"HOME=" + t.TempDir(), "PATH=" + os.Getenv("PATH"), "LC_ALL=C.UTF-8"}, env...)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		t.Fatalf("running boardbench %s: %v", strings.Join(args, " "), err)
	}
	return o.String(), e.String(), code
}

// pg creates a database owned by a new role whose connections are
// limited to connLimit (as a lab's max_connections would be), and
// returns the role's URL and an admin connection. Both are dropped at
// the end of the test.
func pg(t *testing.T, name string, connLimit int) (string, *sql.DB) {
	t.Helper()
	base := os.Getenv(PostgresEnv)
	if base == "" {
		need.Missing(t, "PostgreSQL: set %s to a server URL (scripts/pg-throwaway.sh starts one)", PostgresEnv)
		return "", nil
	}
	admin, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.Close() })
	ctx := context.Background()
	name = fmt.Sprintf("bblab_%s_%d", name, os.Getpid())
	for _, q := range []string{
		`DROP DATABASE IF EXISTS ` + name + ` WITH (FORCE)`,
		`DROP ROLE IF EXISTS ` + name,
		fmt.Sprintf(`CREATE ROLE %s LOGIN CONNECTION LIMIT %d`, name, connLimit),
		`CREATE DATABASE ` + name + ` OWNER ` + name,
	} {
		if _, err := admin.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	t.Cleanup(func() {
		admin.ExecContext(context.Background(), `DROP DATABASE IF EXISTS `+name+` WITH (FORCE)`)
		admin.ExecContext(context.Background(), `DROP ROLE IF EXISTS `+name)
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	u.User = url.User(name)
	u.Path = "/" + name
	return u.String(), admin
}

// server is one `boardbench serve` process.
type server struct {
	url  string
	cmd  *exec.Cmd
	done chan error
}

var servingLine = regexp.MustCompile(`serving .* on (http://127\.0\.0\.1:[0-9]+)/`)

// startServe starts `boardbench serve --accept-uploads` on listen and
// returns once it says where it serves.
func startServe(t *testing.T, storeURL, listen string, extra ...string) *server {
	t.Helper()
	args := append([]string{"--store", storeURL, "serve", "--accept-uploads", "--listen", listen}, extra...)
	cmd := exec.Command(boardbench(t), args...)
	cmd.Env = []string{"HOME=" + t.TempDir(), "PATH=" + os.Getenv("PATH"), "LC_ALL=C.UTF-8"}
	pr, pw := io.Pipe()
	cmd.Stderr = pw
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &server{cmd: cmd, done: make(chan error, 1)}
	go func() { err := cmd.Wait(); pw.Close(); s.done <- err }()
	found := make(chan string, 1)
	var log strings.Builder
	var logMu sync.Mutex
	go func() {
		sc := bufio.NewScanner(pr)
		sent := false
		for sc.Scan() {
			logMu.Lock()
			log.WriteString(sc.Text() + "\n")
			logMu.Unlock()
			if m := servingLine.FindStringSubmatch(sc.Text()); m != nil && !sent {
				found <- m[1]
				sent = true
			}
		}
		if !sent {
			close(found)
		}
	}()
	u, ok := <-found
	if !ok {
		logMu.Lock()
		defer logMu.Unlock()
		t.Fatalf("serve %s did not start:\n%s", listen, log.String())
	}
	s.url = u
	t.Cleanup(func() { s.stop(t) })
	return s
}

// stop ends the server (SIGINT, as Ctrl-C) and waits for it.
func (s *server) stop(t *testing.T) {
	if s.cmd.ProcessState != nil || s.cmd.Process == nil {
		return
	}
	_ = s.cmd.Process.Signal(os.Interrupt)
	select {
	case <-s.done:
	case <-time.After(60 * time.Second):
		_ = s.cmd.Process.Kill()
		<-s.done
	}
}

// doc returns generated result i as a document.
func doc(t *testing.T, i int) []byte {
	t.Helper()
	r, _ := servetest.Result(i)
	b, err := result.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func client(t *testing.T, base, token string) *labapi.Client {
	t.Helper()
	u, err := labapi.ParseLab(base)
	if err != nil {
		t.Fatal(err)
	}
	// A busy server (503, the database refusing connections) is tried
	// again after its Retry-After of 1 s: up to 30 times.
	return &labapi.Client{Base: u, Token: token, Attempts: 30}
}

// addToken makes a token with the built binary's `lab token add`.
func addToken(t *testing.T, storeURL, name string) string {
	t.Helper()
	out, errOut, code := run(t, nil, "--store", storeURL, "lab", "token", "add", name)
	tok := strings.TrimSpace(out)
	if code != 0 || !strings.HasPrefix(tok, store.TokenPrefix) || strings.Contains(errOut, tok) {
		t.Fatalf("lab token add %s: exit %d, %q\n%s", name, code, out, errOut)
	}
	return tok
}

// TestTwoServersHundredUploaders: two serve processes on one PostgreSQL
// whose role may hold 6 connections (fewer than their pools would open) take 100 uploads at once (each
// result once, 20 of them sent twice, to both servers): every result is
// stored once with its token's name, none lost, none doubled. Then a
// revoked token is refused by both servers, and hostile uploads get
// their status.
func TestTwoServersHundredUploaders(t *testing.T) {
	storeURL, _ := pg(t, "uploads", 6)
	const tokens, uploads, twice = 10, 100, 20
	toks := make([]string, tokens)
	for i := range toks {
		toks[i] = addToken(t, storeURL, fmt.Sprintf("board-%02d", i))
	}
	servers := []*server{
		startServe(t, storeURL, "127.0.0.1:0", "--upload-rate", "0", "--max-upload-bytes", "1000000"),
		startServe(t, storeURL, "127.0.0.1:0", "--upload-rate", "0", "--max-upload-bytes", "1000000"),
	}
	ctx := context.Background()
	type outcome struct {
		i       int
		created bool
		err     error
	}
	results := make(chan outcome, uploads+twice)
	var wg sync.WaitGroup
	start := time.Now()
	for i := range uploads + twice {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n := i % uploads // the last twice re-send the first ones, to the other server
			c := client(t, servers[i%2].url, toks[n%tokens])
			ans, err := c.Upload(ctx, doc(t, n))
			results <- outcome{n, ans.Created, err}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	close(results)
	created := map[int]int{}
	for o := range results {
		if o.err != nil {
			t.Errorf("upload of result %d: %v", o.i, o.err)
			continue
		}
		if o.created {
			created[o.i]++
		}
	}
	// An upload whose answer was lost (the database refused the
	// server's next connection after the result was stored) is answered
	// "present" when retried: created at most once, stored exactly once.
	for i := range uploads {
		if created[i] > 1 {
			t.Errorf("result %d was created %d times", i, created[i])
		}
	}
	t.Logf("%d uploads (%d distinct) to two serve processes in %v: %.1f uploads/s", uploads+twice, uploads, elapsed.Round(time.Millisecond),
		float64(uploads+twice)/elapsed.Seconds())
	dbName := strings.TrimPrefix(mustURL(t, storeURL).Path, "/")
	var nResults, nDocs, nUploads, nDistinctUploaders int
	count := func(q string, into *int) {
		t.Helper()
		// As the server's superuser: the role's few connections are the servers'.
		u := mustURL(t, os.Getenv(PostgresEnv))
		u.Path = "/" + dbName
		db, err := sql.Open("pgx", u.String())
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if err := db.QueryRowContext(ctx, q).Scan(into); err != nil {
			t.Fatalf("%s on %s: %v", q, dbName, err)
		}
	}
	count(`SELECT COUNT(*) FROM results`, &nResults)
	count(`SELECT COUNT(*) FROM result_docs`, &nDocs)
	count(`SELECT COUNT(*) FROM result_uploads`, &nUploads)
	count(`SELECT COUNT(DISTINCT token_name) FROM result_uploads`, &nDistinctUploaders)
	if nResults != uploads || nDocs != uploads || nUploads != uploads || nDistinctUploaders != tokens {
		t.Errorf("stored %d results, %d documents, %d uploads by %d tokens; want %d, %d, %d by %d",
			nResults, nDocs, nUploads, nDistinctUploaders, uploads, uploads, uploads, tokens)
	}

	// A revoked token, refused by both servers at once (they keep no
	// state). The operator connects as another role (here the server's
	// superuser): the servers' role holds its few connections.
	opURL := mustURL(t, os.Getenv(PostgresEnv))
	opURL.Path = "/" + dbName
	if _, errOut, code := run(t, nil, "--store", opURL.String(), "lab", "token", "revoke", "board-03"); code != 0 {
		t.Fatalf("lab token revoke: exit %d\n%s", code, errOut)
	}
	for _, s := range servers {
		_, err := client(t, s.url, toks[3]).Upload(ctx, doc(t, 500))
		var he *labapi.HTTPError
		if !errors.As(err, &he) || he.Status != 403 {
			t.Errorf("%s: upload with a revoked token: %v, want 403", s.url, err)
		}
	}
	out, _, code := run(t, nil, "--store", opURL.String(), "lab", "token", "list")
	if code != 0 || !regexp.MustCompile(`board-03 .*revoked`).MatchString(out) || !regexp.MustCompile(`board-00 .*in use\s+10 `).MatchString(out) {
		t.Errorf("lab token list (exit %d):\n%s", code, out)
	}

	// Hostile uploads.
	good := doc(t, 600)
	withText := func(raw string) []byte {
		return []byte(strings.Replace(string(good), `"status": "complete"`, `"status": "complete", "x": `+raw, 1))
	}
	for _, c := range []struct {
		name   string
		body   []byte
		status int
	}{
		{"oversized", append(bytes.Repeat([]byte(" "), 1_000_001), good...), 413},
		{"wrong schema", []byte(`{"schema_version": "9.0", "status": "complete", "id": "00000000000000000000000000abcdef"}`), 400},
		{"control characters", withText(`"\u001b[2J"`), 400},
		{"NaN", withText(`NaN`), 400},
	} {
		_, err := client(t, servers[0].url, toks[0]).Upload(ctx, c.body)
		var he *labapi.HTTPError
		if !errors.As(err, &he) || he.Status != c.status {
			t.Errorf("%s: %v, want %d", c.name, err, c.status)
		}
	}
	count(`SELECT COUNT(*) FROM results`, &nResults)
	if nResults != uploads {
		t.Errorf("%d results after the refused uploads, want %d", nResults, uploads)
	}
}

func mustURL(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// boardStore makes a board's SQLite store holding results from..to-1.
func boardStore(t *testing.T, from, to int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "board.db")
	st, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for i := from; i < to; i++ {
		if _, _, err := st.Put(context.Background(), doc(t, i)); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

// TestPendingWhileTheLabIsDown: a push while the lab is down keeps every
// result as pending (exit 1); --pending while it is still down keeps
// them; once the lab is back, --pending pushes them all and the queue is
// empty.
func TestPendingWhileTheLabIsDown(t *testing.T) {
	storeURL, _ := pg(t, "pending", 10)
	tok := addToken(t, storeURL, "pending-board")
	tokFile := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(tokFile, []byte(tok+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// A free loopback port: nothing listens there until the lab starts.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	lab := "http://" + addr
	board := boardStore(t, 1000, 1006)
	_, errOut, code := run(t, nil, "--store", board, "results", "push", lab, "--token-file", tokFile)
	if code != 1 || !strings.Contains(errOut, "6 result(s) not pushed") || !strings.Contains(errOut, "--pending") {
		t.Fatalf("push while the lab is down: exit %d\n%s", code, errOut)
	}
	pending := func() []store.Pending {
		t.Helper()
		st, err := store.Open(context.Background(), board)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		p, err := store.PendingPushes(context.Background(), st, "")
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	if p := pending(); len(p) != 6 || p[0].Target != lab {
		t.Fatalf("pending after the failed push: %+v", p)
	}
	if _, errOut, code := run(t, []string{labapi.TokenEnv + "=" + tok}, "--store", board, "results", "push", "--pending"); code != 1 {
		t.Fatalf("--pending while the lab is down: exit %d\n%s", code, errOut)
	}
	if p := pending(); len(p) != 6 || p[0].Attempts != 2 {
		t.Fatalf("pending after a second failure: %+v", p)
	}
	startServe(t, storeURL, addr)
	out, errOut, code := run(t, nil, "--store", board, "results", "push", "--pending", "--token-file", tokFile, "--json")
	if code != 0 || !strings.Contains(out, `"pushed": 6`) {
		t.Fatalf("--pending once the lab is back: exit %d\n%s\n%s", code, out, errOut)
	}
	if p := pending(); len(p) != 0 {
		t.Errorf("still pending: %+v", p)
	}
	db, err := sql.Open("pgx", storeURL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRow(`SELECT COUNT(*) FROM result_uploads WHERE token_name = 'pending-board'`).Scan(&n); err != nil || n != 6 {
		t.Errorf("the lab holds %d uploads of the board (%v), want 6", n, err)
	}
}

// TestHundredPushesIntoABusyPostgres: 100 `results push postgres://`
// processes at once into a server that lets their role hold 3
// connections: the refused ones wait and try again; none fails, every
// result is there once.
func TestHundredPushesIntoABusyPostgres(t *testing.T) {
	storeURL, _ := pg(t, "busy", 3)
	// Migrate first, as a lab's operator would (one process).
	st, err := store.Open(context.Background(), storeURL)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	const n = 100
	boards := make([]string, n)
	for i := range boards {
		boards[i] = boardStore(t, 2000+i, 2001+i)
	}
	var wg sync.WaitGroup
	fails := make(chan string, n)
	for i := range boards {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out, errOut, code := run(t, nil, "--store", boards[i], "results", "push", storeURL)
			if code != 0 || !strings.Contains(out, "pushed 1 new result") {
				fails <- fmt.Sprintf("push %d: exit %d\n%s%s", i, code, out, errOut)
			}
		}()
	}
	wg.Wait()
	close(fails)
	for f := range fails {
		t.Error(f)
	}
	db, err := sql.Open("pgx", storeURL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var got int
	if err := db.QueryRow(`SELECT COUNT(*) FROM results`).Scan(&got); err != nil || got != n {
		t.Errorf("%d results in the lab (%v), want %d", got, err, n)
	}
}
