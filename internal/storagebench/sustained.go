package storagebench

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"boardbench/internal/result"

	"golang.org/x/sys/unix"
)

// The sustained-write test's rule and sizes.
const (
	// FallRatio and FallWindows: the rate has fallen when FallWindows
	// windows in a row each ran below FallRatio of the reference, the
	// median rate of all the windows before them (at least
	// MinReferenceWindows of them).
	FallRatio           = 0.6
	FallWindows         = 4
	MinReferenceWindows = 3
	// SustainedChunk is the size of one write (O_DIRECT).
	SustainedChunk = 4 << 20
	// Windows is about how many windows SIZE is cut into; a window holds
	// from MinWindowBytes (short windows time the noise of the system,
	// not the device) to MaxWindowBytes, in whole chunks.
	Windows        = 64
	MinWindowBytes = 16 << 20
	MaxWindowBytes = 256 << 20
	// MinSustainedBytes is the smallest --sustained SIZE: enough windows
	// of MinWindowBytes for the reference and a fall.
	MinSustainedBytes = (MinReferenceWindows + FallWindows + 1) * MinWindowBytes
)

// FallRule describes the rule in words (StorageSustainedFigures.FallRule).
func FallRule() string {
	return fmt.Sprintf("%d windows in a row each below %.0f%% of the median rate of all earlier windows (at least %d)",
		FallWindows, FallRatio*100, MinReferenceWindows)
}

// SustainedMargin is kept free beyond --sustained SIZE: FreeMargin, or a
// twentieth of the free space when that is more.
func SustainedMargin(free int64) int64 { return max(int64(FreeMargin), free/20) }

// CheckSustained refuses a size below MinSustainedBytes or one that does
// not fit in free bytes less SustainedMargin.
func CheckSustained(size, free int64) error {
	if size < MinSustainedBytes {
		return fmt.Errorf("%s is below the smallest sustained-write size, %s", mib(size), mib(MinSustainedBytes))
	}
	if room := free - SustainedMargin(free); size > room {
		return fmt.Errorf("%w: %s free; %s with %s kept free does not fit", ErrNoSpace, mib(free), mib(size), mib(SustainedMargin(free)))
	}
	return nil
}

// WindowFor is the window of a sustained write of size bytes.
func WindowFor(size int64) int64 {
	return min(max(size/Windows/SustainedChunk*SustainedChunk, MinWindowBytes), MaxWindowBytes)
}

// Fall applies the rule to the window rates: the index of the first of
// the FallWindows slow windows, or -1 when the rate has not fallen.
func Fall(rates []float64) int {
	for i := MinReferenceWindows; i+FallWindows <= len(rates); i++ {
		ref := median(rates[:i])
		slow := true
		for _, r := range rates[i : i+FallWindows] {
			if r >= ref*FallRatio {
				slow = false
				break
			}
		}
		if slow {
			return i
		}
	}
	return -1
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// SustainedConfig is one sustained-write test.
type SustainedConfig struct {
	Dir string
	// MaxBytes is SIZE: the most that is written.
	MaxBytes int64
	// WindowBytes overrides WindowFor(MaxBytes) when positive.
	WindowBytes int64
	// Progress is called after each window; nil for none.
	Progress func(written, max int64)
}

// Sustained writes a temporary file (unlinked at once) sequentially
// until the rate falls or MaxBytes are written, with fdatasync at the end
// of every window.
func Sustained(ctx context.Context, cfg SustainedConfig) (result.StorageSustainedFigures, error) {
	win := cfg.WindowBytes
	if win <= 0 {
		win = WindowFor(cfg.MaxBytes)
	}
	chunk := min(int64(SustainedChunk), win)
	f := result.StorageSustainedFigures{Dir: cfg.Dir, MaxBytes: cfg.MaxBytes, WindowBytes: win, ChunkBytes: chunk,
		FallRule: FallRule(), Windows: []result.StorageWindow{}}
	t, _, err := openTarget(Config{Dir: cfg.Dir})
	if err != nil {
		f.StoppedBy, f.Error = "error", err.Error()
		return f, err
	}
	defer t.f.Close()
	f.Direct = t.direct
	buf, free, err := alignedBuffer(int(chunk))
	if err != nil {
		return f, err
	}
	defer free()
	fd := int(t.f.Fd())
	start := time.Now()
	var rates []float64
	for f.WrittenBytes+win <= cfg.MaxBytes {
		w0 := time.Now()
		var werr error
		for n := int64(0); n < win && werr == nil; n += chunk {
			if ctx.Err() != nil {
				werr = context.Cause(ctx)
				break
			}
			var k int
			k, werr = t.f.WriteAt(buf, f.WrittenBytes)
			f.WrittenBytes += int64(k)
		}
		if werr == nil {
			werr = unix.Fdatasync(fd)
		}
		if werr != nil {
			f.StoppedBy, f.Error = "error", werr.Error()
			if errors.Is(werr, unix.ENOSPC) {
				f.StoppedBy = "no space"
			}
			if ctx.Err() != nil {
				f.Seconds = time.Since(start).Seconds()
				summarizeSustained(&f, rates)
				return f, context.Cause(ctx)
			}
			break
		}
		rate := float64(win) / 1024 / time.Since(w0).Seconds()
		rates = append(rates, rate)
		f.Windows = append(f.Windows, result.StorageWindow{WrittenBytes: f.WrittenBytes, KBs: rate})
		if cfg.Progress != nil {
			cfg.Progress(f.WrittenBytes, cfg.MaxBytes)
		}
		if Fall(rates) >= 0 {
			f.StoppedBy = "fall"
			break
		}
	}
	if f.StoppedBy == "" {
		f.StoppedBy = "size"
	}
	f.Seconds = time.Since(start).Seconds()
	summarizeSustained(&f, rates)
	if f.StoppedBy == "error" {
		return f, errors.New(f.Error)
	}
	return f, nil
}

// summarizeSustained fills the cache size and the rates before and after
// the fall from the window rates.
func summarizeSustained(f *result.StorageSustainedFigures, rates []float64) {
	if len(rates) == 0 {
		return
	}
	i := Fall(rates)
	if i < 0 {
		before := median(rates)
		f.KBsBefore = &before
		return
	}
	cache := f.Windows[i-1].WrittenBytes
	before, after := median(rates[:i]), median(rates[i:i+FallWindows])
	f.Fell, f.CacheBytes, f.KBsBefore, f.KBsAfter = true, &cache, &before, &after
}
