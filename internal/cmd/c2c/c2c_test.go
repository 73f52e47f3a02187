package c2c

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"boardbench/internal/cmdutil"
	"boardbench/internal/iostreams"
	"boardbench/internal/probe/c2c"
	"boardbench/internal/textfmt"
)

// TestNewCmdOptions: the flags reach the run function as Options, without
// measuring anything.
func TestNewCmdOptions(t *testing.T) {
	tests := []struct {
		args []string
		want Options
	}{
		{nil, Options{Root: "/"}},
		{[]string{"--json", "-o", "c.json", "--root", "/x"}, Options{Root: "/x", Output: "c.json", JSON: true}},
	}
	for _, tt := range tests {
		ios, _, _ := iostreams.Test()
		var got *Options
		cmd := NewCmd(cmdutil.NewFactory(ios), func(o *Options) error { got = o; return nil })
		cmd.SetArgs(tt.args)
		if err := cmd.Execute(); err != nil {
			t.Fatalf("%q: %v", tt.args, err)
		}
		o := *got
		o.Factory, o.Ctx = nil, nil
		if o != tt.want {
			t.Errorf("%q: options %+v, want %+v", tt.args, o, tt.want)
		}
	}
}

func TestFixtureRootRefused(t *testing.T) {
	ios, _, _ := iostreams.Test()
	cmd := NewCmd(cmdutil.NewFactory(ios), nil)
	cmd.SetArgs([]string{"--root", t.TempDir()})
	err := cmd.Execute()
	if !errors.Is(err, errNotLive) || cmdutil.ExitCode(err) != 2 {
		t.Fatalf("err = %v, want the not-live error and exit status 2", err)
	}
}

func f64(v float64) *float64 { return &v }

func TestRenderMatrix(t *testing.T) {
	pairs := []c2c.Pair{{A: 0, B: 1, NS: f64(52.3)}, {A: 0, B: 4, NS: f64(180.4)}, {A: 1, B: 4, Error: "cannot pin"}}
	cpus := []int{0, 1, 4}
	rep := Report{CPUs: cpus, Cores: []string{"Cortex-A55", "Cortex-A55", "Cortex-A76"}, Pairs: pairs, MatrixNS: c2c.Matrix(cpus, pairs)}
	rep.Notes.Add("cpu1-cpu4", "cannot pin")
	var b bytes.Buffer
	render(&b, rep, false)
	out := b.String()
	for _, want := range []string{"cpu0  cpu1  cpu4", "52.3", "180", "n/a", "Cortex-A55: cpu 0,1", "Cortex-A76: cpu 4", "cpu1-cpu4: cannot pin"} {
		if !strings.Contains(out, want) {
			t.Errorf("text lacks %q:\n%s", want, out)
		}
	}
	data, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		MatrixNS [][]*float64 `json:"matrix_ns"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.MatrixNS[0][0] != nil || *doc.MatrixNS[2][0] != 180.4 || doc.MatrixNS[1][2] != nil {
		t.Errorf("matrix_ns %v", doc.MatrixNS)
	}
}

func TestRenderSampled(t *testing.T) {
	rep := Report{CPUs: []int{0, 1, 2}, Sampled: true, Pairs: []c2c.Pair{{A: 1, B: 2, NS: f64(40)}, {A: 0, B: 2, NS: f64(120)}}}
	var b bytes.Buffer
	render(&b, rep, false)
	out := b.String()
	if !strings.Contains(out, "cpu0-cpu2") || !strings.Contains(out, "120 ns") || strings.Index(out, "cpu0-cpu2") > strings.Index(out, "cpu1-cpu2") {
		t.Errorf("sampled list:\n%s", out)
	}
}

// TestRenderMatrixFitsWidth renders the matrix of a 64-CPU machine and
// checks that it is split into blocks that fit in 100 columns.
func TestRenderMatrixFitsWidth(t *testing.T) {
	var cpus []int
	var pairs []c2c.Pair
	for i := 0; i < 64; i++ {
		cpus = append(cpus, i)
		for j := i + 1; j < 64; j++ {
			pairs = append(pairs, c2c.Pair{A: i, B: j, NS: f64(float64(100 + i + j))})
		}
	}
	rep := Report{CPUs: cpus, Pairs: pairs, MatrixNS: c2c.Matrix(cpus, pairs)}
	var b bytes.Buffer
	render(&b, rep, false)
	out := b.String()
	for _, l := range strings.Split(out, "\n") {
		if n := utf8.RuneCountInString(l); n > textfmt.MaxWidth {
			t.Errorf("line of %d columns: %q", n, l)
		}
	}
	if !strings.Contains(out, " cpu63\n") || !strings.Contains(out, "  cpu63  ") {
		t.Errorf("last CPU missing from the blocks:\n%s", out)
	}
}
