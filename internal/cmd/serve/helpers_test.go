package serve

import (
	"bytes"
	"strings"
	"sync"
)

// lockedBuffer is a bytes.Buffer safe to write from the server's
// goroutine while the test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func containsLine(s, part string) bool { return strings.Contains(s, part) }
