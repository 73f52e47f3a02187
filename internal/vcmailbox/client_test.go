package vcmailbox

import (
	"errors"
	"strings"
	"testing"
)

// fakeDevice answers gencmds from a table, as the firmware would.
type fakeDevice struct {
	answers map[string]string
	asked   []string
	closed  int
	err     error
}

func (d *fakeDevice) Property(msg []byte) error {
	if d.err != nil {
		return d.err
	}
	cmd := string(msg[24:])
	cmd = cmd[:strings.IndexByte(cmd, 0)]
	d.asked = append(d.asked, cmd)
	text, ok := d.answers[cmd]
	if !ok {
		fill(msg, 1, `error=1 error_msg="Command not registered"`)
		return nil
	}
	fill(msg, 0, text)
	return nil
}

func (d *fakeDevice) Close() error { d.closed++; return nil }

func TestClient(t *testing.T) {
	dev := &fakeDevice{answers: map[string]string{"get_throttled": "throttled=0x0", "measure_clock arm": "frequency(48)=1500345728"}}
	opened := 0
	c := NewClient(func() (Device, error) { opened++; return dev, nil })
	for i := 0; i < 3; i++ {
		if got, err := c.Gencmd("get_throttled"); err != nil || got != "throttled=0x0" {
			t.Fatalf("get_throttled = %q, %v", got, err)
		}
		// A longer command first, then a shorter one: the reused buffer
		// must not keep the tail of the longer one.
		if got, err := c.Gencmd("measure_clock arm"); err != nil || got != "frequency(48)=1500345728" {
			t.Fatalf("measure_clock arm = %q, %v", got, err)
		}
	}
	if opened != 1 {
		t.Errorf("device opened %d times for 6 questions, want once", opened)
	}
	if want := strings.TrimSuffix(strings.Repeat("get_throttled,measure_clock arm,", 3), ","); strings.Join(dev.asked, ",") != want {
		t.Errorf("asked %q", dev.asked)
	}
	var ge *GencmdError
	if _, err := c.Gencmd("nope"); !errors.As(err, &ge) || ge.Code != 1 {
		t.Errorf("unknown command: err = %v", err)
	}
	if err := c.Close(); err != nil || dev.closed != 1 {
		t.Errorf("Close: %v, closed %d times", err, dev.closed)
	}
	if err := c.Close(); err != nil || dev.closed != 1 {
		t.Errorf("second Close: %v, closed %d times", err, dev.closed)
	}
	// Asked again after Close: opened again.
	if _, err := c.Gencmd("get_throttled"); err != nil || opened != 2 {
		t.Errorf("after Close: %v, opened %d times", err, opened)
	}

	dev.err = errors.New("ioctl: input/output error")
	if _, err := c.Gencmd("get_throttled"); err == nil || !strings.Contains(err.Error(), "input/output error") {
		t.Errorf("device error: err = %v", err)
	}
	denied := errors.New("open /dev/vcio: permission denied")
	c = NewClient(func() (Device, error) { return nil, denied })
	if _, err := c.Gencmd("get_throttled"); !errors.Is(err, denied) {
		t.Errorf("open error: err = %v", err)
	}
	if _, err := c.Gencmd(""); !errors.Is(err, ErrMalformed) {
		t.Errorf("empty command: err = %v", err)
	}
}
