package rpi

import (
	"testing"
)

func TestDecodeRevision(t *testing.T) {
	const mb = 1 << 20
	cases := []struct {
		code      string
		model     string
		rev       string
		memBytes  int64 // 0: want nil
		maker     string
		processor string
		style     string
	}{
		{"9000c1", "Raspberry Pi Zero W", "1.1", 512 * mb, "Sony UK", "BCM2835", "new"},
		{"902120", "Raspberry Pi Zero 2 W", "1.0", 512 * mb, "Sony UK", "BCM2837", "new"},
		{"a03111", "Raspberry Pi 4 Model B", "1.1", 1024 * mb, "Sony UK", "BCM2711", "new"},
		{"b03114", "Raspberry Pi 4 Model B", "1.4", 2048 * mb, "Sony UK", "BCM2711", "new"},
		{"c03114", "Raspberry Pi 4 Model B", "1.4", 4096 * mb, "Sony UK", "BCM2711", "new"},
		{"d03114", "Raspberry Pi 4 Model B", "1.4", 8192 * mb, "Sony UK", "BCM2711", "new"},
		{"c04170", "Raspberry Pi 5", "1.0", 4096 * mb, "Sony UK", "BCM2712", "new"},
		{"d04170", "Raspberry Pi 5", "1.0", 8192 * mb, "Sony UK", "BCM2712", "new"},
		{"e04171", "Raspberry Pi 5", "1.1", 16384 * mb, "Sony UK", "BCM2712", "new"},
		{"a020d3", "Raspberry Pi 3 Model B+", "1.3", 1024 * mb, "Sony UK", "BCM2837", "new"},
		{"a02082", "Raspberry Pi 3 Model B", "1.2", 1024 * mb, "Sony UK", "BCM2837", "new"},
		{"a22082", "Raspberry Pi 3 Model B", "1.2", 1024 * mb, "Embest", "BCM2837", "new"},
		{"a32082", "Raspberry Pi 3 Model B", "1.2", 1024 * mb, "Sony Japan", "BCM2837", "new"},
		{"a52082", "Raspberry Pi 3 Model B", "1.2", 1024 * mb, "Stadium", "BCM2837", "new"},
		{"a01041", "Raspberry Pi 2 Model B", "1.1", 1024 * mb, "Sony UK", "BCM2836", "new"},
		{"900093", "Raspberry Pi Zero", "1.3", 512 * mb, "Sony UK", "BCM2835", "new"},
		{"c03130", "Raspberry Pi 400", "1.0", 4096 * mb, "Sony UK", "BCM2711", "new"},
		{"a03140", "Raspberry Pi Compute Module 4", "1.0", 1024 * mb, "Sony UK", "BCM2711", "new"},
		{"9020e0", "Raspberry Pi 3 Model A+", "1.0", 512 * mb, "Sony UK", "BCM2837", "new"},
		{"0010", "Raspberry Pi Model B+", "1.2", 512 * mb, "Sony UK", "BCM2835", "old"},
		{"0002", "Raspberry Pi Model B", "1.0", 256 * mb, "Egoman", "BCM2835", "old"},
		{"000e", "Raspberry Pi Model B", "2.0", 512 * mb, "Sony UK", "BCM2835", "old"},
		{"0015", "Raspberry Pi Model A+", "1.1", 0, "Embest", "BCM2835", "old"},
	}
	for _, c := range cases {
		t.Run(c.code, func(t *testing.T) {
			code, err := ParseRevision(c.code)
			if err != nil {
				t.Fatal(err)
			}
			r := DecodeRevision(code)
			if !r.Known || r.Model != c.model || r.BoardRevision != c.rev || r.Manufacturer != c.maker ||
				r.Processor != c.processor || r.Style != c.style || r.Code != c.code {
				t.Errorf("got %+v", r)
			}
			switch {
			case c.memBytes == 0 && r.MemoryBytes != nil:
				t.Errorf("memory = %d, want unknown", *r.MemoryBytes)
			case c.memBytes != 0 && (r.MemoryBytes == nil || *r.MemoryBytes != c.memBytes):
				t.Errorf("memory = %v, want %d", r.MemoryBytes, c.memBytes)
			}
			if r.WarrantyVoided {
				t.Error("warranty voided, want intact")
			}
			if (c.style == "new") != (r.OvervoltageAllowed != nil) {
				t.Errorf("overvoltage bit presence wrong for %s style", c.style)
			}
		})
	}
}

