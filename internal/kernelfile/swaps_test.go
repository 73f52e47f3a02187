package kernelfile

import (
	"reflect"
	"testing"

	"boardbench/internal/testutil/fixture"
)

func TestParseSwaps(t *testing.T) {
	cases := []struct {
		name, in string
		want     []Swap
	}{
		{"zram", "Filename\t\t\t\tType\t\tSize\tUsed\tPriority\n/dev/zram0                             \tpartition\t464676\t0\t100\n",
			[]Swap{{Path: "/dev/zram0", Type: "partition", SizeBytes: 464676 * 1024, Priority: 100}}},
		{"escaped file, negative priority", "Filename Type Size Used Priority\n/swap\\040file file 10 2 -2\n/old\\040swap\\040(deleted) file 4 0 -3\n",
			[]Swap{{Path: "/swap file", Type: "file", SizeBytes: 10240, UsedBytes: 2048, Priority: -2},
				{Path: "/old swap (deleted)", Type: "file", SizeBytes: 4096, Priority: -3}}},
		{"malformed", "broken line\n/x file a b c\n/y file 1 1\n/z file -1 0 0\n/w file 9999999999999999999 0 0\n/v file 4503599627370497 0 0\n", nil},
		{"empty", "", nil},
	}
	for _, c := range cases {
		if got := ParseSwaps([]byte(c.in)); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: ParseSwaps = %+v, want %+v", c.name, got, c.want)
		}
	}
}

func TestReadSwapsBoards(t *testing.T) {
	cases := map[string]Swap{
		"rpi4b": {Path: "/dev/zram0", Type: "partition", SizeBytes: 464676 * 1024, Priority: 100},
		"rpi5":  {Path: "/var/swap", Type: "file", SizeBytes: 102384 * 1024, Priority: -2},
	}
	for board, want := range cases {
		got, err := ReadSwaps(fixture.Board(t, board))
		if err != nil || len(got) != 1 || got[0] != want {
			t.Errorf("%s: ReadSwaps = %+v, %v; want %+v", board, got, err, want)
		}
	}
}

func FuzzParseSwaps(f *testing.F) {
	f.Add([]byte("Filename Type Size Used Priority\n/dev/zram0 partition 1019112 0 5\n/swap\\040file file 10 2 -2\n"))
	f.Add([]byte("/x\\0 file 1 1 1\n/\\777\\ file 9999999999999999 0 0"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, e := range ParseSwaps(data) {
			if e.SizeBytes < 0 || e.UsedBytes < 0 {
				t.Errorf("negative size in %+v", e)
			}
		}
	})
}
