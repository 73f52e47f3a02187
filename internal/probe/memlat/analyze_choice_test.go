package memlat

import "testing"

func TestAnalyzeChoosesCurve(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	i := func(v int64) *int64 { return &v }
	// The normal-page curve steps at 32 KiB, the huge-page one at 1 MiB.
	var pts []Point
	for s := int64(1 << 10); s <= 8<<20; s *= 2 {
		n, h := 2.0, 2.0
		if s > 32<<10 {
			n = 20
		}
		if s > 1<<20 {
			h = 20
		}
		pts = append(pts, Point{SizeBytes: s, NS: f(n), NSHugePage: f(h)})
	}
	cases := []struct {
		name      string
		huge      *HugePageCheck
		fromHuge  bool
		short     string
		stepBytes int64
	}{
		{"no huge pages", nil, false, "", 32 << 10},
		{"huge pages given", &HugePageCheck{BufferBytes: 64 << 20, AnonHugeDeltaBytes: i(60 << 20)}, true, "", 1 << 20},
		{"huge pages not checked", &HugePageCheck{BufferBytes: 64 << 20}, true, "", 1 << 20},
		{"too few huge pages", &HugePageCheck{BufferBytes: 64 << 20, AnonHugeDeltaBytes: i(12 << 20)}, false, "only about 12 of 64 MiB were huge pages", 32 << 10},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := Analyze(Result{Points: pts, HugePages: c.huge}, nil)
			if a.FromHugePages != c.fromHuge || a.HugePagesShort != c.short {
				t.Errorf("FromHugePages=%v short=%q, want %v %q", a.FromHugePages, a.HugePagesShort, c.fromHuge, c.short)
			}
			if len(a.Levels) != 1 || a.Levels[0].DetectedBytes != c.stepBytes {
				t.Errorf("levels = %+v, want one step at %d", a.Levels, c.stepBytes)
			}
		})
	}
}
