package hostiletest_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"boardbench/internal/cmd/root"
	"boardbench/internal/cmdutil"
	"boardbench/internal/iostreams"
	"boardbench/internal/serve"
	"boardbench/internal/serve/page"
	"boardbench/internal/store"
	"boardbench/internal/testutil/shareddata"
)

// boardbench runs the command tree to its end (no deadline: the machine
// may be loaded) and returns its output and exit status.
func boardbench(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	ios, out, errOut := iostreams.Test()
	cmd := root.NewCmd(cmdutil.NewFactory(ios))
	cmd.SetArgs(args)
	err := cmd.ExecuteContext(context.Background())
	if err != nil {
		fmt.Fprintf(errOut, "boardbench: %s\n", err)
	}
	return out.String(), errOut.String(), cmdutil.ExitCode(err)
}

// hugeLog writes a real sbc-bench log grown to 100,000 monitor lines
// (7 MB) and returns its path.
func hugeLog(t *testing.T) string {
	t.Helper()
	lines := strings.Split(string(shareddata.ReadFile(t, "sbc-bench-logs/4E5J.txt")), "\n")
	var out []string
	for _, l := range lines {
		out = append(out, l)
		if strings.HasPrefix(l, "Time ") && len(out) > 2 && strings.HasPrefix(out[len(out)-3], "System health while running 7-zip multi") {
			for k := range 100_000 {
				s := k % 86400
				out = append(out, fmt.Sprintf("%02d:%02d:%02d: %4d/1800MHz  4.%02d  93%%   1%%  92%%   0%%   0%%   0%%  %4.1f°C",
					s/3600, s/60%60, s%60, 2400-k%3*100, k%100, 40+float64(k%500)/10))
			}
		}
	}
	p := filepath.Join(t.TempDir(), "huge.txt")
	if err := os.WriteFile(p, []byte(strings.Join(out, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestHugeImportServedAndReported imports a 7 MB log of 100,000 monitor
// lines, then reads it back as serve and report --html do: the store
// holds the text about once, the page and the file stay small, and a
// Host header other than the listen address is refused.
func TestHugeImportServedAndReported(t *testing.T) {
	log := hugeLog(t)
	fi, err := os.Stat(log)
	if err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(t.TempDir(), "results.db")
	stdout, stderr, code := boardbench(t, "--store", db, "import", log)
	if code != 0 {
		t.Fatalf("import: exit %d: %s", code, stderr)
	}
	id := regexp.MustCompile(`[0-9a-f]{32}`).FindString(stdout)
	if id == "" {
		t.Fatalf("import printed no id: %q", stdout)
	}
	st, err := store.OpenReadOnly(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	doc, err := st.Get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if limit := fi.Size() * 6 / 5; int64(len(doc)) > limit {
		t.Errorf("the stored result of a %d-byte log is %d bytes, want at most %d (the text once)", fi.Size(), len(doc), limit)
	}

	out := filepath.Join(t.TempDir(), "r.html")
	if _, stderr, code := boardbench(t, "--store", db, "report", "--html", id, "-o", out); code != 0 {
		t.Fatalf("report --html: exit %d: %s", code, stderr)
	}
	if hi, err := os.Stat(out); err != nil || hi.Size() > 2<<20 {
		t.Errorf("report --html of a 7 MB log: %v bytes (%v), want at most 2 MiB", hi.Size(), err)
	}

	hosts, err := serve.NewHostPolicy("127.0.0.1:8080", nil)
	if err != nil {
		t.Fatal(err)
	}
	h := serve.New(serve.Config{Store: st, Charts: page.Charts, Hosts: hosts, Timeout: time.Hour}).Handler()
	for host, want := range map[string]int{"127.0.0.1:8080": http.StatusOK, "attacker.example:8080": http.StatusMisdirectedRequest} {
		req := httptest.NewRequest("GET", "/results/"+id, nil)
		req.Host = host
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != want {
			t.Errorf("Host %s: %d, want %d", host, rec.Code, want)
		}
		if rec.Code == http.StatusOK && rec.Body.Len() > 2<<20 {
			t.Errorf("the page of a 7 MB log: %d bytes, want at most 2 MiB", rec.Body.Len())
		}
	}
}
