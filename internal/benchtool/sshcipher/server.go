package sshcipher

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"boardbench/internal/proc"
)

// Tools are the OpenSSH programs a measurement needs.
type Tools struct {
	SSH, Keygen, SSHD string
}

// constError is an error whose value is its text, so that a sentinel
// error is a constant: static data that costs nothing when boardbench
// starts (errors.New would run at init). errors.Is and == match it.
type constError string

func (e constError) Error() string { return string(e) }

// ErrMissing means an OpenSSH program is missing.
const ErrMissing = constError("OpenSSH missing")

// FindTools finds ssh and ssh-keygen on PATH and sshd on PATH or in the
// sbin directories (not on a user's PATH on Debian). sshd must be run by
// its absolute path (it re-executes itself).
func FindTools() (Tools, error) {
	var t Tools
	var missing []string
	var err error
	if t.SSH, err = exec.LookPath("ssh"); err != nil {
		missing = append(missing, "ssh (Debian: openssh-client)")
	}
	if t.Keygen, err = exec.LookPath("ssh-keygen"); err != nil {
		missing = append(missing, "ssh-keygen (Debian: openssh-client)")
	}
	t.SSHD = findSSHD()
	if t.SSHD == "" {
		missing = append(missing, "sshd (Debian: openssh-server)")
	}
	if len(missing) > 0 {
		return t, fmt.Errorf("%w: %s not installed", ErrMissing, strings.Join(missing, ", "))
	}
	return t, nil
}

func findSSHD() string {
	if p, err := exec.LookPath("sshd"); err == nil {
		if abs, err := filepath.Abs(p); err == nil {
			return abs
		}
	}
	for _, dir := range []string{"/usr/sbin", "/usr/local/sbin", "/sbin"} {
		p := filepath.Join(dir, "sshd")
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0 {
			return p
		}
	}
	return ""
}

// ClientVersion runs `ssh -V` and returns its line (ssh prints it on
// standard error).
func ClientVersion(ctx context.Context, ssh string) string {
	var out capped
	out.max = 4096
	_, _, _ = proc.Run(ctx, proc.Spec{Argv: []string{ssh, "-V"}, Stdout: &out, Stderr: &out})
	line, _, _ := strings.Cut(strings.TrimSpace(out.String()), "\n")
	return strings.TrimSpace(line)
}

// Offered runs `ssh -Q cipher`: the ciphers this ssh offers.
func Offered(ctx context.Context, ssh string) ([]string, error) {
	var out, errOut capped
	out.max, errOut.max = 64<<10, 4096
	exit, _, err := proc.Run(ctx, proc.Spec{Argv: []string{ssh, "-Q", "cipher"}, Stdout: &out, Stderr: &errOut})
	if err != nil {
		return nil, err
	}
	if exit.Code != 0 {
		return nil, fmt.Errorf("ssh -Q cipher: exit status %d: %s", exit.Code, strings.TrimSpace(errOut.String()))
	}
	return ParseQuery(out.String())
}

// Server is a throwaway sshd on 127.0.0.1.
type Server struct {
	tools Tools
	dir   string
	port  int
	user  string
	// NoPrivsepDir says /run/sshd was missing, so that sshd runs in a
	// private mount namespace with its own empty /run.
	NoPrivsepDir bool

	cancel context.CancelFunc
	done   chan struct{}
	log    *capped
	once   sync.Once
}

// startTimeout bounds the wait for sshd to listen.
const startTimeout = 30 * time.Second

// privsepDir is the directory sshd needs when started as root (compiled
// into Debian's sshd).
const privsepDir = "/run/sshd"

// Start makes the temporary directory with the keys and the configuration
// and starts sshd on a free port of 127.0.0.1. Stop must be called
// whatever happens; cancelling ctx stops sshd too.
func Start(ctx context.Context, t Tools) (*Server, error) {
	u, err := user.Current()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "boardbench-sshd-")
	if err != nil {
		return nil, err
	}
	s := &Server{tools: t, dir: dir, user: u.Username, done: make(chan struct{})}
	close(s.done) // nothing started yet
	if err := s.keys(ctx); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	if os.Geteuid() == 0 {
		if _, err := os.Stat(privsepDir); errors.Is(err, os.ErrNotExist) {
			s.NoPrivsepDir = true
		}
	}
	for try := 0; ; try++ {
		err = s.start(ctx)
		if err == nil {
			return s, nil
		}
		if try >= 2 || ctx.Err() != nil || !strings.Contains(err.Error(), "in use") {
			s.Stop()
			return nil, err
		}
	}
}

