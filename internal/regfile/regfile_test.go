package regfile_test

import (
	"errors"
	"os"
	"path/filepath"
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
}

func TestSize(t *testing.T) {
	for n, want := range map[int64]string{4 << 20: "4 MiB", 256 << 20: "256 MiB", 1 << 30: "1 GiB", 4096: "4 KiB", 100: "100 bytes"} {
		if got := regfile.Size(n); got != want {
			t.Errorf("Size(%d) = %q, want %q", n, got, want)
		}
	}
}
