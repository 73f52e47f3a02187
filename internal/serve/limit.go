package serve

import (
	"context"
	"net/http"
	"strconv"
)

// Bounds of the database work done at once (Config.MaxDBWork and
// MaxDBQueue when they are 0).
const (
	// DefaultMaxDBWork is how many requests read the store at once.
	DefaultMaxDBWork = 8
	// DefaultMaxDBQueue is how many more wait for their turn; a request
	// beyond those is answered 503 at once.
	DefaultMaxDBQueue = 64
)

// workLimit admits at most cap(slots) requests to the store at once and
// lets at most cap(queue)-cap(slots) more wait (each with its own
// context); the others are refused at once.
type workLimit struct {
	slots chan struct{}
	queue chan struct{}
}

func newWorkLimit(work, queued int) *workLimit {
	if work <= 0 {
		work = DefaultMaxDBWork
	}
	if queued < 0 {
		queued = 0
	}
	return &workLimit{slots: make(chan struct{}, work), queue: make(chan struct{}, work+queued)}
}

// acquire takes a slot: false when the queue is full or ctx ended while
// waiting. A true acquire must be released.
func (l *workLimit) acquire(ctx context.Context) bool {
	select {
	case l.queue <- struct{}{}:
	default:
		return false
	}
	select {
	case l.slots <- struct{}{}:
		return true
	case <-ctx.Done():
		<-l.queue
		return false
	}
}

func (l *workLimit) release() {
	<-l.slots
	<-l.queue
}

// limited runs h when the work limit admits the request, else answers
// 503 with Retry-After.
func (s *Server) limited(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !s.work.acquire(r.Context()) {
			w.Header().Set("Retry-After", strconv.Itoa(1))
			s.errorPage(w, http.StatusServiceUnavailable, "Busy", "The server is answering as many requests as it allows; try again in a moment.")
			return
		}
		defer s.work.release()
		h(w, r)
	}
}
