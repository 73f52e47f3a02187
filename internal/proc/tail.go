package proc

import (
	"sync"
	"unicode/utf8"
)

// tailBuffer keeps the last limit bytes written to it and counts them all.
// It is safe for concurrent writers (the two output streams).
type tailBuffer struct {
	mu    sync.Mutex
	limit int
	buf   []byte
	total int64
}

func newTailBuffer(limit int) *tailBuffer { return &tailBuffer{limit: limit} }

// Write keeps the end of p; it never fails.
func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.total += int64(len(p))
	if len(p) >= t.limit {
		t.buf = append(t.buf[:0], p[len(p)-t.limit:]...)
		return len(p), nil
	}
	t.buf = append(t.buf, p...)
	if len(t.buf) > 2*t.limit { // compact now and then, not on every write
		n := copy(t.buf, t.buf[len(t.buf)-t.limit:])
		t.buf = t.buf[:n]
	}
	return len(p), nil
}

// Bytes returns a copy of the kept bytes: the last limit bytes written,
// starting at a character boundary when the start was cut off.
func (t *tailBuffer) Bytes() []byte {
	t.mu.Lock()
	defer t.mu.Unlock()
	b := t.buf
	if len(b) > t.limit {
		b = b[len(b)-t.limit:]
	}
	if int64(len(b)) < t.total {
		// Cut: skip UTF-8 continuation bytes of a character split at the start.
		for n := 0; n < utf8.UTFMax-1 && len(b) > 0 && !utf8.RuneStart(b[0]); n++ {
			b = b[1:]
		}
	}
	return append([]byte(nil), b...)
}

// Total returns how many bytes were written in all.
func (t *tailBuffer) Total() int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.total
}
