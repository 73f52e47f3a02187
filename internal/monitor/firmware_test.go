package monitor

import (
	"context"
	"fmt"
	"io/fs"
	"testing"

	"boardbench/internal/host"
	"boardbench/internal/inventory"
	"boardbench/internal/inventory/rpi"
	"boardbench/internal/testutil/fakemailbox"
	"boardbench/internal/testutil/fixture"
	"boardbench/internal/vcmailbox"
)

// mailboxAnswers differ from vcgencmdFiles, so a sample shows its source.
func mailboxAnswers() map[string]string {
	return map[string]string{
		"measure_clock arm":  "frequency(48)=1200000000",
		"get_throttled":      "throttled=0x0",
		"measure_volts core": "volt=0.8350V",
	}
}

// TestSamplerUsesMailbox: where the mailbox answers, the sampler asks the
// firmware through it (same fields and units as vcgencmd's answers), runs
// no process, opens the device once for its whole life and closes it when
// sampling stops.
func TestSamplerUsesMailbox(t *testing.T) {
	rec := host.NewRecorder()
	h := fixture.Host(t, vcgencmdFiles())
	h = fixture.Open(t, h.Root(), host.WithRecorder(rec))
	mb := &fakemailbox.Firmware{Answers: mailboxAnswers()}
	fw := firmwareFor(h, mb.Open)
	if FirmwareSource(fw) != SourceMailbox {
		t.Fatalf("source = %q, want the mailbox", FirmwareSource(fw))
	}
	if opened, closed := mb.Counts(); opened != 1 || closed != 1 {
		t.Errorf("choosing the source: opened %d, closed %d; want the device closed again", opened, closed)
	}
	m := New(h, Config{Firmware: fw})
	ctx := context.Background()
	w := m.Begin(ctx, "phase")
	var samples []Sample
	for i := 0; i < 3; i++ {
		samples = append(samples, m.SampleNow(ctx))
	}
	ev := w.End(ctx)
	for _, s := range samples {
		if s.FirmwareMHz == nil || *s.FirmwareMHz != 1200 || s.CoreVolts == nil || *s.CoreVolts != 0.835 || s.Throttled == nil || *s.Throttled != 0 {
			t.Fatalf("sample = firmware %s MHz, %s V, throttled %s; want the mailbox's 1200 MHz, 0.835 V, 0", show(s.FirmwareMHz), show(s.CoreVolts), show(s.Throttled))
		}
	}
	if ev.ThrottledBefore == nil || ev.ThrottledAfter == nil || *ev.ThrottledAfter != 0 {
		t.Errorf("throttled before/after = %v/%v", ev.ThrottledBefore, ev.ThrottledAfter)
	}
	if cmds := rec.Snapshot().Commands; len(cmds) != 0 {
		t.Errorf("commands run while sampling through the mailbox: %v", host.SortedKeys(cmds))
	}
	if opened, closed := mb.Counts(); opened != 2 || closed != 1 {
		t.Errorf("sampling: opened %d, closed %d; want one more open, kept open", opened, closed)
	}
	// Run closes the device when sampling stops.
	done, cancel := context.WithCancel(ctx)
	cancel()
	m.Run(done, nil)
	if _, closed := mb.Counts(); closed != 2 {
		t.Errorf("after Run: closed %d times, want 2", closed)
	}
}

// TestMailboxFallsBackToVcgencmd: a mailbox that cannot be opened (not a
// Raspberry Pi, no permission) or does not answer the general command
// (older firmware) leaves the firmware to vcgencmd.
func TestMailboxFallsBackToVcgencmd(t *testing.T) {
	h := fixture.Host(t, vcgencmdFiles())
	denied := func() (vcmailbox.Device, error) {
		return nil, &fs.PathError{Op: "open", Path: host.FirmwareMailboxPath, Err: fs.ErrPermission}
	}
	old := &fakemailbox.Firmware{Old: true}
	wrong := &fakemailbox.Firmware{Answers: map[string]string{"get_throttled": "something else"}}
	for name, open := range map[string]vcmailbox.Opener{"no permission": denied, "older firmware": old.Open, "unexpected answer": wrong.Open} {
		fw := firmwareFor(h, open)
		if FirmwareSource(fw) != SourceVcgencmd {
			t.Errorf("%s: source = %q, want vcgencmd", name, FirmwareSource(fw))
			continue
		}
		s := New(h, Config{Firmware: fw}).SampleNow(context.Background())
		if s.FirmwareMHz == nil || *s.FirmwareMHz != 1500.398464 || s.Throttled == nil || *s.Throttled != 0x50005 {
			t.Errorf("%s: sample = %v MHz, throttled %v; want vcgencmd's", name, s.FirmwareMHz, s.Throttled)
		}
	}
	for _, f := range []*fakemailbox.Firmware{old, wrong} {
		if opened, closed := f.Counts(); opened != 1 || closed != 1 {
			t.Errorf("a mailbox that did not answer: opened %d, closed %d", opened, closed)
		}
	}
	// Neither the mailbox nor vcgencmd: no firmware (a nil interface).
	if fw := firmwareFor(fixture.Host(t, nil), denied); fw != nil {
		t.Errorf("firmware = %#v", fw)
	}
}

// TestConfigForFixtureRootNeverMailbox: on a fixture root the firmware is
// the recorded vcgencmd outputs, never a mailbox (least of all the running
// machine's).
func TestConfigForFixtureRootNeverMailbox(t *testing.T) {
	h := fixture.Host(t, vcgencmdFiles())
	cfg := ConfigFor(h, &inventory.Info{RaspberryPi: &rpi.Firmware{ArmClockMHz: fp(1500)}})
	if FirmwareSource(cfg.Firmware) != SourceVcgencmd {
		t.Errorf("source = %q, want vcgencmd", FirmwareSource(cfg.Firmware))
	}
	if FirmwareSource(nil) != "" || FirmwareSource(&fakeFirmware{}) != "" {
		t.Error("FirmwareSource of nil or another Firmware must be empty")
	}
}

// TestMailboxFirmwareErrors: a firmware error through the mailbox is a
// missing value, as through vcgencmd.
func TestMailboxFirmwareErrors(t *testing.T) {
	mb := &fakemailbox.Firmware{Answers: map[string]string{"get_throttled": "throttled=0x0", "measure_clock arm": "frequency(48)=0"}}
	fw := firmwareFor(fixture.Host(t, nil), mb.Open)
	if FirmwareSource(fw) != SourceMailbox {
		t.Fatalf("source = %q", FirmwareSource(fw))
	}
	s := New(fixture.Host(t, nil), Config{Firmware: fw}).SampleNow(context.Background())
	if s.FirmwareMHz != nil || s.CoreVolts != nil || s.Throttled == nil {
		t.Errorf("sample = %v MHz (0 Hz is no clock), %v V (firmware error), throttled %v", s.FirmwareMHz, s.CoreVolts, s.Throttled)
	}
}

// show prints a sampled value or nil.
func show[T any](v *T) string {
	if v == nil {
		return "nil"
	}
	return fmt.Sprint(*v)
}
