// Package sshcipher measures the throughput of ssh's ciphers: ssh sends a
// fixed amount of data boardbench generates to `cat > /dev/null` on a
// throwaway sshd that the package starts on 127.0.0.1 and stops, never the
// system's. The server has its own temporary directory with its host key,
// the client's key, its authorized_keys, sshd_config and pid file; the
// client reads no configuration (-F /dev/null) and keeps its known hosts in
// that directory. Removing the directory and stopping the server happen on
// every exit path (Server.Stop; a cancelled context stops the server's
// process tree too).
package sshcipher

import (
	"errors"
	"strings"

	"boardbench/internal/lazyre"
)

// Ciphers are the ciphers measured, in order, where the local ssh offers
// them: OpenSSH's default (chacha20-poly1305), AES-GCM and AES-CTR.
var Ciphers = []string{
	"chacha20-poly1305@openssh.com",
	"aes128-gcm@openssh.com",
	"aes256-gcm@openssh.com",
	"aes128-ctr",
	"aes256-ctr",
}

// Data sizes per cipher.
const (
	// Bytes is what a standard run sends per cipher: 1 GiB (the seed
	// sent 4 GiB; 1 GiB takes about 20 s at the Raspberry Pi 4B's 50 MB/s).
	Bytes = 1 << 30
	// QuickBytes is a quick run's size per cipher.
	QuickBytes = 32 << 20
)

// ParseQuery returns the names `ssh -Q cipher` prints, one a line; an
// error when the output holds none.
func ParseQuery(out string) ([]string, error) {
	var names []string
	for _, line := range strings.Split(out, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if !cipherName.MatchString(line) {
			return nil, errors.New("ssh -Q cipher printed an unexpected line: " + quoteShort(line))
		}
		names = append(names, line)
	}
	if len(names) == 0 {
		return nil, errors.New("ssh -Q cipher printed no cipher")
	}
	return names, nil
}

var cipherName = lazyre.Regexp(`^[a-z0-9][a-z0-9.@-]{0,63}$`)

// Choose splits want into the ciphers offered and those not.
func Choose(want, offered []string) (use, unsupported []string) {
	set := map[string]bool{}
	for _, c := range offered {
		set[c] = true
	}
	use, unsupported = []string{}, []string{}
	for _, c := range want {
		if set[c] {
			use = append(use, c)
		} else {
			unsupported = append(unsupported, c)
		}
	}
	return use, unsupported
}

// Version is the OpenSSH version of `ssh -V`'s line ("OpenSSH_9.2p1
// Debian-2+deb12u6, OpenSSL 3.0.17 1 Jul 2025" gives "9.2p1"); "" when
// the line is not OpenSSH's.
func Version(line string) string {
	m := versionRE.FindStringSubmatch(line)
	if m == nil {
		return ""
	}
	return m[1]
}

var versionRE = lazyre.Regexp(`^OpenSSH_([0-9][0-9A-Za-z.]*)`)

// quoteShort quotes s, cut to 80 bytes.
func quoteShort(s string) string {
	if len(s) > 80 {
		s = s[:80] + "…"
	}
	return `"` + strings.ToValidUTF8(s, "?") + `"`
}
