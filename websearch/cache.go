package websearch

import (
	"container/list"
	"context"
	"errors"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"
)

// cache keeps recent answers of a Client in memory: at most size entries,
// each for ttl, the least recently used going first.
type cache struct {
	ttl  time.Duration
	size int

	mu    sync.Mutex
	order *list.List               // front: most recently used
	items map[string]*list.Element // of *cacheEntry
}

type cacheEntry struct {
	key     string
	value   any
	expires time.Time
}

func newCache(size int, ttl time.Duration) *cache {
	return &cache{ttl: ttl, size: size, order: list.New(), items: make(map[string]*list.Element)}
}

func (c *cache) get(key string) (any, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.items[key]
	if !ok {
		return nil, false
	}
	e := el.Value.(*cacheEntry)
	if time.Now().After(e.expires) {
		c.order.Remove(el)
		delete(c.items, key)
		return nil, false
	}
	c.order.MoveToFront(el)
	return e.value, true
}

func (c *cache) put(key string, value any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.items[key]; ok {
		c.order.Remove(el)
	}
	c.items[key] = c.order.PushFront(&cacheEntry{key: key, value: value, expires: time.Now().Add(c.ttl)})
	for c.order.Len() > c.size {
		oldest := c.order.Back()
		c.order.Remove(oldest)
		delete(c.items, oldest.Value.(*cacheEntry).key)
	}
}

// cached answers key from the cache, or runs fetch once for all the callers
// that ask for key at the same time, caching what it returns without error.
// The value is shared: callers copy it before handing it out. With no cache
// (c nil), identical calls are still coalesced.
func cached[T any](ctx context.Context, c *cache, flight *singleflight.Group, key string, fetch func(context.Context) (T, error)) (T, error) {
	if c != nil {
		if v, ok := c.get(key); ok {
			return v.(T), nil
		}
	}
	run := func() (any, error) {
		v, err := fetch(ctx)
		if err == nil && c != nil {
			c.put(key, v)
		}
		return v, err
	}
	v, err, shared := flight.Do(key, run)
	if shared && errors.Is(err, context.Canceled) && ctx.Err() == nil {
		// The caller whose request we shared gave up; we did not.
		v, err, _ = flight.Do(key, run)
	}
	if err != nil {
		var zero T
		return zero, err
	}
	return v.(T), nil
}
