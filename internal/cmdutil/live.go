package cmdutil

import "boardbench/internal/host"

// LiveHost opens the live machine (/) for a command that measures the
// machine it runs on; a host that is not the live system (a recorded
// root) is bad input, reported as a UsageError carrying notLive.
func (f *Factory) LiveHost(notLive error) (*host.Host, error) {
	h, err := f.NewHost("/")
	if err != nil {
		return nil, err
	}
	if !h.Live() {
		return nil, &UsageError{Err: notLive}
	}
	return h, nil
}
