package websearch_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"
	"golang.org/x/text/encoding/charmap"

	"github.com/websearch-mcp/websearch-mcp/websearch"
)

// TestFaultMatrix holds every fault DuckDuckGo (or the network) can throw at
// a search to a typed outcome, in bounded time, leaking no goroutine.
func TestFaultMatrix(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())

	challenge := `<html><body><form id="challenge-form" action="//duckduckgo.com/anomaly.js"></form></body></html>`
	page := resultsPage(0, 3, "")
	cp1252, err := charmap.Windows1252.NewEncoder().String(strings.Replace(page, "Result 0", "Café crème", 1))
	require.NoError(t, err)

	// failing answers the first n requests with fail, then with page.
	failing := func(n int32, fail http.HandlerFunc) http.HandlerFunc {
		var calls atomic.Int32
		return func(w http.ResponseWriter, r *http.Request) {
			if calls.Add(1) <= n {
				fail(w, r)
				return
			}
			io.WriteString(w, page)
		}
	}
	resetMidBody := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "100000")
		w.WriteHeader(http.StatusOK)
		io.WriteString(w, page[:200])
		w.(http.Flusher).Flush()
		conn, _, _ := http.NewResponseController(w).Hijack()
		conn.(*net.TCPConn).SetLinger(0) // RST, not FIN
		conn.Close()
	}
	truncated := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", fmt.Sprint(len(page)))
		io.WriteString(w, page[:len(page)/2])
		conn, _, _ := http.NewResponseController(w).Hijack()
		conn.Close()
	}
	const always = 1 << 30

	tests := []struct {
		name    string
		handler http.HandlerFunc
		opts    websearch.ClientOptions
		want    func(t *testing.T, results []websearch.Result, err error)
		within  time.Duration
	}{
		{"202 challenge", respond(202, challenge), websearch.ClientOptions{}, blocked(202), 2 * time.Second},
		{"403 error-lite", respond(403, "If this error persists, please let us know: error-lite@duckduckgo.com"), websearch.ClientOptions{}, blocked(403), 2 * time.Second},
		{"418", respond(418, ""), websearch.ClientOptions{}, blocked(418), 2 * time.Second},
		{"429 with Retry-After", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Retry-After", "120")
			w.WriteHeader(429)
		}, websearch.ClientOptions{}, blocked(429), 2 * time.Second},
		{"500 once", failing(1, respond(500, "oops")), websearch.ClientOptions{}, found(3), 5 * time.Second},
		{"503 once, Retry-After 1", failing(1, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(503)
		}), websearch.ClientOptions{}, found(3), 5 * time.Second},
		{"500 always", failing(always, respond(500, "oops")), websearch.ClientOptions{}, status(500), 10 * time.Second},
		{"503 always", failing(always, respond(503, "down")), websearch.ClientOptions{}, status(503), 10 * time.Second},
		{"503 with a Retry-After too long to wait", failing(always, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Retry-After", "3600")
			w.WriteHeader(503)
		}), websearch.ClientOptions{}, status(503), 2 * time.Second},
		{"connection reset mid-body, then fine", failing(1, resetMidBody), websearch.ClientOptions{}, found(3), 5 * time.Second},
		{"connection reset mid-body always", failing(always, resetMidBody), websearch.ClientOptions{}, failed("reading the body"), 10 * time.Second},
		{"truncated page", failing(always, truncated), websearch.ClientOptions{}, failed("unexpected EOF"), 10 * time.Second},
		{"server slower than the timeout", func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-r.Context().Done():
			case <-time.After(5 * time.Second):
			}
		}, websearch.ClientOptions{Timeout: 100 * time.Millisecond, MaxRetries: 1}, failed("no answer within 100ms"), 5 * time.Second},
		{"10 MB body", func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, page)
			io.WriteString(w, strings.Repeat("<p>padding</p>", 10<<20/14))
		}, websearch.ClientOptions{}, failedWith(websearch.ErrResponseTooLarge), 5 * time.Second},
		{"redirect loop", func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, r.URL.Path, http.StatusTemporaryRedirect)
		}, websearch.ClientOptions{}, failed("stopped after 5 redirects"), 5 * time.Second},
		{"windows-1252 page", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=windows-1252")
			io.WriteString(w, cp1252)
		}, websearch.ClientOptions{}, func(t *testing.T, results []websearch.Result, err error) {
			require.NoError(t, err)
			require.NotEmpty(t, results)
			assert.Equal(t, "Café crème", results[0].Title)
		}, 2 * time.Second},
		{"empty 200 body", respond(200, ""), websearch.ClientOptions{}, failedWith(websearch.ErrUnexpectedMarkup), 2 * time.Second},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(tc.handler)
			defer srv.Close()
			o := tc.opts
			o.HTMLURL, o.LiteURL, o.APIURL = srv.URL+"/html/", srv.URL+"/lite/", srv.URL+"/"
			o.MinInterval = -1
			c, err := websearch.NewClient(&o)
			require.NoError(t, err)
			defer c.CloseIdleConnections()

			start := time.Now()
			results, err := c.Search(context.Background(), "q", nil)
			assert.Less(t, time.Since(start), tc.within, "bounded time")
			tc.want(t, results, err)
		})
	}
	t.Run("JSON API returning HTML", func(t *testing.T) {
		t.Parallel()
		srv := httptest.NewServer(respond(200, "<html><body>Sorry</body></html>"))
		defer srv.Close()
		c, err := websearch.NewClient(&websearch.ClientOptions{APIURL: srv.URL + "/", MinInterval: -1})
		require.NoError(t, err)
		defer c.CloseIdleConnections()
		_, err = c.InstantAnswer(context.Background(), "q")
		assert.ErrorIs(t, err, websearch.ErrUnexpectedMarkup)
	})
}

