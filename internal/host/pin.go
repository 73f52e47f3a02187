package host

import (
	"fmt"
	"runtime"

	"golang.org/x/sys/unix"
)

// PinCurrentThread locks the calling goroutine to its OS thread and binds
// that thread to one CPU. The returned function undoes both. It fails on a
// fixture root and when the CPU cannot be used (offline, not in the allowed
// set); the goroutine is then left unlocked.
func (h *Host) PinCurrentThread(cpu int) (unpin func(), err error) {
	if !h.live {
		return nil, ErrNotLive
	}
	return PinThread(cpu)
}

// PinThread binds the calling goroutine's OS thread to cpu, see
// PinCurrentThread. It is for measurement code that has no Host at hand.
func PinThread(cpu int) (unpin func(), err error) {
	if cpu < 0 {
		return nil, fmt.Errorf("cpu %d: invalid", cpu)
	}
	runtime.LockOSThread()
	var old unix.CPUSet
	if err := unix.SchedGetaffinity(0, &old); err != nil {
		runtime.UnlockOSThread()
		return nil, fmt.Errorf("cpu %d: reading affinity: %v", cpu, err)
	}
	var set unix.CPUSet
	set.Set(cpu)
	if err := unix.SchedSetaffinity(0, &set); err != nil {
		runtime.UnlockOSThread()
		return nil, fmt.Errorf("cpu %d: cannot pin: %v", cpu, err)
	}
	return func() {
		_ = unix.SchedSetaffinity(0, &old)
		runtime.UnlockOSThread()
	}, nil
}

// BindThread binds the calling OS thread, which the caller must already have
// locked with runtime.LockOSThread, to a set of CPUs. Children started from
// this thread inherit the binding. The returned function restores the
// thread's previous binding.
func BindThread(cpus []int) (restore func() error, err error) {
	if len(cpus) == 0 {
		return nil, fmt.Errorf("no CPUs to bind to")
	}
	var old unix.CPUSet
	if err := unix.SchedGetaffinity(0, &old); err != nil {
		return nil, fmt.Errorf("reading affinity: %v", err)
	}
	var set unix.CPUSet
	for _, c := range cpus {
		if c < 0 || c >= 1024 {
			return nil, fmt.Errorf("cpu %d: invalid", c)
		}
		set.Set(c)
	}
	if err := unix.SchedSetaffinity(0, &set); err != nil {
		return nil, fmt.Errorf("cpus %v: cannot bind: %v", cpus, err)
	}
	return func() error { return unix.SchedSetaffinity(0, &old) }, nil
}

// AllowedCPUs returns the CPUs this process may run on.
func AllowedCPUs() ([]int, error) {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		return nil, err
	}
	var cpus []int
	for i := 0; i < 1024; i++ {
		if set.IsSet(i) {
			cpus = append(cpus, i)
		}
	}
	return cpus, nil
}
