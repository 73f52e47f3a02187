package sshcipher

import (
	"context"
	"errors"
	"io"
	"net"
	"os"
	"os/exec"
	"reflect"
	"strings"
	"testing"
	"time"

	"boardbench/internal/testutil/need"
)

// queryOutput is `ssh -Q cipher` of Debian 12's OpenSSH 9.2p1, as printed.
const queryOutput = `3des-cbc
aes128-cbc
aes192-cbc
aes256-cbc
aes128-ctr
aes192-ctr
aes256-ctr
aes128-gcm@openssh.com
aes256-gcm@openssh.com
chacha20-poly1305@openssh.com
`

func TestParseQuery(t *testing.T) {
	got, err := ParseQuery(queryOutput)
	if err != nil || len(got) != 10 || got[9] != "chacha20-poly1305@openssh.com" {
		t.Fatalf("ParseQuery = %v, %v", got, err)
	}
	for _, bad := range []string{"", "\n\n", "usage: ssh [-46AaCfGgKkMNnqsTtVvXxYy]\n", "aes128-ctr\n$(reboot)\n"} {
		if _, err := ParseQuery(bad); err == nil {
			t.Errorf("ParseQuery(%q) accepted", bad)
		}
	}
}

func TestChoose(t *testing.T) {
	offered, _ := ParseQuery(queryOutput)
	use, no := Choose(Ciphers, offered)
	if !reflect.DeepEqual(use, Ciphers) || len(no) != 0 {
		t.Errorf("Choose = %v, %v", use, no)
	}
	use, no = Choose(Ciphers, []string{"aes128-ctr", "aes256-ctr"})
	if !reflect.DeepEqual(use, []string{"aes128-ctr", "aes256-ctr"}) || len(no) != 3 || no[0] != "chacha20-poly1305@openssh.com" {
		t.Errorf("Choose = %v, %v", use, no)
	}
}

func TestVersion(t *testing.T) {
	for line, want := range map[string]string{
		"OpenSSH_9.2p1 Debian-2+deb12u10, OpenSSL 3.0.22 25 Aug 2026":   "9.2p1",
		"OpenSSH_8.4p1 Raspbian-5+deb11u3, OpenSSL 1.1.1w  11 Sep 2023": "8.4p1",
		"Sun_SSH_1.1": "",
		"":            "",
	} {
		if got := Version(line); got != want {
			t.Errorf("Version(%q) = %q, want %q", line, got, want)
		}
	}
}

func TestSource(t *testing.T) {
	for _, n := range []int64{0, 1, 1 << 20, 3<<20 + 17} {
		s := newSource(n)
		b, err := io.ReadAll(s)
		if err != nil || int64(len(b)) != n || s.sent != n {
			t.Errorf("n=%d: read %d, sent %d, %v", n, len(b), s.sent, err)
		}
		if n > 1<<20 && string(b[1<<20:1<<20+64]) != string(b[:64]) {
			t.Errorf("n=%d: the block does not repeat", n)
		}
	}
}

func TestConfig(t *testing.T) {
	s := &Server{dir: "/tmp/x", user: "pi"}
	cfg := s.Config(2222)
	for _, want := range []string{"ListenAddress 127.0.0.1\n", "Port 2222\n", "UsePAM no\n", "StrictModes no\n",
		"PidFile /tmp/x/sshd.pid\n", "HostKey /tmp/x/host_ed25519\n", "AuthorizedKeysFile /tmp/x/authorized_keys\n",
		"PasswordAuthentication no\n", "AllowUsers pi\n"} {
		if !strings.Contains(cfg, want) {
			t.Errorf("config lacks %q:\n%s", want, cfg)
		}
	}
	if strings.Contains(cfg, "0.0.0.0") || strings.Contains(cfg, "ListenAddress ::") {
		t.Errorf("config listens beyond loopback:\n%s", cfg)
	}
}

// TestEndToEnd starts the throwaway sshd on this machine, measures two
// ciphers with a small amount of data and checks that the server and its
// directory are gone after Stop, and that the system's /run/sshd was not
// created.
func TestEndToEnd(t *testing.T) {
	tools, err := FindTools()
	if err != nil {
		need.Missing(t, "%v", err)
	}
	if _, err := exec.LookPath("unshare"); err != nil && os.Geteuid() == 0 {
		need.Missing(t, "unshare (util-linux) not installed")
	}
	_, runBefore := os.Stat(privsepDir)
	ctx := context.Background()
	offered, err := Offered(ctx, tools.SSH)
	if err != nil {
		t.Fatal(err)
	}
	use, _ := Choose([]string{"chacha20-poly1305@openssh.com", "aes128-ctr"}, offered)
	if len(use) == 0 {
		t.Fatalf("ssh offers neither chacha20-poly1305 nor aes128-ctr: %v", offered)
	}
	if v := ClientVersion(ctx, tools.SSH); Version(v) == "" {
		t.Errorf("ssh -V = %q", v)
	}
	srv, err := Start(ctx, tools)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop()
	dir, addr := srv.Dir(), srv.Addr()
	for _, c := range use {
		tr, err := srv.Measure(ctx, c, 4<<20)
		if err != nil {
			t.Fatalf("%s: %v\nssh: %s\nsshd: %s", c, err, tr.Stderr, srv.Log())
		}
		if v, ok := tr.MBs(); !ok || v <= 0 || tr.Sent != 4<<20 {
			t.Errorf("%s: %+v", c, tr)
		}
	}
	// A cipher the server does not allow fails, with no figure.
	if tr, err := srv.Measure(ctx, "3des-cbc", 1<<20); err == nil {
		t.Errorf("3des-cbc measured: %+v", tr)
	} else if _, ok := tr.MBs(); ok {
		t.Errorf("failed transfer has a figure: %+v", tr)
	}
	srv.Stop()
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("temporary directory %s left: %v", dir, err)
	}
	if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
		c.Close()
		t.Errorf("something still listens on %s", addr)
	}
	if _, after := os.Stat(privsepDir); (runBefore == nil) != (after == nil) {
		t.Errorf("%s changed: before %v, after %v", privsepDir, runBefore, after)
	}
}

// TestStopOnCancel: a cancelled context stops the server; Stop still
// cleans up.
func TestStopOnCancel(t *testing.T) {
	tools, err := FindTools()
	if err != nil {
		need.Missing(t, "%v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	srv, err := Start(ctx, tools)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	cancel()
	srv.Stop()
	if _, err := os.Stat(srv.Dir()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("temporary directory left: %v", err)
	}
	select {
	case <-srv.done:
	default:
		t.Error("sshd still running after Stop")
	}
}
