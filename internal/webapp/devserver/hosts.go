package devserver

import (
	"fmt"
	"net"
	"net/url"
	"strings"
)

// hostSet holds the names Config.AllowHosts adds to the built-in ones,
// lowercased, without a trailing dot.
type hostSet map[string]bool

// hostList checks and normalises the names of Config.AllowHosts. A name is
// a DNS name (letters, digits, hyphens, dots), given without a scheme or a
// port: the list is of hosts, whatever port the server listens on.
func hostList(names []string) (hostSet, error) {
	set := hostSet{}
	for _, name := range names {
		h := normHost(name)
		if !dnsName(h) {
			return nil, fmt.Errorf("allowed host %q: not a host name (give a name such as devbox.lan, without a scheme or a port)", name)
		}
		set[h] = true
	}
	return set, nil
}

func normHost(h string) string { return strings.TrimSuffix(strings.ToLower(h), ".") }

// dnsName reports whether h is a host name of letters, digits and
// hyphens in dot-separated labels.
func dnsName(h string) bool {
	if h == "" || len(h) > 253 {
		return false
	}
	for label := range strings.SplitSeq(h, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for _, c := range label {
			if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-') {
				return false
			}
		}
	}
	return true
}

// localName reports whether h names this machine by convention (RFC 6761):
// localhost and the names under it.
func localName(h string) bool { return h == "localhost" || strings.HasSuffix(h, ".localhost") }

// hostAllowed reports whether a request's Host header (host or host:port)
// is served: localhost, a *.localhost name, an IP address, or a name of
// the set. Any other name may be a site of the web that pointed its own
// name at this machine (DNS rebinding), whatever address the server
// listens on.
func (hs hostSet) hostAllowed(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = normHost(strings.TrimSuffix(strings.TrimPrefix(host, "["), "]"))
	return localName(host) || net.ParseIP(host) != nil || hs[host]
}

// originAllowed reports whether a page of origin may call the development
// backend, for a request addressed to reqHost (which hostAllowed passed).
// Allowed are pages on this machine by name or loopback address (any
// port, http or https: another local development server, a build served
// by a static file server), pages of a name of the set (any port, http or
// https), and the app's own pages (the origin http://HOST:PORT of the
// request itself, as under an IP address of the network). Every other
// page, "null" (a sandboxed frame, a file:// page) included, is refused.
func (hs hostSet) originAllowed(origin, reqHost string) bool {
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" || u.User != nil || u.Path != "" || u.RawQuery != "" || u.Fragment != "" {
		return false
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return false
	}
	host := normHost(u.Hostname())
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() || localName(host) || hs[host] {
		return true
	}
	return u.Scheme == "http" && strings.EqualFold(withPort(u.Host, "80"), withPort(reqHost, "80"))
}

// withPort adds port to a host that has none.
func withPort(hostport, port string) string {
	if _, _, err := net.SplitHostPort(hostport); err == nil {
		return hostport
	}
	return net.JoinHostPort(strings.TrimSuffix(strings.TrimPrefix(hostport, "["), "]"), port)
}
