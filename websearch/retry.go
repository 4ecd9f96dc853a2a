package websearch

import (
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"syscall"
	"time"
)

// Backoff between retries: base·2ⁿ with ±50% jitter, at most maxBackoff.
// A Retry-After header longer than maxRetryAfter is not waited for.
const (
	baseBackoff   = 500 * time.Millisecond
	maxBackoff    = 8 * time.Second
	maxRetryAfter = 30 * time.Second
)

// retryDelay says whether the outcome of attempt n (from 0) is worth another
// try, and after how long. Transient: connection resets and refusals, a
// connection closed mid-body, the per-request timeout, and HTTP 500, 502,
// 503 and 504. A block is never retried, nor is anything the caller's
// context ended.
func retryDelay(parent context.Context, resp *response, err error, n int) (time.Duration, bool) {
	if parent.Err() != nil {
		return 0, false
	}
	if err != nil {
		if !transientError(err) {
			return 0, false
		}
		return backoff(n), true
	}
	switch resp.status {
	case http.StatusInternalServerError, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
	default:
		return 0, false
	}
	d := backoff(n)
	if after, ok := retryAfter(resp.header.Get("Retry-After")); ok {
		if after > maxRetryAfter {
			return 0, false
		}
		d = max(d, after)
	}
	if deadline, ok := parent.Deadline(); ok && time.Until(deadline) < d {
		return 0, false // the caller would be gone before the retry
	}
	return d, true
}

// transientError reports whether a failed exchange may well succeed if
// tried again.
func transientError(err error) bool {
	var netErr net.Error
	switch {
	case errors.Is(err, context.DeadlineExceeded): // the per-request timeout
		return true
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.EPIPE):
		return true
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return true
	case errors.As(err, &netErr) && netErr.Timeout():
		return true
	}
	return false
}

// backoff is the pause before retry n+1.
func backoff(n int) time.Duration {
	d := min(baseBackoff<<n, maxBackoff)
	return d/2 + rand.N(d)
}

// retryAfter reads a Retry-After header: seconds, or an HTTP date.
func retryAfter(v string) (time.Duration, bool) {
	if v == "" {
		return 0, false
	}
	if secs, err := strconv.Atoi(v); err == nil && secs >= 0 {
		return time.Duration(secs) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(0, time.Until(t)), true
	}
	return 0, false
}
