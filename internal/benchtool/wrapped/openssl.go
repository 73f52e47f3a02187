package wrapped

import "boardbench/internal/benchtool/openssl"

// OpenSSLFigures are the result table of `openssl speed` as the runner's
// parser reads it: block sizes, one row per cipher with KB/s (1000 bytes
// per second) per block size, and the "Doing" lines when stderr was
// captured. docs/runners.md describes the fields.
type OpenSSLFigures = openssl.Result

// parseOpenSSL reads an `openssl speed` table with the runner's parser.
func parseOpenSSL(_ []string, out string, f *Figures) bool {
	r, err := openssl.Parse(out)
	if err != nil || r == nil || len(r.Rows) == 0 {
		return false
	}
	f.OpenSSL, f.Version = r, r.Version
	return true
}
