package host

import (
	"encoding/binary"
	"fmt"
	"io/fs"
	"os"
	"runtime"
	"sync"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"

	"boardbench/internal/vcmailbox"
)

// FirmwareMailboxPath is the Raspberry Pi firmware's property mailbox: a
// character device of the Raspberry Pi kernels (usually root:video, mode
// 0660), one ioctl per property message.
const FirmwareMailboxPath = "/dev/vcio"

// ioctlMboxProperty is the mailbox's ioctl, _IOWR(100, 0, char *): the
// argument is the message's address, so its size field is a pointer's
// (0xC0086400 on 64-bit, 0xC0046400 on 32-bit ARM).
const ioctlMboxProperty = 3<<30 | uintptr(unsafe.Sizeof(uintptr(0)))<<16 | 100<<8 | 0

// FirmwareMailbox is the Raspberry Pi firmware's property mailbox, open.
// It passes only the questions on the mailbox allow-list (mailboxAllowed)
// to the firmware. Safe for concurrent use.
type FirmwareMailbox struct {
	mu sync.Mutex
	f  *os.File
}

// OpenFirmwareMailbox opens the firmware's property mailbox of the live
// system. On a fixture root it returns ErrNotLive without touching the
// device: a recorded machine's firmware cannot be asked, and the running
// machine's must not be asked in its place. A FIFO, link or regular file
// in the device's place is refused without blocking.
func (h *Host) OpenFirmwareMailbox() (*FirmwareMailbox, error) {
	if !h.live {
		return nil, &fs.PathError{Op: "open", Path: FirmwareMailboxPath, Err: ErrNotLive}
	}
	f, err := os.OpenFile(FirmwareMailboxPath, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil || st.Mode()&fs.ModeCharDevice == 0 {
		f.Close()
		return nil, &fs.PathError{Op: "open", Path: FirmwareMailboxPath, Err: fmt.Errorf("not a character device")}
	}
	return &FirmwareMailbox{f: f}, nil
}

// Property sends one property message and leaves the firmware's answer in
// msg. The message must be well formed (its size word is its length: the
// kernel copies that many bytes from and to msg) and hold only tags on the
// mailbox allow-list; anything else is refused before the device sees it.
func (m *FirmwareMailbox) Property(msg []byte) error {
	if err := mailboxAllowed(msg); err != nil {
		return err
	}
	// The kernel reads the size word in the CPU's order.
	if int(binary.NativeEndian.Uint32(msg)) != len(msg) {
		return fmt.Errorf("%s: size word in the wrong byte order", FirmwareMailboxPath)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.f == nil {
		return &fs.PathError{Op: "ioctl", Path: FirmwareMailboxPath, Err: fs.ErrClosed}
	}
	sc, err := m.f.SyscallConn()
	if err != nil {
		return err
	}
	var errno syscall.Errno
	err = sc.Control(func(fd uintptr) {
		_, _, errno = unix.Syscall(unix.SYS_IOCTL, fd, ioctlMboxProperty, uintptr(unsafe.Pointer(&msg[0])))
	})
	runtime.KeepAlive(msg)
	if err != nil {
		return err
	}
	if errno != 0 {
		return &fs.PathError{Op: "ioctl", Path: FirmwareMailboxPath, Err: errno}
	}
	return nil
}

// Close closes the mailbox; later messages fail.
func (m *FirmwareMailbox) Close() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.f == nil {
		return nil
	}
	err := m.f.Close()
	m.f = nil
	return err
}

// mailboxAllowed checks a property message against the mailbox allow-list:
// a well-formed request whose tags are all firmware general commands
// (vcmailbox.TagGetGencmdResult) on gencmdAllowed.
func mailboxAllowed(msg []byte) error {
	tags, err := vcmailbox.RequestTags(msg)
	if err != nil {
		return fmt.Errorf("%s: %w", FirmwareMailboxPath, err)
	}
	if len(tags) == 0 {
		return fmt.Errorf("%s: a message without tags", FirmwareMailboxPath)
	}
	for _, t := range tags {
		if t.Tag != vcmailbox.TagGetGencmdResult {
			return fmt.Errorf("%s: tag %#08x: %w", FirmwareMailboxPath, t.Tag, ErrNotAllowed)
		}
		if cmd := vcmailbox.GencmdText(t.Value); !gencmdAllowed(cmd) {
			return fmt.Errorf("%s: gencmd %q: %w", FirmwareMailboxPath, truncate(cmd, 40), ErrNotAllowed)
		}
	}
	return nil
}

// FirmwareMailboxOpener returns OpenFirmwareMailbox as a vcmailbox.Opener
// (for vcmailbox.NewClient).
func (h *Host) FirmwareMailboxOpener() vcmailbox.Opener {
	return func() (vcmailbox.Device, error) {
		mb, err := h.OpenFirmwareMailbox()
		if err != nil {
			return nil, err // a nil interface, not a typed nil
		}
		return mb, nil
	}
}