// keys writes the host key, the client key, authorized_keys.
func (s *Server) keys(ctx context.Context) error {
	for _, name := range []string{"host_ed25519", "client_ed25519"} {
		var out capped
		out.max = 4096
		exit, _, err := proc.Run(ctx, proc.Spec{Argv: []string{s.tools.Keygen, "-q", "-t", "ed25519", "-N", "", "-C", "boardbench", "-f", filepath.Join(s.dir, name)},
			Stdout: &out, Stderr: &out})
		if err == nil && exit.Code != 0 {
			err = fmt.Errorf("ssh-keygen: exit status %d: %s", exit.Code, strings.TrimSpace(out.String()))
		}
		if err != nil {
			return err
		}
	}
	pub, err := os.ReadFile(filepath.Join(s.dir, "client_ed25519.pub"))
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(s.dir, "authorized_keys"), pub, 0o600)
}

// Config returns the server's sshd_config for port: the loopback address
// only, its own keys and pid file, public keys only, no PAM, no
// forwarding, and the ciphers of Ciphers.
func (s *Server) Config(port int) string {
	p := func(name string) string { return filepath.Join(s.dir, name) }
	lines := []string{
		"ListenAddress 127.0.0.1",
		"Port " + strconv.Itoa(port),
		"HostKey " + p("host_ed25519"),
		"PidFile " + p("sshd.pid"),
		"AuthorizedKeysFile " + p("authorized_keys"),
		"AuthorizedPrincipalsFile none",
		"AllowUsers " + s.user,
		"PubkeyAuthentication yes",
		"PasswordAuthentication no",
		"KbdInteractiveAuthentication no",
		"HostbasedAuthentication no",
		"UsePAM no",
		// The temporary directory is not the user's home: its owner and
		// modes are not the ones sshd checks there.
		"StrictModes no",
		"PermitRootLogin prohibit-password",
		"AllowTcpForwarding no",
		"AllowAgentForwarding no",
		"X11Forwarding no",
		"PermitTunnel no",
		"PermitTTY no",
		"PermitUserRC no",
		"PrintMotd no",
		"UseDNS no",
		"Compression no",
		"MaxStartups 4",
		"LoginGraceTime 60",
		"Ciphers " + strings.Join(Ciphers, ","),
	}
	return strings.Join(lines, "\n") + "\n"
}

