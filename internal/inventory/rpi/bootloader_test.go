package rpi

import (
	"encoding/binary"
	"strings"
	"testing"

	"boardbench/internal/testutil/fixture"
)

func TestParseBootloaderVersion(t *testing.T) {
	tests := []struct {
		name, out, version, date string
		ts                       int64 // 0: nil
		wantErr                  bool
	}{
		// The Pi 4B seed's bootloader (rpi-eeprom-update: CURRENT: Tue 10 Sep
		// 2019 10:41:50 AM UTC (1568112110)).
		{"2019 format", "Sep 10 2019 10:41:50\nversion f626c772b15ba1b7e0532a8d50a761b3ccbdf3bb (release)\ntimestamp 1568112110\n",
			"f626c772b15ba1b7e0532a8d50a761b3ccbdf3bb", "Sep 10 2019 10:41:50", 1568112110, false},
		{"newer format", "2020/09/03 12:11:43\nversion c305221a6d7e532693cc7ff57fddfc8649def167 (release)\ntimestamp 1599135103\nupdate-time 1599824054\ncapabilities 0x0000007f\n",
			"c305221a6d7e532693cc7ff57fddfc8649def167", "2020/09/03 12:11:43", 1599135103, false},
		{"first bootloader: timestamp 0", "version a1b2c3 (release)\ntimestamp 0\n", "a1b2c3", "", 0, false},
		{"firmware error", "error=2 error_msg=\"Command not registered\"\n", "", "", 0, true},
		{"junk", "hello\n", "", "", 0, true},
		{"empty", "", "", "", 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := ParseBootloaderVersion(tt.out)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if tt.wantErr {
				return
			}
			if b.Version != tt.version || b.Date != tt.date {
				t.Errorf("got %+v", b)
			}
			if (b.Timestamp == nil) != (tt.ts == 0) || b.Timestamp != nil && *b.Timestamp != tt.ts {
				t.Errorf("timestamp %v, want %d", b.Timestamp, tt.ts)
			}
		})
	}
}

func be32(v uint32) string {
	b := make([]byte, 4)
	binary.BigEndian.PutUint32(b, v)
	return string(b)
}

func TestCollectBootloaderAndVL805(t *testing.T) {
	pi4 := map[string]string{"proc/device-tree/compatible": "raspberrypi,4-model-b\x00brcm,bcm2711\x00"}
	vl805 := func(config string) map[string]string {
		return map[string]string{
			"sys/bus/pci/devices/0000:01:00.0/vendor": "0x1106\n",
			"sys/bus/pci/devices/0000:01:00.0/device": "0x3483\n",
			"sys/bus/pci/devices/0000:01:00.0/config": config,
		}
	}
	full := make([]byte, 256)
	copy(full[0x50:], []byte{0xa1, 0x38, 0x01, 0x00})
	tests := []struct {
		name        string
		files       []map[string]string
		cmds        map[string]string
		wantNil     bool
		wantSource  string
		wantTS      int64
		wantVersion string
		wantVL805   string // "-": no VL805
		noteHas     string
	}{
		{name: "no vcgencmd, device tree has the bootloader", files: []map[string]string{pi4, {
			"proc/device-tree/chosen/bootloader/build-timestamp": be32(1599135103),
			"proc/device-tree/chosen/bootloader/version":         "c305221a6d7e532693cc7ff57fddfc8649def167\x00"}, vl805(string(full))},
			wantSource: "device tree /chosen/bootloader", wantTS: 1599135103, wantVersion: "c305221a6d7e532693cc7ff57fddfc8649def167",
			wantVL805: "000138a1", noteHas: "vcgencmd: not installed"},
		{name: "no vcgencmd, no device tree node: not described", files: []map[string]string{pi4}, wantNil: true},
		{name: "vcgencmd refuses bootloader_version, device tree answers", files: []map[string]string{pi4, {
			"proc/device-tree/chosen/bootloader/build-timestamp": be32(1568112110)}},
			cmds:       map[string]string{"vcgencmd_version": "version abc (clean)\n"},
			wantSource: "device tree /chosen/bootloader", wantTS: 1568112110, wantVL805: "-"},
		{name: "neither: unknown with the reason", files: []map[string]string{pi4, vl805(string(full[:64]))},
			cmds:      map[string]string{"vcgencmd_version": "version abc (clean)\n"},
			wantVL805: "", noteHas: "needs root beyond 64"},
		{name: "a malformed timestamp property is not used", files: []map[string]string{pi4, {
			"proc/device-tree/chosen/bootloader/build-timestamp": "\x01\x02"}},
			cmds: map[string]string{"vcgencmd_version": "version abc (clean)\n"}, wantVL805: "-", noteHas: "bootloader EEPROM version"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := fixture.Root(t, tt.files...)
			if tt.cmds != nil {
				fixture.Commands(t, root, tt.cmds)
			}
			fw := Collect(fixture.Open(t, root))
			if tt.wantNil {
				if fw != nil {
					t.Fatalf("got %+v, want nil", fw)
				}
				return
			}
			if fw == nil {
				t.Fatal("got nil")
			}
			if tt.wantSource != "" {
				b := fw.Bootloader
				if b == nil || b.Source != tt.wantSource || b.Timestamp == nil || *b.Timestamp != tt.wantTS || b.Version != tt.wantVersion {
					t.Errorf("bootloader %+v", b)
				} else if b.BuildTime == nil || b.BuildTime.Unix() != tt.wantTS {
					t.Errorf("build time %v", b.BuildTime)
				}
			} else if fw.Bootloader != nil {
				t.Errorf("bootloader %+v, want nil", fw.Bootloader)
			}
			switch {
			case tt.wantVL805 == "-" && fw.VL805 != nil:
				t.Errorf("vl805 %+v, want nil", fw.VL805)
			case tt.wantVL805 != "-" && (fw.VL805 == nil || fw.VL805.Version != tt.wantVL805):
				t.Errorf("vl805 %+v, want version %q", fw.VL805, tt.wantVL805)
			}
			var notes []string
			for _, n := range fw.Notes {
				notes = append(notes, n.Item+": "+n.Reason)
			}
			if tt.noteHas != "" && !strings.Contains(strings.Join(notes, "\n"), tt.noteHas) {
				t.Errorf("notes %q lack %q", notes, tt.noteHas)
			}
		})
	}
}
