package writes

import (
	"testing"
	"time"
)

func TestParseSeconds(t *testing.T) {
	tests := []struct {
		in      string
		want    time.Duration
		wantErr bool
	}{
		{in: "1", want: time.Second},
		{in: "0.5", want: 500 * time.Millisecond},
		{in: " 2 ", want: 2 * time.Second},
		{in: "500ms", want: 500 * time.Millisecond},
		{in: "2m", want: 2 * time.Minute},
		{in: "abc", wantErr: true},
		{in: "", wantErr: true},
		{in: "NaN", wantErr: true},
		{in: "1e300", wantErr: true},
	}
	for _, tt := range tests {
		got, err := parseSeconds(tt.in)
		if (err != nil) != tt.wantErr || (!tt.wantErr && got != tt.want) {
			t.Errorf("parseSeconds(%q) = %v, %v; want %v (error: %v)", tt.in, got, err, tt.want, tt.wantErr)
		}
	}
}

func TestIntervalFlagAcceptsBareSeconds(t *testing.T) {
	cmd := NewCmd(nil, nil)
	if err := cmd.ParseFlags([]string{"--interval", "1"}); err != nil {
		t.Fatalf("--interval 1 refused: %v", err)
	}
	if got := cmd.Flags().Lookup("interval").Value.String(); got != "1s" {
		t.Errorf("--interval 1 is %s, want 1s", got)
	}
	if err := NewCmd(nil, nil).ParseFlags([]string{"--interval", "soon"}); err == nil {
		t.Error("--interval soon accepted")
	}
}

// TestNewCmdOptions: the argument and flags reach the run function as
// Options, without watching anything.
func TestNewCmdOptions(t *testing.T) {
	tests := []struct {
		args []string
		want Options
	}{
		{nil, Options{Target: "/", Interval: time.Second}},
		{[]string{"mmcblk0p2", "--interval", "0.5", "--count", "10", "--json", "-o", "w.json"},
			Options{Target: "mmcblk0p2", Interval: 500 * time.Millisecond, Count: 10, JSON: true, Output: "w.json"}},
	}
	for _, tt := range tests {
		var got *Options
		cmd := NewCmd(nil, func(o *Options) error { got = o; return nil })
		cmd.SetArgs(tt.args)
		if err := cmd.Execute(); err != nil {
			t.Fatalf("%q: %v", tt.args, err)
		}
		o := *got
		o.Ctx = nil
		if o != tt.want {
			t.Errorf("%q: options %+v, want %+v", tt.args, o, tt.want)
		}
	}
}
