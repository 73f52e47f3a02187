package regfile_test

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"boardbench/internal/regfile"
	"boardbench/internal/testutil/wait"
)

func TestRead(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small")
	os.WriteFile(small, []byte("hello\n"), 0o644)
	huge := filepath.Join(dir, "huge")
	if f, err := os.Create(huge); err == nil {
		f.Truncate(10 << 30) // sparse: costs nothing on disk
		f.Close()
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	os.Symlink("small", link)
	big := filepath.Join(dir, "big")
	bigData := strings.Repeat("0123456789abcdef", 320) // 5120 bytes: past the buffer on the stack
	os.WriteFile(big, []byte(bigData), 0o644)
	zeroLink := filepath.Join(dir, "zero")
	os.Symlink("/dev/zero", zeroLink)
	cases := []struct {
		name    string
		path    string
		limit   int64
		links   regfile.Links
		want    string
		wantErr error
	}{
		{"regular", small, 100, regfile.Follow, "hello\n", nil},
		{"exactly the limit", small, 6, regfile.Follow, "hello\n", nil},
		{"one byte over", small, 5, regfile.Follow, "", &regfile.TooLargeError{}},
		{"sparse 10 GiB", huge, 1 << 20, regfile.Follow, "", &regfile.TooLargeError{}},
		{"fifo", fifo, 100, regfile.Follow, "", regfile.ErrNotRegular},
		{"device", "/dev/zero", 100, regfile.Follow, "", regfile.ErrNotRegular},
		{"link to a device", zeroLink, 100, regfile.Follow, "", regfile.ErrNotRegular},
		{"directory", dir, 100, regfile.Follow, "", regfile.ErrNotRegular},
		{"larger than the stack buffer", big, 1 << 20, regfile.Follow, bigData, nil},
		{"larger, exactly the limit", big, 5120, regfile.Follow, bigData, nil},
		{"larger, one byte over", big, 5119, regfile.Follow, "", &regfile.TooLargeError{}},
		{"link followed", link, 100, regfile.Follow, "hello\n", nil},
		{"link refused", link, 100, regfile.NoFollow, "", regfile.ErrNotRegular},
		{"missing", filepath.Join(dir, "nope"), 100, regfile.Follow, "", os.ErrNotExist},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			done := make(chan struct{})
			var got []byte
			var err error
			go func() { got, err = regfile.Read(c.path, c.limit, c.links); close(done) }()
			select {
			case <-done:
			case <-time.After(wait.HangGuard):
				t.Fatalf("hung: read did not return within %v", wait.HangGuard)
			}
			switch want := c.wantErr.(type) {
			case nil:
				if err != nil || string(got) != c.want {
					t.Errorf("Read = %q, %v; want %q", got, err, c.want)
				}
			case *regfile.TooLargeError:
				var tl *regfile.TooLargeError
				if !errors.As(err, &tl) {
					t.Errorf("Read err = %v, want too large", err)
				}
			default:
				if !errors.Is(err, want) {
					t.Errorf("Read err = %v, want %v", err, want)
				}
			}
		})
	}
}

func TestHeadTruncates(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	os.WriteFile(p, []byte("0123456789"), 0o644)
	got, err := regfile.Head(p, 4, regfile.Follow)
	if err != nil || string(got) != "0123" {
		t.Errorf("Head = %q, %v", got, err)
	}
	long := strings.Repeat("x", 3000) + strings.Repeat("y", 3000)
	os.WriteFile(p, []byte(long), 0o644)
	if got, err := regfile.Head(p, 3000, regfile.Follow); err != nil || string(got) != long[:3000] {
		t.Errorf("Head of 3000 bytes of 6000 = %d bytes, %v", len(got), err)
	}
}

// TestReadSizeZero reads a file of /proc, which reports size 0 whatever
// it holds, past the buffer on the stack.
func TestReadSizeZero(t *testing.T) {
	const path = "/proc/self/mountinfo"
	want, err := os.ReadFile(path)
	if err != nil || len(want) <= 512 {
		t.Skipf("%s: %d bytes, %v: not a long file of size 0 here", path, len(want), err)
	}
	got, err := regfile.Read(path, 1<<20, regfile.Follow)
	if err != nil || string(got) != string(want) {
		t.Errorf("Read(%s) = %d bytes, %v; os.ReadFile read %d", path, len(got), err, len(want))
	}
}

// TestReadAllocatesItsSize: a file that reports its size is read into
// one buffer of that size (io.ReadAll's growth and a final copy took
// 4.7 times the size of /proc/config.gz).
func TestReadAllocatesItsSize(t *testing.T) {
	p := filepath.Join(t.TempDir(), "config.gz")
	const size = 24000
	os.WriteFile(p, make([]byte, size), 0o644)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	got, err := regfile.Read(p, 4<<20, regfile.Follow)
	runtime.ReadMemStats(&after)
	if err != nil || len(got) != size {
		t.Fatalf("Read = %d bytes, %v", len(got), err)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 2*size {
		t.Errorf("reading %d bytes allocated %d bytes", size, n)
	}
}

func TestSize(t *testing.T) {
	for n, want := range map[int64]string{4 << 20: "4 MiB", 256 << 20: "256 MiB", 1 << 30: "1 GiB", 4096: "4 KiB", 100: "100 bytes"} {
		if got := regfile.Size(n); got != want {
			t.Errorf("Size(%d) = %q, want %q", n, got, want)
		}
	}
}
