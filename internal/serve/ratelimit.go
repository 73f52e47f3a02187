package serve

import (
	"math"
	"sync"
	"time"
)

// rateLimit is a token bucket per upload token name: Rate uploads a
// second on average, Burst at once. It lives in the serving process, so
// two servers on one store each allow the rate (docs/lab.md).
type rateLimit struct {
	rate  float64
	burst float64
	now   func() time.Time

	mu      sync.Mutex
	buckets map[string]*bucket
}

type bucket struct {
	tokens float64
	last   time.Time
}

// maxBuckets bounds the names remembered; beyond it the fullest buckets
// (those idle long enough to be full again) are forgotten.
const maxBuckets = 10000

func newRateLimit(rate float64, burst int, now func() time.Time) *rateLimit {
	if now == nil {
		now = time.Now
	}
	if burst < 1 {
		burst = 1
	}
	return &rateLimit{rate: rate, burst: float64(burst), now: now, buckets: map[string]*bucket{}}
}

// allow takes one upload from name's bucket: true when there was one,
// else false and how long until there is.
func (l *rateLimit) allow(name string) (bool, time.Duration) {
	if l == nil || l.rate <= 0 {
		return true, 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	b, ok := l.buckets[name]
	if !ok {
		if len(l.buckets) >= maxBuckets {
			l.forgetFull(now)
		}
		b = &bucket{tokens: l.burst, last: now}
		l.buckets[name] = b
	}
	if el := now.Sub(b.last).Seconds(); el > 0 {
		b.tokens = math.Min(l.burst, b.tokens+el*l.rate)
	}
	b.last = now
	if b.tokens >= 1 {
		b.tokens--
		return true, 0
	}
	return false, time.Duration((1 - b.tokens) / l.rate * float64(time.Second))
}

// forgetFull drops the buckets that would be full by now (forgetting
// them changes nothing).
func (l *rateLimit) forgetFull(now time.Time) {
	for name, b := range l.buckets {
		if b.tokens+now.Sub(b.last).Seconds()*l.rate >= l.burst {
			delete(l.buckets, name)
		}
	}
}