func TestDecodeRevisionBits(t *testing.T) {
	// Warranty bit of old firmware on an old-style code.
	r := DecodeRevision(0x1000002)
	if !r.Known || !r.WarrantyVoided || r.Model != "Raspberry Pi Model B" {
		t.Errorf("1000002: %+v", r)
	}
	// Warranty bit (25), overvoltage and OTP bits on a new-style code.
	r = DecodeRevision(0x02000000 | 0x80000000 | 0x40000000 | 0xa02082)
	if !r.Known || !r.WarrantyVoided || *r.OvervoltageAllowed || *r.OTPProgramAllowed || !*r.OTPReadAllowed {
		t.Errorf("bits: %+v", r)
	}
	// New-style code with the old warranty position, as seen on a Pi 2.
	r = DecodeRevision(0x1a01040)
	if !r.Known || !r.WarrantyVoided || r.Model != "Raspberry Pi 2 Model B" {
		t.Errorf("1a01040: %+v", r)
	}
	// Codes non-Pi kernels print, and unknown types.
	for _, code := range []uint32{0x0000, 0x82a0, 0x0020, 0x63012} {
		if r := DecodeRevision(code); r.Known || r.Model != "" {
			t.Errorf("%x: decoded as %q, want unknown", code, r.Model)
		}
	}
	r = DecodeRevision(0xa021f0) // type 0x1f is not assigned
	if r.Known || r.Model != "" || r.Processor != "BCM2837" {
		t.Errorf("unknown type: %+v", r)
	}
	if r = DecodeRevision(0xf03111); r.MemoryBytes != nil { // memory field 7 is not assigned
		t.Errorf("memory field 7: got %d", *r.MemoryBytes)
	}
}

func TestRevisionFromDT(t *testing.T) {
	if v, err := RevisionFromDT([]byte{0x00, 0xd0, 0x41, 0x70}); err != nil || v != 0xd04170 {
		t.Errorf("got %x, %v", v, err)
	}
	for _, b := range [][]byte{nil, {1, 2, 3}, {1, 2, 3, 4, 5}} {
		if _, err := RevisionFromDT(b); err == nil {
			t.Errorf("%v: want error", b)
		}
	}
}

func TestParseRevisionMalformed(t *testing.T) {
	for _, s := range []string{"", "  ", "zz", "0xg1", "123456789", "\x00\xff"} {
		if _, err := ParseRevision(s); err == nil {
			t.Errorf("ParseRevision(%q): want error", s)
		}
	}
	if v, err := ParseRevision("0020 0086"); err != nil || v != 0x20 {
		t.Errorf("first field only: %x, %v", v, err)
	}
}

func FuzzParseRevision(f *testing.F) {
	for _, s := range []string{"d04170", "0010", "1000002", "0x9000c1", "", "ffffffff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseRevision(s)
		if err != nil {
			return
		}
		r := DecodeRevision(v)
		if r.Known && r.Model == "" {
			t.Errorf("%q: known without a model", s)
		}
	})
}

// TestDecodeRevisionTableGaps: the indexes the tables leave out, and those
// past their end, name nothing.
func TestDecodeRevisionTableGaps(t *testing.T) {
	for _, c := range []struct {
		code               uint32
		known              bool
		model, maker, proc string
	}{
		{0x0001, false, "", "", ""}, // old style, before the first code
		{0x000a, false, "", "", ""}, // old style, a gap
		{0x0016, false, "", "", ""}, // old style, past the end
		{0x0014, true, "Raspberry Pi Compute Module 1", "Embest", "BCM2835"},         // old style, last but one
		{0xa02070, false, "", "Sony UK", "BCM2837"},                                  // type 0x07: a gap
		{0xa020b0, false, "", "Sony UK", "BCM2837"},                                  // type 0x0b: a gap
		{0xa021a0, true, "Raspberry Pi Compute Module 5 Lite", "Sony UK", "BCM2837"}, // type 0x1a: the last
		{0xa62082, true, "Raspberry Pi 3 Model B", "", "BCM2837"},                    // manufacturer 6: unassigned
		{0xa05082, true, "Raspberry Pi 3 Model B", "Sony UK", ""},                    // processor 5: unassigned
		{0xaf2082, true, "Raspberry Pi 3 Model B", "", "BCM2837"},                    // manufacturer 15
	} {
		r := DecodeRevision(c.code)
		if r.Known != c.known || r.Model != c.model || r.Manufacturer != c.maker || r.Processor != c.proc {
			t.Errorf("DecodeRevision(%#x) = known %v, %q, %q, %q; want %v, %q, %q, %q",
				c.code, r.Known, r.Model, r.Manufacturer, r.Processor, c.known, c.model, c.maker, c.proc)
		}
	}
}

func TestSettingMeaning(t *testing.T) {
	for _, c := range []struct{ key, want string }{
		{"arm_freq", "maximum ARM clock, MHz"},
		{"over_voltage_delta", "core voltage offset in µV"},
		{"disable_auto_turbo", "no automatic turbo mode (1 = on)"},
		{"hdmi_group", ""},
		{"", ""},
	} {
		if got := settingMeaning(c.key); got != c.want {
			t.Errorf("settingMeaning(%q) = %q, want %q", c.key, got, c.want)
		}
	}
}
