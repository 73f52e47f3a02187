package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestHTMLIsOneSelfContainedFile(t *testing.T) {
	path := savedResult(t)
	out := filepath.Join(t.TempDir(), "r.html")
	if _, errOut, code := run(t, "--html", path, "-o", out); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	html := string(data)
	for _, want := range []string{"<!DOCTYPE html>", "<style>", `id="report"`, `href="data:application/json;base64,`, "Raspberry Pi 5 Model B Rev 1.0"} {
		if !strings.Contains(html, want) {
			t.Errorf("the file lacks %q", want)
		}
	}
	// Nothing is loaded from elsewhere: no script, no external source or link.
	for _, bad := range []string{"<script", "src=\"http", "href=\"http", "@import", "url(http"} {
		if strings.Contains(html, bad) {
			t.Errorf("the file contains %q", bad)
		}
	}
	stdout, _, code := run(t, "--html", path)
	if code != 0 || stdout != html {
		t.Errorf("--html to standard output differs from -o (exit %d)", code)
	}
}

func TestHTMLUsage(t *testing.T) {
	path := savedResult(t)
	for _, args := range [][]string{
		{"--html", "--json", path},
		{"--html", "--markdown-row", path},
		{"-o", "x.html", path},
		{"--html", path, "-o", "/dev/null"},
	} {
		if _, _, code := run(t, args...); code != 2 {
			t.Errorf("%q: exit %d, want 2", args, code)
		}
	}
}
