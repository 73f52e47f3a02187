package redact

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestConnString covers every credential form pgx reads: the user
// information's password, password= and sslpassword= in the query (also
// percent-encoded keys), keyword/value strings quoted or not; paths and
// URLs without credentials are unchanged.
func TestConnString(t *testing.T) {
	tests := []struct{ in, want string }{
		{"postgres://bench:hunter2@db/boardbench", "postgres://bench:xxxxx@db/boardbench"},
		{"postgres://bench@db/boardbench?password=hunter2", "postgres://bench@db/boardbench?password=xxxxx"},
		{"postgresql://bench@db:5432/b?sslmode=require&sslpassword=hunter3&connect_timeout=5", "postgresql://bench@db:5432/b?sslmode=require&sslpassword=xxxxx&connect_timeout=5"},
		{"postgres://bench@db/b?pass%77ord=hunter4", "postgres://bench@db/b?pass%77ord=xxxxx"},
		{"postgres://bench@db/b?PASSWORD=hunter4", "postgres://bench@db/b?PASSWORD=xxxxx"},
		{"postgres://u:p%40ss@db/b?sslkey=/etc/key.pem", "postgres://u:xxxxx@db/b?sslkey=/etc/key.pem"},
		// Does not parse as a URL (a bad port), still masked.
		{"postgres://u:hunter5@db:x/b?password=hunter6", "postgres://u:xxxxx@db:x/b?password=xxxxx"},
		{"postgres://u:pa@ss/word@db/b", "postgres://u:xxxxx@db/b"},
		{"mysql://u:hunter7@h/db", "mysql://u:xxxxx@h/db"},
		{"host=db user=bench password=hunter8 dbname=b", "host=db user=bench password=xxxxx dbname=b"},
		{"host=db password = 'it\\'s secret' sslpassword=x9", "host=db password = xxxxx sslpassword=xxxxx"},
		{"/home/me/.local/share/boardbench/results.db", "/home/me/.local/share/boardbench/results.db"},
		{"postgres://bench@db/boardbench", "postgres://bench@db/boardbench"},
		{"results.db", "results.db"},
		{"", ""},
	}
	for _, tc := range tests {
		if got := ConnString(tc.in); got != tc.want {
			t.Errorf("ConnString(%q)\n got %q\nwant %q", tc.in, got, tc.want)
		}
	}
}

func TestConnError(t *testing.T) {
	base := errors.New("boom")
	dsn := "postgres://u:hunter2@db/b?sslpassword=s3cr%65t"
	err := ConnError(fmt.Errorf("cannot parse %q: %w (sslpassword %s)", dsn, base, "s3crEt"), dsn)
	msg := err.Error()
	for _, s := range []string{"hunter2", "s3cr%65t", "s3crEt"[:0] + "s3cret"} {
		if strings.Contains(msg, s) {
			t.Errorf("%q still holds %q", msg, s)
		}
	}
	if !errors.Is(err, base) {
		t.Error("errors.Is lost the wrapped error")
	}
	if ConnError(nil, dsn) != nil {
		t.Error("ConnError(nil) is not nil")
	}
	kv := "host=db password='a b c'"
	if msg := ConnError(errors.New("failed: "+kv+" and a b c"), kv).Error(); strings.Contains(msg, "a b c") {
		t.Errorf("keyword/value secret left in %q", msg)
	}
}
