package websearch

import (
	"context"
	"sync"
	"time"
)

// pacer keeps a minimum interval between the requests of a Client, whatever
// goroutine sends them: each request takes the next free slot.
type pacer struct {
	interval time.Duration // 0: no pacing

	mu   sync.Mutex
	next time.Time // the earliest start of the next request
}

// wait blocks until the caller's slot comes, or ctx is done.
func (p *pacer) wait(ctx context.Context) error {
	if p.interval <= 0 {
		return ctx.Err()
	}
	p.mu.Lock()
	now := time.Now()
	at := p.next
	if at.Before(now) {
		at = now
	}
	p.next = at.Add(p.interval)
	p.mu.Unlock()
	return sleep(ctx, time.Until(at))
}

// sleep waits for d, or until ctx is done.
func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// cooldown pauses the searches of a Client after DuckDuckGo's bot challenge:
// the first pause lasts min, each block during or right after one doubles it
// up to max, and a successful search ends it.
type cooldown struct {
	min, max time.Duration // min 0: no cool-down

	mu    sync.Mutex
	next  time.Duration // the length of the next pause
	until time.Time     // the end of the pause in force
}

// remaining is how long the pause in force lasts still; 0 when there is none.
func (c *cooldown) remaining() time.Duration {
	if c.min <= 0 {
		return 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return max(0, time.Until(c.until))
}

// trip starts a pause after a block, and returns its length.
func (c *cooldown) trip() time.Duration {
	if c.min <= 0 {
		return 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.next < c.min {
		c.next = c.min
	}
	d := c.next
	c.until = time.Now().Add(d)
	c.next = min(2*d, c.max)
	return d
}

// reset ends the pause after a successful search.
func (c *cooldown) reset() {
	if c.min <= 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.next, c.until = c.min, time.Time{}
}