func blocked(status int) func(*testing.T, []websearch.Result, error) {
	return func(t *testing.T, results []websearch.Result, err error) {
		var be *websearch.BlockedError
		require.ErrorAs(t, err, &be)
		assert.ErrorIs(t, err, websearch.ErrBlocked)
		assert.Equal(t, status, be.StatusCode)
		assert.Nil(t, results)
	}
}

func found(n int) func(*testing.T, []websearch.Result, error) {
	return func(t *testing.T, results []websearch.Result, err error) {
		require.NoError(t, err)
		assert.Len(t, results, n)
	}
}

func status(code int) func(*testing.T, []websearch.Result, error) {
	return func(t *testing.T, results []websearch.Result, err error) {
		var se *websearch.StatusError
		require.ErrorAs(t, err, &se)
		assert.Equal(t, code, se.StatusCode)
	}
}

func failed(text string) func(*testing.T, []websearch.Result, error) {
	return func(t *testing.T, results []websearch.Result, err error) {
		require.Error(t, err)
		assert.Contains(t, err.Error(), text)
		assert.NotErrorIs(t, err, websearch.ErrBlocked)
	}
}

func failedWith(target error) func(*testing.T, []websearch.Result, error) {
	return func(t *testing.T, results []websearch.Result, err error) {
		assert.ErrorIs(t, err, target)
	}
}

// TestConcurrentSearches sends 200 searches at once to one server: all are
// answered, identical ones share one request, repeats come from the cache,
// and the server never sees two requests closer than the pacing interval.
func TestConcurrentSearches(t *testing.T) {
	t.Parallel()
	const interval = 100 * time.Millisecond
	var mu sync.Mutex
	var arrivals []time.Time
	var queries []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		arrivals = append(arrivals, time.Now())
		mu.Unlock()
		r.ParseForm()
		mu.Lock()
		queries = append(queries, r.PostForm.Get("q"))
		mu.Unlock()
		io.WriteString(w, resultsPage(0, 5, ""))
	}))
	t.Cleanup(srv.Close)
	c, err := websearch.NewClient(&websearch.ClientOptions{HTMLURL: srv.URL + "/html/", MinInterval: interval})
	require.NoError(t, err)
	t.Cleanup(c.CloseIdleConnections)

	const calls, distinct = 200, 8
	wave := func() {
		var wg sync.WaitGroup
		errs := make(chan error, calls)
		for i := range calls {
			wg.Go(func() {
				results, err := c.Search(context.Background(), fmt.Sprintf("query %d", i%distinct), nil)
				if err == nil && len(results) != 5 {
					err = fmt.Errorf("%d results", len(results))
				}
				errs <- err
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			require.NoError(t, err)
		}
	}
	wave()
	mu.Lock()
	assert.Len(t, arrivals, distinct, "identical searches in flight share one request: %v", queries)
	mu.Unlock()
	wave()
	mu.Lock()
	defer mu.Unlock()
	assert.Len(t, arrivals, distinct, "repeated searches come from the cache")
	// The pacer spaces the sends; the server sees each request after a delay
	// (connection setup, scheduling under -race and load) that can shorten
	// one gap by what it lengthened the one before. A gap under 60% of the
	// interval would be two sends together; and since delays do not add up,
	// the whole span shows the spacing held on average.
	const jitter = 40 * time.Millisecond
	for i := 1; i < len(arrivals); i++ {
		assert.GreaterOrEqual(t, arrivals[i].Sub(arrivals[i-1]), interval-jitter, "gap %d", i)
	}
	span := arrivals[len(arrivals)-1].Sub(arrivals[0])
	assert.GreaterOrEqual(t, span, time.Duration(len(arrivals)-1)*interval-jitter, "the span of %d paced requests", len(arrivals))
}
