package kernelfile

import (
	"fmt"
	"strconv"
)

// Reader reads one file of the machine. *host.Host satisfies it with its
// root-relative, bounded reads that never open a FIFO or device, so the
// Read helpers of this package stay behind host's door; tests pass a map.
type Reader interface {
	ReadFile(path string) ([]byte, error)
}

// Self names the calling process in the helpers that take a process id:
// it reads /proc/self/... rather than /proc/PID/....
const Self = 0

// constError is an error whose value is its text, so that a sentinel
// error is a constant: static data that costs nothing when boardbench
// starts (errors.New would run at init). errors.Is and == match it.
type constError string

func (e constError) Error() string { return string(e) }

// ErrMalformed is wrapped by the Read helpers when a file was read but holds
// nothing of the format they parse.
const ErrMalformed = constError("malformed")

// procPath returns "/proc/PID/name", or "/proc/self/name" for Self.
func procPath(pid int, name string) string {
	if pid == Self {
		return "/proc/self/" + name
	}
	return "/proc/" + strconv.Itoa(pid) + "/" + name
}

// malformed is the error of a file that was read but could not be parsed.
func malformed(path string) error {
	return fmt.Errorf("%s: %w", path, ErrMalformed)
}
