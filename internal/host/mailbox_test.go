package host

import (
	"encoding/binary"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"unsafe"

	"boardbench/internal/vcmailbox"
)

func TestIoctlMboxProperty(t *testing.T) {
	want := uintptr(0xC0046400) // 32-bit: a 4-byte pointer
	if unsafe.Sizeof(uintptr(0)) == 8 {
		want = 0xC0086400
	}
	if ioctlMboxProperty != want {
		t.Errorf("IOCTL_MBOX_PROPERTY = %#x, want %#x", ioctlMboxProperty, want)
	}
}

// TestFirmwareMailboxNeverOnFixtureRoot: a recorded root's device node is
// never opened, nor the running machine's in its place.
func TestFirmwareMailboxNeverOnFixtureRoot(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "dev"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "dev", "vcio"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	h, err := New(root)
	if err != nil {
		t.Fatal(err)
	}
	if mb, err := h.OpenFirmwareMailbox(); mb != nil || !errors.Is(err, ErrNotLive) {
		t.Errorf("fixture root: mailbox %v, err %v; want ErrNotLive", mb, err)
	}
}

// TestFirmwareMailboxLiveWithoutDevice: where the machine has no mailbox
// (any machine but a Raspberry Pi), opening it is an error.
func TestFirmwareMailboxLiveWithoutDevice(t *testing.T) {
	if _, err := os.Lstat(FirmwareMailboxPath); !errors.Is(err, fs.ErrNotExist) {
		t.Skipf("%s exists here: this test is for machines without it", FirmwareMailboxPath)
	}
	h, err := New("/")
	if err != nil {
		t.Fatal(err)
	}
	if mb, err := h.OpenFirmwareMailbox(); mb != nil || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("mailbox %v, err %v; want not exist", mb, err)
	}
}

func gencmd(t *testing.T, cmd string) []byte {
	t.Helper()
	msg, err := vcmailbox.GencmdRequest(cmd)
	if err != nil {
		t.Fatal(err)
	}
	return msg
}

func TestMailboxAllowList(t *testing.T) {
	setClock, _ := vcmailbox.Encode(vcmailbox.Request{Tag: 0x00038002, Value: make([]byte, 12), BufferBytes: 12})
	throttled, _ := vcmailbox.Encode(vcmailbox.Request{Tag: vcmailbox.TagGetThrottled, Value: make([]byte, 4), BufferBytes: 4})
	twoTags, _ := vcmailbox.Encode(
		vcmailbox.Request{Tag: vcmailbox.TagGetGencmdResult, Value: append(make([]byte, 4), "get_throttled"...), BufferBytes: 1024},
		vcmailbox.Request{Tag: 0x00038002, Value: make([]byte, 12), BufferBytes: 12})
	empty, _ := vcmailbox.Encode()
	lying := gencmd(t, "get_throttled")
	binary.LittleEndian.PutUint32(lying, 1<<20) // the kernel would copy 1 MiB
	tests := []struct {
		name string
		msg  []byte
		ok   bool
	}{
		{"get_throttled", gencmd(t, "get_throttled"), true},
		{"measure_clock arm", gencmd(t, "measure_clock arm"), true},
		{"measure_volts core", gencmd(t, "measure_volts core"), true},
		{"pmic_read_adc", gencmd(t, "pmic_read_adc"), true},
		{"a command that changes something", gencmd(t, "display_power 0"), false},
		{"an allowed command with more after it", gencmd(t, "get_throttled 0x7"), false},
		{"set clock rate tag", setClock, false},
		{"a tag other than gencmd", throttled, false},
		{"an allowed gencmd with a refused tag", twoTags, false},
		{"no tags", empty, false},
		{"size word larger than the buffer", lying, false},
		{"short", []byte{1, 2, 3}, false},
		{"nil", nil, false},
	}
	for _, tt := range tests {
		err := mailboxAllowed(tt.msg)
		if (err == nil) != tt.ok {
			t.Errorf("%s: err = %v, want allowed %v", tt.name, err, tt.ok)
		}
	}
}

func TestFirmwareMailboxClosed(t *testing.T) {
	var mb FirmwareMailbox // as after Close
	if err := mb.Property(gencmd(t, "get_throttled")); !errors.Is(err, fs.ErrClosed) {
		t.Errorf("closed mailbox: err = %v", err)
	}
	if err := mb.Property(gencmd(t, "display_power 0")); !errors.Is(err, ErrNotAllowed) {
		t.Errorf("refused command on a closed mailbox: err = %v, want ErrNotAllowed first", err)
	}
	if err := mb.Close(); err != nil {
		t.Errorf("Close of a closed mailbox: %v", err)
	}
}

// TestFirmwareMailboxIoctl sends an allowed message through the ioctl to
// a device that knows no such ioctl (/dev/null): the kernel's error comes
// back as an error, nothing else happens.
func TestFirmwareMailboxIoctl(t *testing.T) {
	f, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	mb := &FirmwareMailbox{f: f}
	defer mb.Close()
	if err := mb.Property(gencmd(t, "get_throttled")); err == nil {
		t.Error("an ioctl /dev/null does not know succeeded")
	}
}