// start writes the configuration for a free port and starts sshd.
func (s *Server) start(ctx context.Context) error {
	port, err := freePort()
	if err != nil {
		return err
	}
	s.port = port
	if s.cancel != nil {
		s.cancel() // an earlier try's sshd, already gone
	}
	cfg := filepath.Join(s.dir, "sshd_config")
	if err := os.WriteFile(cfg, []byte(s.Config(port)), 0o600); err != nil {
		return err
	}
	known := fmt.Sprintf("[127.0.0.1]:%d ", port)
	hostPub, err := os.ReadFile(filepath.Join(s.dir, "host_ed25519.pub"))
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(s.dir, "known_hosts"), append([]byte(known), hostPub...), 0o600); err != nil {
		return err
	}
	argv := []string{s.tools.SSHD, "-D", "-e", "-f", cfg}
	if s.NoPrivsepDir {
		// sshd as root needs /run/sshd. Rather than create it on the
		// system, sshd runs in a private mount namespace whose /run is an
		// empty tmpfs holding it: nothing outside changes, and the
		// namespace ends with sshd.
		argv = append([]string{"unshare", "--mount", "--propagation", "private", "--", "sh", "-c",
			`mount -t tmpfs -o mode=0755,size=1m boardbench-sshd /run && mkdir -m 0755 /run/sshd && exec "$0" "$@"`}, argv...)
	}
	sctx, cancel := context.WithCancel(ctx)
	s.log = &capped{max: 64 << 10}
	h, err := proc.Start(sctx, proc.Spec{Argv: argv, Stdout: s.log, Stderr: s.log})
	if err != nil {
		cancel()
		return fmt.Errorf("starting sshd: %w", err)
	}
	done := make(chan struct{})
	go func() { _, _ = h.Wait(); close(done) }()
	s.cancel, s.done = cancel, done
	deadline := time.Now().Add(startTimeout)
	for {
		select {
		case <-done:
			return fmt.Errorf("sshd exited at the start: %s", lastLines(s.log.String(), 3))
		case <-ctx.Done():
			return ctx.Err()
		default:
		}
		if c, err := net.DialTimeout("tcp", s.Addr(), time.Second); err == nil {
			c.Close()
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("sshd did not listen on %s within %s: %s", s.Addr(), startTimeout, lastLines(s.log.String(), 3))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Addr is the server's address.
func (s *Server) Addr() string { return net.JoinHostPort("127.0.0.1", strconv.Itoa(s.port)) }

// Dir is the server's temporary directory (removed by Stop).
func (s *Server) Dir() string { return s.dir }

// Log is what sshd printed so far (bounded).
func (s *Server) Log() string { return s.log.String() }

// Stop stops sshd and everything it started, waits for them and removes
// the temporary directory. It may be called more than once.
func (s *Server) Stop() {
	s.once.Do(func() {
		if s.cancel != nil {
			s.cancel()
		}
		<-s.done
		os.RemoveAll(s.dir)
	})
}

// freePort asks the kernel for a free port of 127.0.0.1.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// Transfer is one cipher's measurement.
type Transfer struct {
	Cipher string
	Argv   []string
	// Sent is what ssh read of the data; Bytes what was to be sent.
	Sent, Bytes int64
	// Duration is the whole ssh process, from its start to its exit: ssh
	// reads its input while it connects, so the connection and the key
	// exchange count (as they do in `dd | ssh`).
	Duration time.Duration
	Exit     proc.Exit
	Stderr   string
}

// MBs is the throughput in MB/s (10^6 bytes per second); ok is false when
// the transfer did not complete.
func (t Transfer) MBs() (float64, bool) {
	if t.Sent != t.Bytes || t.Duration <= 0 || t.Exit.Code != 0 {
		return 0, false
	}
	return float64(t.Sent) / 1e6 / t.Duration.Seconds(), true
}

// Measure sends n bytes through ssh with cipher to `cat > /dev/null` on
// the server.
func (s *Server) Measure(ctx context.Context, cipher string, n int64) (Transfer, error) {
	tr := Transfer{Cipher: cipher, Bytes: n}
	tr.Argv = []string{s.tools.SSH, "-F", "/dev/null",
		"-p", strconv.Itoa(s.port), "-l", s.user,
		"-i", filepath.Join(s.dir, "client_ed25519"),
		"-o", "IdentitiesOnly=yes", "-o", "IdentityAgent=none", "-o", "BatchMode=yes",
		"-o", "StrictHostKeyChecking=yes", "-o", "UserKnownHostsFile=" + filepath.Join(s.dir, "known_hosts"),
		"-o", "GlobalKnownHostsFile=/dev/null", "-o", "UpdateHostKeys=no",
		"-o", "Compression=no", "-o", "ForwardAgent=no", "-o", "ForwardX11=no", "-o", "ClearAllForwardings=yes",
		"-o", "ControlMaster=no", "-o", "ControlPath=none", "-o", "ConnectTimeout=30", "-o", "LogLevel=ERROR",
		"-c", cipher, "-T", "127.0.0.1", "cat > /dev/null"}
	src := newSource(n)
	var errOut capped
	errOut.max = 16 << 10
	start := time.Now()
	exit, _, err := proc.Run(ctx, proc.Spec{Argv: tr.Argv, Stdin: src, Stderr: &errOut})
	end := time.Now()
	tr.Exit, tr.Stderr, tr.Sent, tr.Duration = exit, strings.TrimSpace(errOut.String()), src.sent, end.Sub(start)
	switch {
	case err != nil:
		return tr, err
	case exit.Code != 0:
		return tr, fmt.Errorf("ssh -c %s: exit status %d: %s", cipher, exit.Code, lastLines(tr.Stderr, 1))
	case tr.Sent != n:
		return tr, fmt.Errorf("ssh -c %s: sent %d of %d bytes", cipher, tr.Sent, n)
	}
	return tr, nil
}

// source yields n bytes of pseudo-random data (a fixed 1 MiB block,
// repeated).
type source struct {
	block []byte
	left  int64
	sent  int64
}

func newSource(n int64) *source {
	r := rand.New(rand.NewChaCha8([32]byte{'b', 'o', 'a', 'r', 'd', 'b', 'e', 'n', 'c', 'h'}))
	b := make([]byte, 1<<20)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return &source{block: b, left: n}
}

func (s *source) Read(p []byte) (int, error) {
	if s.left <= 0 {
		return 0, io.EOF
	}
	off := int(s.sent % int64(len(s.block)))
	k := copy(p, s.block[off:])
	k = int(min(int64(k), s.left))
	s.left -= int64(k)
	s.sent += int64(k)
	return k, nil
}

// capped keeps the first max bytes written to it; it is safe for the two
// output streams of one process.
type capped struct {
	mu  sync.Mutex
	buf bytes.Buffer
	max int
}

func (c *capped) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if room := c.max - c.buf.Len(); room > 0 {
		c.buf.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}

func (c *capped) String() string {
	if c == nil {
		return ""
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.buf.String()
}

// lastLines returns the last n non-empty lines of s joined by "; ".
func lastLines(s string, n int) string {
	var out []string
	for _, l := range strings.Split(strings.TrimSpace(s), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	if len(out) > n {
		out = out[len(out)-n:]
	}
	if len(out) == 0 {
		return "no output"
	}
	return strings.Join(out, "; ")
}
