package capture_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"boardbench/internal/capture"
	"boardbench/internal/host"
	"boardbench/internal/inventory"
	"boardbench/internal/testutil/fixture"
)

// describe returns the JSON of a machine description without the fields
// that differ between two descriptions of the same machine (time, root).
func describe(t *testing.T, h *host.Host, redact bool) string {
	t.Helper()
	in := inventory.Collect(h, inventory.Options{Redact: redact})
	in.Root = ""
	data, err := json.MarshalIndent(in, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	// The time stamp differs; drop that line.
	var keep []string
	for _, l := range strings.Split(string(data), "\n") {
		if !strings.Contains(l, `"collected_at"`) {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}

// TestRoundTrip captures each board fixture, unpacks the archive and checks
// that the unpacked root describes the same machine.
func TestRoundTrip(t *testing.T) {
	boards, _ := filepath.Glob("../../testdata/boards/*")
	if len(boards) == 0 {
		t.Fatal("no board fixtures in testdata/boards")
	}
	for _, dir := range boards {
		// Only fixture roots: directories with a proc/ or sys/ tree (not
		// README.md or the generator's _generator/ directory).
		isRoot := false
		for _, sub := range []string{"proc", "sys"} {
			if st, err := os.Stat(filepath.Join(dir, sub)); err == nil && st.IsDir() {
				isRoot = true
			}
		}
		if !isRoot {
			continue
		}
		t.Run(filepath.Base(dir), func(t *testing.T) {
			orig := fixture.Open(t, dir)
			want := describe(t, orig, true)

			rec := host.NewRecorder()
			h, _ := host.New(dir, host.WithRecorder(rec))
			inventory.Collect(h, inventory.Options{Redact: true})
			var buf bytes.Buffer
			if err := capture.Write(&buf, rec.Snapshot(), capture.Options{Redact: true}); err != nil {
				t.Fatal(err)
			}
			out := t.TempDir()
			if err := capture.Extract(bytes.NewReader(buf.Bytes()), out); err != nil {
				t.Fatal(err)
			}
			back := fixture.Open(t, out)
			if got := describe(t, back, true); got != want {
				t.Errorf("unpacked capture describes a different machine:\n%s", firstDiff(want, got))
			}
		})
	}
}

func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(al) && i < len(bl); i++ {
		if al[i] != bl[i] {
			lo := max(0, i-3)
			return "line " + strconv.Itoa(i) + ":\nwant: " + strings.Join(al[lo:min(len(al), i+3)], "\n      ") + "\ngot:  " + strings.Join(bl[lo:min(len(bl), i+3)], "\n      ")
		}
	}
	return "lengths differ"
}

func TestCaptureRedacts(t *testing.T) {
	rec := host.NewRecorder()
	h := fixture.Host(t, map[string]string{
		"proc/cpuinfo":                               "processor\t: 0\nSerial\t\t: 10000000deadbeef\n",
		"sys/class/net/eth0/address":                 "dc:a6:32:aa:bb:cc\n",
		"sys/firmware/devicetree/base/serial-number": "10000000deadbeef\x00",
	}, host.WithRecorder(rec))
	for _, p := range []string{"/proc/cpuinfo", "/sys/class/net/eth0/address", "/sys/firmware/devicetree/base/serial-number"} {
		if _, err := h.ReadFile(p); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	if err := capture.Write(&buf, rec.Snapshot(), capture.Options{Redact: true}); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	if err := capture.Extract(&buf, out); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"proc/cpuinfo", "sys/class/net/eth0/address", "sys/firmware/devicetree/base/serial-number"} {
		data, _ := os.ReadFile(filepath.Join(out, p))
		if bytes.Contains(data, []byte("deadbeef")) || bytes.Contains(data, []byte("aa:bb:cc")) {
			t.Errorf("%s not redacted: %q", p, data)
		}
	}
}

func TestExtractRejectsEscapes(t *testing.T) {
	for _, junk := range [][]byte{nil, []byte("not gzip at all"), {0x1f, 0x8b, 0x08, 0, 0}} {
		if err := capture.Extract(bytes.NewReader(junk), t.TempDir()); err == nil {
			t.Errorf("Extract(%q): want error", junk)
		}
	}
}

// TestCaptureRedactsSerialsEverywhere: serial numbers leave no trace in the
// kernel log, the kernel command line or any recorded command output.
func TestCaptureRedactsSerialsEverywhere(t *testing.T) {
	const serial = "0a1b2c3d4e"
	root := fixture.Root(t, map[string]string{
		"/proc/cmdline": "coherent_pool=1M bcm2708.serial=0x" + serial + " androidboot.serialno=" + serial + " snum=" + serial + " root=/dev/mmcblk0p2\n",
	})
	fixture.Commands(t, root, map[string]string{
		"dmesg": "[    0.000000] Kernel command line: bcm2708.serial=0x" + serial + " console=ttyS0\n" +
			"[    1.200000] usb 1-1: SerialNumber: " + serial + "\n" +
			"[    1.300000] Serial: 8250/16550 driver, 4 ports\n",
		"lsusb_-v":          "  iSerial                 3 " + serial + "\n",
		"vcgencmd_otp_dump": "28:" + serial[:8] + "\n30:00c03111\n",
	})
	rec := host.NewRecorder()
	h := fixture.Open(t, root, host.WithRecorder(rec))
	if _, err := h.ReadFile("/proc/cmdline"); err != nil {
		t.Fatal(err)
	}
	for _, c := range [][]string{{"dmesg"}, {"lsusb", "-v"}, {"vcgencmd", "otp_dump"}} {
		if _, err := h.Run(context.Background(), c[0], c[1:]...); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	if err := capture.Write(&buf, rec.Snapshot(), capture.Options{Redact: true}); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	if err := capture.Extract(&buf, out); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"proc/cmdline", ".boardbench/commands/dmesg", ".boardbench/commands/lsusb_-v", ".boardbench/commands/vcgencmd_otp_dump"} {
		data, err := os.ReadFile(filepath.Join(out, p))
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(data, []byte(serial[:8])) {
			t.Errorf("%s keeps the serial number:\n%s", p, data)
		}
		if !bytes.Contains(data, []byte("REDACTED")) {
			t.Errorf("%s: no placeholder:\n%s", p, data)
		}
	}
	if data, _ := os.ReadFile(filepath.Join(out, ".boardbench/commands/dmesg")); !bytes.Contains(data, []byte("Serial: 8250/16550 driver")) {
		t.Errorf("the kernel log lost a line that holds no serial:\n%s", data)
	}
}

// tarGz builds an archive from members (name → content; content starting
// with "->" makes a link).
func tarGz(t *testing.T, members [][2]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, m := range members {
		hdr := &tar.Header{Name: m[0], Mode: 0o644, Typeflag: tar.TypeReg, Size: int64(len(m[1]))}
		if target, ok := strings.CutPrefix(m[1], "->"); ok {
			hdr.Typeflag, hdr.Linkname, hdr.Size = tar.TypeSymlink, target, 0
		}
		if err := tw.WriteHeader(hdr); err != nil {
			t.Fatal(err)
		}
		if hdr.Typeflag == tar.TypeReg {
			tw.Write([]byte(m[1]))
		}
	}
	tw.Close()
	gz.Close()
	return buf.Bytes()
}

// TestExtractNeverWritesOutside: an archive that makes a link and then a
// member below it cannot write through the link.
func TestExtractNeverWritesOutside(t *testing.T) {
	outside := t.TempDir()
	cases := map[string][][2]string{
		"file below a link": {{"sys", "->" + outside}, {"sys/pwned", "x"}},
		"file over a link":  {{"proc/cpuinfo", "->" + filepath.Join(outside, "pwned")}, {"proc/cpuinfo", "x"}},
		"dot dot":           {{"../pwned", "x"}},
	}
	for name, members := range cases {
		dir := t.TempDir()
		if err := capture.Extract(bytes.NewReader(tarGz(t, members)), dir); err == nil {
			t.Errorf("%s: want an error", name)
		}
		if ents, _ := os.ReadDir(outside); len(ents) != 0 {
			t.Fatalf("%s: wrote outside the target directory: %v", name, ents)
		}
	}
}
