package runtext

import (
	"bytes"
	"strings"
	"testing"

	"boardbench/internal/result"
	"boardbench/internal/textfmt"
)

func TestReportRendersWrites(t *testing.T) {
	figs := result.WritesFigures{Device: "mmcblk0p2", IntervalS: 1, DurationS: 30, Events: 1, Writes: 12, KiBWritten: 96,
		Lines: []result.WritesLine{{Time: "2021-11-14T14:43:14Z", Device: "mmcblk0p2", IntervalS: 5, Writes: 12, KiBWritten: 96,
			Writers: []result.Writer{{PID: 1234, Comm: "systemd-journal", KiB: 64}, {PID: 234567, Comm: "kworker/u8:2-ev", KiB: 16},
				{PID: 345678, Comm: "jbd2/mmcblk0p2-", KiB: 12}, {PID: 456789, Comm: "rsyslogd", KiB: 4}}}},
		TopWriters: []result.Writer{{PID: 1234, Comm: "systemd-journal", KiB: 64}},
		Advice:     []result.WritesAdvice{{ID: "journald_on_flash", Evidence: "journald writes /var/log/journal", Change: "Storage=volatile", Cost: "logs lost at power loss"}}}
	p := result.Phase{Name: result.PhaseWrites, Status: result.PhaseOK, Passive: true}
	if err := p.SetFigures(figs); err != nil {
		t.Fatal(err)
	}
	r := result.Result{Command: "writes", Status: result.StatusComplete, Phases: []result.Phase{p}}
	var b bytes.Buffer
	Render(&b, &r, false)
	out := b.String()
	for _, w := range []string{"12 writes, 96 KiB in 5 sec", "systemd-journal", "12 requests, 96 KiB",
		"journald_on_flash: journald writes /var/log/journal", "change: Storage=volatile", "cost:   logs lost at power loss"} {
		if !strings.Contains(out, w) {
			t.Errorf("report lacks %q:\n%s", w, out)
		}
	}
	if strings.Contains(out, "no text view") {
		t.Errorf("report has no text view of writes:\n%s", out)
	}
	for _, l := range strings.Split(out, "\n") {
		if n := len([]rune(l)); n > 100 {
			t.Errorf("line of %d columns: %q", n, l)
		}
	}
}

// TestWritesSummarySaysWhoseWriters: the summary says which devices'
// writers were counted and lists the writers not attributable to a device
// apart; a result of an older version keeps its "over all devices".
func TestWritesSummarySaysWhoseWriters(t *testing.T) {
	figs := result.WritesFigures{Device: "vda", DurationS: 10, AttributedDevices: []string{"dm-0", "vda", "vda1"},
		TopWriters:         []result.Writer{{PID: 10, Comm: "postgres", KiB: 64}},
		TopNotAttributable: []result.Writer{{PID: 11, Comm: "cp", KiB: 32}}}
	var b bytes.Buffer
	RenderWritesSummary(textfmt.New(&b, false), figs)
	out := b.String()
	head, tail, ok := strings.Cut(out, "writes not attributable to a device")
	if !ok || !strings.Contains(head, "postgres") || strings.Contains(head, "cp ") || !strings.Contains(tail, "cp") {
		t.Errorf("writers and writers not attributable not apart:\n%s", out)
	}
	if !strings.Contains(strings.Join(strings.Fields(out), " "), "open for writing on vda or dm-0, vda1") {
		t.Errorf("summary does not name the devices:\n%s", out)
	}
	b.Reset()
	figs.AttributedDevices, figs.TopNotAttributable = nil, nil
	RenderWritesSummary(textfmt.New(&b, false), figs)
	if out := b.String(); !strings.Contains(out, "over all devices") || strings.Contains(out, "attributable") {
		t.Errorf("an older result's summary:\n%s", out)
	}
}

func TestStorageTextSaysRegionsAndInterrupt(t *testing.T) {
	v := 1000.0
	figs := result.StorageFigures{Dir: "/srv", FileBytes: 100 << 20, FillSeconds: 2.5, WriteFileBytes: 64 << 20, CellLimitS: 1,
		CellBudgetBytes: 25 << 20, Direct: true, IRQ: "36 virtio1-req.0", IRQCPUs: []int{1},
		Table: []result.StorageRow{{RecordKiB: 16384, WriteKBs: &v, ReadKBs: &v}},
		Cells: []result.StorageCell{{RecordKiB: 16384, Test: "read", Ops: 2, Bytes: 32 << 20, Seconds: 1, StoppedBy: "time"}}}
	var b bytes.Buffer
	renderStorage(textfmt.New(&b, false), figs)
	out := b.String()
	for _, want := range []string{"interrupt: irq 36 virtio1-req.0 on cpu1", "whole 100 MiB read file, written first in 2.5 s",
		"but the byte limit only after 4 records", "as few as 2 records"} {
		if !strings.Contains(strings.Join(strings.Fields(out), " "), want) {
			t.Errorf("storage text lacks %q:\n%s", want, out)
		}
	}
}
