package redact

import (
	"errors"
	"net/url"
	"strings"
)

// Mask replaces a password in a connection string.
const Mask = "xxxxx"

// connSecretKeys are the keys whose values are credentials in a
// PostgreSQL connection URL's query or keyword/value string (what pgx
// reads); sslkey, sslcert and passfile are paths, not secrets.
var connSecretKeys = []string{"password", "sslpassword"}

func isConnSecretKey(k string) bool {
	k = strings.ToLower(strings.TrimSpace(k))
	for _, s := range connSecretKeys {
		if k == s {
			return true
		}
	}
	return false
}

// ConnString returns s — a store given on the command line or in
// BOARDBENCH_STORE: a URL (postgres://…, or any scheme), a keyword/value
// connection string (`host=db password=…`) or a file path — with every
// credential pgx would read replaced by Mask: the password of the URL's
// user information, password= and sslpassword= in its query (their keys
// percent-decoded, as pgx decodes them: pass%77ord is password), and
// password= and sslpassword= of a keyword/value string, quoted or not. A
// path without such keys comes back unchanged. It is the one redaction of
// connection strings: every message and view that shows a store uses it.
func ConnString(s string) string {
	out, _ := connParts(s)
	return out
}

// minSecret is the shortest secret ConnText replaces in free text: a
// shorter one would mask ordinary letters of the message.
const minSecret = 3

// ConnText returns text with conn (as written) and each of its credentials
// replaced: for messages of libraries that may echo a connection string.
func ConnText(text, conn string) string {
	red, secrets := connParts(conn)
	if conn != "" && conn != red {
		text = strings.ReplaceAll(text, conn, red)
	}
	for _, s := range secrets {
		if len(s) >= minSecret {
			text = strings.ReplaceAll(text, s, Mask)
		}
	}
	return text
}

// connError is an error whose message had a connection string's
// credentials removed.
type connError struct {
	msg string
	err error
}

func (e *connError) Error() string { return e.msg }
func (e *connError) Unwrap() error { return e.err }

// ConnError returns err with the credentials of conn removed from its
// message (ConnText); nil for nil. errors.Is and errors.As still see err.
func ConnError(err error, conn string) error {
	if err == nil {
		return nil
	}
	msg := ConnText(err.Error(), conn)
	if msg == err.Error() {
		return err
	}
	var ce *connError
	if errors.As(err, &ce) && ce.msg == msg {
		return err
	}
	return &connError{msg: msg, err: err}
}

// connParts returns s redacted and the credentials it hid, as written and
// decoded.
func connParts(s string) (string, []string) {
	if i := strings.Index(s, "://"); i > 0 && isScheme(s[:i]) {
		return connURL(s, i+3)
	}
	return connKeywords(s)
}

func isScheme(s string) bool {
	for i, c := range s {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
		case i > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.'):
		default:
			return false
		}
	}
	return s != ""
}

// connURL masks the user information's password and the secret query
// values of the URL s, whose authority starts at i. It does not rely on
// the URL parsing (a URL that does not parse may still hold a password):
// the user information ends at the last '@' before the query.
func connURL(s string, i int) (string, []string) {
	var secrets []string
	add := func(raw string) {
		secrets = append(secrets, raw)
		if dec, err := url.PathUnescape(raw); err == nil && dec != raw {
			secrets = append(secrets, dec)
		}
	}
	frag := ""
	if h := strings.IndexByte(s[i:], '#'); h >= 0 {
		s, frag = s[:i+h], s[i+h:]
	}
	rest, query, hasQuery := strings.Cut(s[i:], "?")
	var b strings.Builder
	b.WriteString(s[:i])
	if at := strings.LastIndexByte(rest, '@'); at >= 0 {
		user := rest[:at]
		if c := strings.IndexByte(user, ':'); c >= 0 {
			add(user[c+1:])
			user = user[:c+1] + Mask
		}
		b.WriteString(user)
		rest = rest[at:]
	}
	b.WriteString(rest)
	if hasQuery {
		b.WriteByte('?')
		for n, pair := range strings.Split(query, "&") {
			if n > 0 {
				b.WriteByte('&')
			}
			k, v, hasV := strings.Cut(pair, "=")
			dk, err := url.QueryUnescape(k)
			if err != nil {
				dk = k
			}
			if hasV && isConnSecretKey(dk) {
				add(v)
				if dv, err := url.QueryUnescape(v); err == nil && dv != v {
					secrets = append(secrets, dv)
				}
				pair = k + "=" + Mask
			}
			b.WriteString(pair)
		}
	}
	b.WriteString(frag)
	return b.String(), secrets
}

// connKeywords masks the secret values of a keyword/value connection
// string ("host=db user=bench password='a b' sslmode=require"): values
// are words or single-quoted with backslash escapes. Text that is not of
// that form (a file path) is copied unchanged.
func connKeywords(s string) (string, []string) {
	var secrets []string
	var b strings.Builder
	i := 0
	for i < len(s) {
		// Copy spaces.
		for i < len(s) && isSpace(s[i]) {
			b.WriteByte(s[i])
			i++
		}
		ks := i
		for i < len(s) && s[i] != '=' && !isSpace(s[i]) {
			i++
		}
		key := s[ks:i]
		j := i
		for j < len(s) && isSpace(s[j]) {
			j++
		}
		if j >= len(s) || s[j] != '=' {
			b.WriteString(s[ks:i])
			continue
		}
		j++
		for j < len(s) && isSpace(s[j]) {
			j++
		}
		vs := j
		var val strings.Builder
		if j < len(s) && s[j] == '\'' {
			j++
			for j < len(s) && s[j] != '\'' {
				if s[j] == '\\' && j+1 < len(s) {
					j++
				}
				val.WriteByte(s[j])
				j++
			}
			if j < len(s) {
				j++ // the closing quote
			}
		} else {
			for j < len(s) && !isSpace(s[j]) {
				val.WriteByte(s[j])
				j++
			}
		}
		if isConnSecretKey(key) {
			b.WriteString(s[ks:vs])
			b.WriteString(Mask)
			if raw := s[vs:j]; raw != "" {
				secrets = append(secrets, raw)
				if v := val.String(); v != raw {
					secrets = append(secrets, v)
				}
			}
		} else {
			b.WriteString(s[ks:j])
		}
		i = j
	}
	return b.String(), secrets
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}
