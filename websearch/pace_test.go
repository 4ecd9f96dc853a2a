package websearch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sync/singleflight"
)

func TestCooldown(t *testing.T) {
	t.Parallel()
	c := cooldown{min: time.Minute, max: 5 * time.Minute}
	assert.Zero(t, c.remaining())
	for _, want := range []time.Duration{time.Minute, 2 * time.Minute, 4 * time.Minute, 5 * time.Minute, 5 * time.Minute} {
		assert.Equal(t, want, c.trip(), "each block doubles the pause, up to max")
		assert.InDelta(t, want, c.remaining(), float64(time.Second))
	}
	c.reset()
	assert.Zero(t, c.remaining())
	assert.Equal(t, time.Minute, c.trip(), "a success starts over")

	off := cooldown{}
	assert.Zero(t, off.trip())
	assert.Zero(t, off.remaining())
}

func TestPacer(t *testing.T) {
	t.Parallel()
	p := pacer{interval: 30 * time.Millisecond}
	start := time.Now()
	var mu sync.Mutex
	var times []time.Duration
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			require.NoError(t, p.wait(context.Background()))
			mu.Lock()
			times = append(times, time.Since(start))
			mu.Unlock()
		})
	}
	wg.Wait()
	assert.GreaterOrEqual(t, time.Since(start), 90*time.Millisecond, "4 requests take 3 intervals")

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	assert.ErrorIs(t, (&pacer{interval: time.Hour}).wait(ctx), context.Canceled)
	assert.NoError(t, (&pacer{}).wait(context.Background()), "no pacing")
}

func TestCache(t *testing.T) {
	t.Parallel()
	c := newCache(2, time.Hour)
	c.put("a", 1)
	c.put("b", 2)
	_, _ = c.get("a") // a is now the most recently used
	c.put("c", 3)     // so b leaves
	_, ok := c.get("b")
	assert.False(t, ok, "the least recently used entry leaves first")
	v, ok := c.get("a")
	assert.True(t, ok)
	assert.Equal(t, 1, v)

	short := newCache(2, time.Millisecond)
	short.put("a", 1)
	time.Sleep(5 * time.Millisecond)
	_, ok = short.get("a")
	assert.False(t, ok, "an entry expires after the TTL")
}

func TestCachedCoalescesAndSkipsErrors(t *testing.T) {
	t.Parallel()
	c := newCache(10, time.Hour)
	var flight singleflight.Group
	calls := 0
	release := make(chan struct{})
	fetch := func(context.Context) (int, error) {
		calls++
		<-release
		return 42, nil
	}
	var wg sync.WaitGroup
	for range 10 {
		wg.Go(func() {
			v, err := cached(context.Background(), c, &flight, "k", fetch)
			assert.NoError(t, err)
			assert.Equal(t, 42, v)
		})
	}
	time.Sleep(20 * time.Millisecond)
	close(release)
	wg.Wait()
	assert.Equal(t, 1, calls, "calls in flight together share one fetch")

	failures := 0
	failing := func(context.Context) (int, error) { failures++; return 0, errors.New("boom") }
	for range 2 {
		_, err := cached(context.Background(), c, &flight, "bad", failing)
		assert.Error(t, err)
	}
	assert.Equal(t, 2, failures, "errors are not cached")
}

func TestRetryDelay(t *testing.T) {
	t.Parallel()
	bg := context.Background()
	resp := func(status int, retryAfter string) *response {
		h := http.Header{}
		if retryAfter != "" {
			h.Set("Retry-After", retryAfter)
		}
		return &response{status: status, header: h}
	}
	tests := []struct {
		name string
		resp *response
		err  error
		want bool
	}{
		{"500", resp(500, ""), nil, true},
		{"502", resp(502, ""), nil, true},
		{"503", resp(503, ""), nil, true},
		{"504", resp(504, ""), nil, true},
		{"200", resp(200, ""), nil, false},
		{"404", resp(404, ""), nil, false},
		{"429 is a block", resp(429, "1"), nil, false},
		{"202 is a block", resp(202, ""), nil, false},
		{"Retry-After too long", resp(503, "3600"), nil, false},
		{"reset", nil, fmt.Errorf("read: %w", syscall.ECONNRESET), true},
		{"refused", nil, fmt.Errorf("dial: %w", syscall.ECONNREFUSED), true},
		{"unexpected EOF", nil, io.ErrUnexpectedEOF, true},
		{"per-request timeout", nil, fmt.Errorf("x: %w", context.DeadlineExceeded), true},
		{"too large", nil, ErrResponseTooLarge, false},
		{"other", nil, errors.New("stopped after 5 redirects"), false},
	}
	for _, tc := range tests {
		_, got := retryDelay(bg, tc.resp, tc.err, 0)
		assert.Equal(t, tc.want, got, tc.name)
	}

	d, ok := retryDelay(bg, resp(503, "2"), nil, 0)
	assert.True(t, ok)
	assert.Equal(t, 2*time.Second, d, "Retry-After is honoured")

	ctx, cancel := context.WithTimeout(bg, 100*time.Millisecond)
	defer cancel()
	_, ok = retryDelay(ctx, resp(503, "5"), nil, 0)
	assert.False(t, ok, "no retry the caller would not live to see")

	cancelled, stop := context.WithCancel(bg)
	stop()
	_, ok = retryDelay(cancelled, nil, syscall.ECONNRESET, 0)
	assert.False(t, ok, "no retry once the caller gave up")

	for n := range 10 {
		d := backoff(n)
		base := min(baseBackoff<<n, maxBackoff)
		assert.GreaterOrEqual(t, d, base/2)
		assert.Less(t, d, base*3/2)
	}
	after, ok := retryAfter(time.Now().Add(3 * time.Second).UTC().Format(http.TimeFormat))
	assert.True(t, ok)
	assert.InDelta(t, 3*time.Second, after, float64(1500*time.Millisecond))
	_, ok = retryAfter("soon")
	assert.False(t, ok)
}
