package storagebench

import (
	"fmt"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Linux native asynchronous I/O (the io_setup, io_submit and io_getevents
// system calls that libaio wraps), called directly: with O_DIRECT the
// kernel keeps up to the queue depth of requests in flight at the device,
// the semantics of fio's ioengine=libaio.

// iocb is the kernel's struct iocb (64 bytes on every architecture; the
// key and the read/write flags, whose order depends on the byte order, are
// zero here).
type iocb struct {
	data      uint64
	key       uint32
	rwFlags   int32
	opcode    uint16
	reqPrio   int16
	fd        uint32
	buf       uint64
	nbytes    uint64
	offset    int64
	reserved2 uint64
	flags     uint32
	resFD     uint32
}

// ioEvent is the kernel's struct io_event.
type ioEvent struct {
	data uint64
	obj  uint64
	res  int64
	res2 int64
}

// Opcodes of struct iocb.
const (
	iocbCmdPread  = 0
	iocbCmdPwrite = 1
)

// aioContext is an aio_context_t with its queue depth.
type aioContext struct {
	ctx   uintptr
	depth int
}

// newAIO sets up a context for depth requests in flight.
func newAIO(depth int) (*aioContext, error) {
	var ctx uintptr
	if _, _, errno := unix.Syscall(unix.SYS_IO_SETUP, uintptr(depth), uintptr(unsafe.Pointer(&ctx)), 0); errno != 0 {
		return nil, fmt.Errorf("io_setup(%d): %w", depth, errno)
	}
	return &aioContext{ctx: ctx, depth: depth}, nil
}

// close destroys the context (waiting for requests still in flight).
func (a *aioContext) close() {
	_, _, _ = unix.Syscall(unix.SYS_IO_DESTROY, a.ctx, 0, 0)
}

// submit queues the requests; it returns how many the kernel took.
func (a *aioContext) submit(cbs []*iocb) (int, error) {
	if len(cbs) == 0 {
		return 0, nil
	}
	n, _, errno := unix.Syscall(unix.SYS_IO_SUBMIT, a.ctx, uintptr(len(cbs)), uintptr(unsafe.Pointer(&cbs[0])))
	if errno != 0 {
		return 0, fmt.Errorf("io_submit: %w", errno)
	}
	return int(n), nil
}

// wait blocks until at least one request completed and returns the
// completions (at most len(evs)).
func (a *aioContext) wait(evs []ioEvent) (int, error) {
	for {
		n, _, errno := unix.Syscall6(unix.SYS_IO_GETEVENTS, a.ctx, 1, uintptr(len(evs)), uintptr(unsafe.Pointer(&evs[0])), 0, 0)
		if errno == unix.EINTR {
			continue
		}
		if errno != 0 {
			return 0, fmt.Errorf("io_getevents: %w", errno)
		}
		return int(n), nil
	}
}
