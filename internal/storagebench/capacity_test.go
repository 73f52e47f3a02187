package storagebench

import (
	"boardbench/internal/testutil/loopfs"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"testing"
	"time"
)

func TestClassify(t *testing.T) {
	const nonce = 0x1234
	blk := func(n, pos uint64) []byte { b := make([]byte, CapacityBlock); fillBlock(b, n, pos); return b }
	changed := blk(nonce, 7)
	changed[100] ^= 1
	scratch := make([]byte, CapacityBlock)
	for _, tc := range []struct {
		name string
		got  []byte
		want string
	}{
		{"as written", blk(nonce, 7), "ok"},
		{"zeros", make([]byte, CapacityBlock), "zero"},
		{"another position of this run", blk(nonce, 3), "moved"},
		{"a block of another run", blk(nonce+1, 7), "changed"},
		{"one bit flipped", changed, "changed"},
	} {
		if got := Classify(tc.got, nonce, 7, scratch); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestVerifyCapacityHonest: on an honest file system every block reads
// back, and nothing is left.
func TestVerifyCapacityHonest(t *testing.T) {
	mnt, _ := loopfs.Make(t, 64<<20)
	f, err := VerifyCapacity(context.Background(), CapacityConfig{Dir: mnt, FileBytes: 8 << 20})
	if err != nil {
		t.Fatal(err)
	}
	if f.WrittenBytes < 30<<20 || f.OKBytes != f.WrittenBytes || f.FirstBadOffset != nil || f.ZeroBytes+f.MovedBytes+f.ChangedBytes != 0 || !f.Direct {
		t.Errorf("figures %+v", f)
	}
	if ents, _ := os.ReadDir(mnt); len(ents) != 0 {
		t.Errorf("left behind: %v", ents)
	}
}

// TestVerifyCapacityLostTail makes the device lose its tail the way a fake
// card does: after the writes, the last 32 MiB of the loop device's backing
// file are punched out (fallocate), so that they read back as zeros, as
// writes past a fake card's real capacity do. The check must find them.
func TestVerifyCapacityLostTail(t *testing.T) {
	const size, lost = 64 << 20, 32 << 20
	mnt, img := loopfs.Make(t, size)
	f, err := VerifyCapacity(context.Background(), CapacityConfig{Dir: mnt, FileBytes: 8 << 20,
		AfterWrite: func() error {
			out, err := exec.Command("fallocate", "--punch-hole", "--offset", strconv.Itoa(size-lost), "--length", strconv.Itoa(lost), img).CombinedOutput()
			if err != nil {
				return fmt.Errorf("fallocate: %v: %s", err, out)
			}
			return nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	if f.ZeroBytes < 1<<20 || f.ZeroBytes > lost || f.FirstBadOffset == nil || f.OKBytes+f.ZeroBytes+f.MovedBytes+f.ChangedBytes != f.WrittenBytes {
		t.Errorf("lost tail of %d MiB not found: ok %d, zero %d, moved %d, changed %d of %d, first bad %v",
			lost>>20, f.OKBytes, f.ZeroBytes, f.MovedBytes, f.ChangedBytes, f.WrittenBytes, f.FirstBadOffset)
	}
	if f.OKBytes >= f.WrittenBytes {
		t.Errorf("real capacity %d not below what was written, %d", f.OKBytes, f.WrittenBytes)
	}
}

// TestVerifyCapacityKilled kills a process in the middle of the check with
// SIGKILL: the space it filled is free again and nothing is left.
func TestVerifyCapacityKilled(t *testing.T) {
	if dir := os.Getenv("BOARDBENCH_CAPACITY_CHILD"); dir != "" {
		_, _ = VerifyCapacity(context.Background(), CapacityConfig{Dir: dir, FileBytes: 8 << 20,
			AfterWrite: func() error { select {} }})
		return
	}
	mnt, _ := loopfs.Make(t, 64<<20)
	before, err := FreeBytes(mnt)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestVerifyCapacityKilled$")
	cmd.Env = append(os.Environ(), "BOARDBENCH_CAPACITY_CHILD="+mnt)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ended := make(chan struct{})
	go func() { _ = cmd.Wait(); close(ended) }()
	// Wait (without a time limit) until the child has filled the space.
	for {
		free, _ := FreeBytes(mnt)
		if free <= CapacityMargin+(1<<20) {
			break
		}
		select {
		case <-ended:
			t.Fatal("the child ended before filling the space")
		case <-time.After(20 * time.Millisecond):
		}
	}
	_ = cmd.Process.Kill()
	<-ended
	after, err := FreeBytes(mnt)
	if err != nil {
		t.Fatal(err)
	}
	if after < before-(1<<20) {
		t.Errorf("free space %d MiB after SIGKILL, %d MiB before", after>>20, before>>20)
	}
	if ents, _ := os.ReadDir(mnt); len(ents) != 0 {
		t.Errorf("left behind: %v", ents)
	}
}
