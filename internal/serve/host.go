package serve

import (
	"fmt"
	"net"
	"net/http"
	"strings"
)

// HostPolicy says which Host headers the server answers, against DNS
// rebinding: a page of another site whose name an attacker points at
// this address would send that name, and is refused (421).
type HostPolicy struct {
	names    map[string]bool
	ips      map[string]bool
	anyIP    bool
	loopback bool
}

// NewHostPolicy returns the policy of a server listening on listen
// (HOST:PORT): the listen host (a name or an address) is allowed; a
// loopback listen (127.0.0.0/8, ::1, localhost) also allows "localhost"
// and the loopback addresses; a listen on every address (0.0.0.0, ::, no
// host) allows any address literal and "localhost". extra are names (or
// addresses) --allow-host adds. The port of a Host header is not checked.
func NewHostPolicy(listen string, extra []string) (*HostPolicy, error) {
	host, _, err := net.SplitHostPort(listen)
	if err != nil {
		return nil, fmt.Errorf("listen address %q: %v", listen, err)
	}
	p := &HostPolicy{names: map[string]bool{}, ips: map[string]bool{}}
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	ip := net.ParseIP(host)
	switch {
	case host == "" || ip != nil && ip.IsUnspecified():
		p.anyIP, p.loopback = true, true
	case ip != nil:
		p.ips[ip.String()] = true
		p.loopback = ip.IsLoopback()
	default:
		p.names[host] = true
		p.loopback = host == "localhost"
	}
	for _, h := range extra {
		h = strings.ToLower(strings.TrimSuffix(strings.TrimSpace(h), "."))
		if hh, _, err := net.SplitHostPort(h); err == nil {
			h = hh
		}
		h = strings.TrimSuffix(strings.TrimPrefix(h, "["), "]")
		if h == "" || strings.ContainsAny(h, "/ \t") {
			return nil, fmt.Errorf("--allow-host %q: want a host name or an address", h)
		}
		if ip := net.ParseIP(h); ip != nil {
			p.ips[ip.String()] = true
		} else {
			p.names[h] = true
		}
	}
	return p, nil
}

// Allows reports whether a request whose Host header is hostHeader is
// answered. An empty header (HTTP/1.0 without Host: no browser sends
// such a request) is allowed.
func (p *HostPolicy) Allows(hostHeader string) bool {
	if hostHeader == "" {
		return true
	}
	h := strings.ToLower(hostHeader)
	if hh, _, err := net.SplitHostPort(h); err == nil {
		h = hh
	}
	h = strings.TrimSuffix(strings.TrimSuffix(strings.TrimPrefix(h, "["), "]"), ".")
	if ip := net.ParseIP(h); ip != nil {
		return p.anyIP || p.ips[ip.String()] || p.loopback && ip.IsLoopback()
	}
	return p.names[h] || p.loopback && h == "localhost"
}

// checkHost answers 421 to a request whose Host the policy refuses.
func (s *Server) checkHost(w http.ResponseWriter, r *http.Request) bool {
	if s.cfg.Hosts == nil || s.cfg.Hosts.Allows(r.Host) {
		return true
	}
	s.errorPage(w, http.StatusMisdirectedRequest, "Unknown host name",
		"This server does not answer to this host name. Its owner can allow it with boardbench serve --allow-host NAME.")
	return false
}
