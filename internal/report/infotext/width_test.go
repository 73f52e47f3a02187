package infotext

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"boardbench/internal/inventory"
	"boardbench/internal/testutil/fixture"
	"boardbench/internal/textfmt"
)

// TestEveryBoardFitsWidth renders `info` for every board fixture root and
// checks that no line is wider than textfmt.MaxWidth columns.
func TestEveryBoardFitsWidth(t *testing.T) {
	dir := filepath.Dir(fixture.BoardPath(t, "rpi4b"))
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	boards := 0
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), "_") {
			continue
		}
		boards++
		t.Run(e.Name(), func(t *testing.T) {
			in := inventory.Collect(fixture.Board(t, e.Name()), inventory.Options{Redact: true})
			var b strings.Builder
			Render(&b, in, false)
			text := b.String()
			if !strings.Contains(text, "CPU\n") {
				t.Fatalf("no CPU section in:\n%s", text)
			}
			for _, l := range strings.Split(text, "\n") {
				if n := utf8.RuneCountInString(l); n > textfmt.MaxWidth {
					t.Errorf("line of %d columns (max %d): %q", n, textfmt.MaxWidth, l)
				}
			}
		})
	}
	if boards < 10 {
		t.Errorf("only %d board fixtures found in %s", boards, dir)
	}
}

// TestEmptyColumnDropped checks that the PCI table leaves out STATUS when no
// device has a link status, and keeps it when one has.
func TestEmptyColumnDropped(t *testing.T) {
	tests := []struct {
		board      string
		wantStatus bool
	}{
		{"n100-minipc", true},
		{"qcs6490", true},
		{"cloud-vm-kvm", false},
	}
	for _, tt := range tests {
		t.Run(tt.board, func(t *testing.T) {
			text := hwSectionsText(t, tt.board, renderBuses)
			if !strings.Contains(text, "ADDRESS") {
				t.Skipf("no PCI table for %s", tt.board)
			}
			if got := strings.Contains(text, "STATUS"); got != tt.wantStatus {
				t.Errorf("STATUS column shown = %v, want %v in:\n%s", got, tt.wantStatus, text)
			}
		})
	}
}
