package websearch_test

import (
	"compress/gzip"
	"compress/zlib"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/zstd"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/websearch-mcp/websearch-mcp/websearch"
)

// replica starts a server standing in for DuckDuckGo's three endpoints and
// returns a Client pointed at it.
func replica(t *testing.T, h http.HandlerFunc, opts *websearch.ClientOptions) *websearch.Client {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	o := websearch.ClientOptions{MinInterval: -1} // tests do not wait between requests
	if opts != nil {
		o = *opts
		if o.MinInterval == 0 {
			o.MinInterval = -1
		}
	}
	o.HTMLURL, o.LiteURL, o.APIURL = srv.URL+"/html/", srv.URL+"/lite/", srv.URL+"/"
	c, err := websearch.NewClient(&o)
	require.NoError(t, err)
	return c
}

// respond answers every request with status and body.
func respond(status int, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(status)
		io.WriteString(w, body)
	}
}

// resultsPage is a result page of the HTML endpoint with n results whose
// URLs start at https://example.com/<first>, and a Next form when next is
// not empty.
func resultsPage(first, n int, next string) string {
	var b strings.Builder
	b.WriteString(`<html><body><div id="links" class="results">`)
	for i := first; i < first+n; i++ {
		fmt.Fprintf(&b, `<div class="result results_links web-result"><div class="links_main result__body"><h2 class="result__title">`+
			`<a rel="nofollow" class="result__a" href="//duckduckgo.com/l/?uddg=https%%3A%%2F%%2Fexample.com%%2F%d&amp;rut=0">Result %d</a></h2>`+
			`<a class="result__snippet" href="#">Snippet %d</a></div></div>`, i, i, i)
	}
	if next != "" {
		fmt.Fprintf(&b, `<div class="nav-link"><form action="/html/" method="post"><input type="submit" value="Next" />`+
			`<input type="hidden" name="q" value="q" /><input type="hidden" name="s" value="%s" /><input name="kl" value="wt-wt" type="hidden" /></form></div>`, next)
	}
	b.WriteString(`</div></body></html>`)
	return b.String()
}

func TestSearchRequest(t *testing.T) {
	t.Parallel()
	var got *http.Request
	var body string
	c := replica(t, func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got, body = r, string(b)
		io.WriteString(w, resultsPage(0, 3, ""))
	}, &websearch.ClientOptions{UserAgent: "test-agent/1.0"})

	results, err := c.Search(context.Background(), "  go  channels ", &websearch.SearchOptions{
		Region: "JP-jp", TimeRange: websearch.PastMonth, SafeSearch: websearch.SafeSearchOff,
	})
	require.NoError(t, err)
	assert.Len(t, results, 3)
	assert.Equal(t, http.MethodPost, got.Method)
	assert.Equal(t, "/html/", got.URL.Path)
	assert.Equal(t, "q=go++channels&b=&kl=jp-jp&df=m&kp=-2", body, "DuckDuckGo's own form, in its order")
	assert.Equal(t, "application/x-www-form-urlencoded", got.Header.Get("Content-Type"))
	assert.Equal(t, "test-agent/1.0", got.Header.Get("User-Agent"))
	assert.Equal(t, "http://"+got.Host+"/", got.Header.Get("Referer"))
}

func TestSearchPagination(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		max        int
		pages      []string
		wantLen    int
		wantPosted int
	}{
		{"stops at max results", 12, []string{resultsPage(0, 10, "10"), resultsPage(10, 15, "25"), resultsPage(25, 15, "")}, 12, 2},
		{"drops repeated URLs", 20, []string{resultsPage(0, 10, "10"), resultsPage(5, 10, "")}, 15, 2},
		{"stops without a Next form", 30, []string{resultsPage(0, 10, "")}, 10, 1},
		{"stops when a page adds nothing new", 30, []string{resultsPage(0, 10, "10"), resultsPage(0, 10, "20"), resultsPage(20, 10, "")}, 10, 2},
		{"a single result", 1, []string{resultsPage(0, 10, "10")}, 1, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var posted atomic.Int32
			var secondBody atomic.Value
			c := replica(t, func(w http.ResponseWriter, r *http.Request) {
				n := int(posted.Add(1))
				b, _ := io.ReadAll(r.Body)
				if n == 2 {
					secondBody.Store(string(b))
				}
				io.WriteString(w, tc.pages[n-1])
			}, nil)
			results, err := c.Search(context.Background(), "q", &websearch.SearchOptions{MaxResults: tc.max, TimeRange: websearch.PastDay})
			require.NoError(t, err)
			assert.Len(t, results, tc.wantLen)
			assert.Equal(t, tc.wantPosted, int(posted.Load()))
			if tc.wantPosted > 1 {
				assert.Equal(t, "q=q&s=10&kl=wt-wt&df=d&kp=-1", secondBody.Load(), "the Next form as written, with df and kp added back")
			}
		})
	}
}

func TestSearchFailures(t *testing.T) {
	t.Parallel()
	challenge := `<html><body><form id="challenge-form" action="//duckduckgo.com/anomaly.js"></form></body></html>`
	tests := []struct {
		name        string
		status      int
		body        string
		wantErr     error
		wantStatus  int
		wantBlocked bool
	}{
		{"202 challenge", http.StatusAccepted, challenge, websearch.ErrBlocked, 202, true},
		{"403 error-lite", http.StatusForbidden, "If this error persists, please let us know: error-lite@duckduckgo.com", websearch.ErrBlocked, 403, true},
		{"418", http.StatusTeapot, "", websearch.ErrBlocked, 418, true},
		{"429", http.StatusTooManyRequests, "slow down", websearch.ErrBlocked, 429, true},
		{"200 challenge", http.StatusOK, challenge, websearch.ErrBlocked, 0, true},
		{"403 other", http.StatusForbidden, "forbidden", nil, 403, false},
		{"404", http.StatusNotFound, "no such page", nil, 404, false},
		{"200 unknown page", http.StatusOK, "<html><body><p>Hello</p></body></html>", websearch.ErrUnexpectedMarkup, 0, false},
		{"200 empty body", http.StatusOK, "", websearch.ErrUnexpectedMarkup, 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var paths []string
			var mu sync.Mutex
			c := replica(t, func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				paths = append(paths, r.URL.Path)
				mu.Unlock()
				respond(tc.status, tc.body)(w, r)
			}, nil)
			results, err := c.Search(context.Background(), "q", nil)
			require.Error(t, err)
			assert.Nil(t, results)
			if tc.wantErr != nil {
				assert.ErrorIs(t, err, tc.wantErr)
			}
			if tc.wantBlocked {
				var be *websearch.BlockedError
				require.ErrorAs(t, err, &be)
				assert.Equal(t, tc.wantStatus, be.StatusCode)
				assert.Equal(t, websearch.DefaultCooldown, be.Wait)
				assert.Equal(t, []string{"/html/", "/lite/"}, paths, "a block is never retried; the lite endpoint is tried once")
				return
			}
			assert.Equal(t, []string{"/html/"}, paths)
			var se *websearch.StatusError
			if tc.wantStatus == 0 {
				assert.False(t, errors.As(err, &se), "no status error for a 200: %v", err)
				return
			}
			require.True(t, errors.As(err, &se), "%v", err)
			assert.Equal(t, tc.wantStatus, se.StatusCode)
			assert.Equal(t, tc.body, se.Body)
			assert.Contains(t, err.Error(), fmt.Sprint(tc.wantStatus))
		})
	}
}

func TestSearchLimits(t *testing.T) {
	t.Parallel()
	t.Run("body too large", func(t *testing.T) {
		t.Parallel()
		c := replica(t, func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, resultsPage(0, 10, "")+strings.Repeat(" ", 2048))
		}, &websearch.ClientOptions{MaxBodyBytes: 1024})
		_, err := c.Search(context.Background(), "q", nil)
		assert.ErrorIs(t, err, websearch.ErrResponseTooLarge)
	})
	t.Run("timeout", func(t *testing.T) {
		t.Parallel()
		release := make(chan struct{})
		c := replica(t, func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-release:
			case <-r.Context().Done():
			}
		}, &websearch.ClientOptions{Timeout: 50 * time.Millisecond})
		defer close(release)
		_, err := c.Search(context.Background(), "q", nil)
		assert.ErrorIs(t, err, context.DeadlineExceeded)
		assert.Contains(t, err.Error(), "no answer within 50ms")
	})
	t.Run("cancelled by the caller", func(t *testing.T) {
		t.Parallel()
		var calls atomic.Int32
		c := replica(t, func(w http.ResponseWriter, r *http.Request) { calls.Add(1) }, nil)
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		_, err := c.Search(ctx, "q", nil)
		assert.ErrorIs(t, err, context.Canceled)
		assert.Zero(t, calls.Load())
	})
	t.Run("redirect loop", func(t *testing.T) {
		t.Parallel()
		c := replica(t, func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, r.URL.Path, http.StatusFound)
		}, nil)
		_, err := c.Search(context.Background(), "q", nil)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "redirects")
	})
}

func TestSearchInvalidInput(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		query string
		opts  *websearch.SearchOptions
		want  string
	}{
		{"empty query", "", nil, "query must not be empty"},
		{"blank query", " \t ", nil, "query must not be empty"},
		{"long query", strings.Repeat("é", 501), nil, "query must be at most 500 characters (got 501)"},
		{"control character", "go\nlang", nil, "query must not contain control characters such as tabs or line breaks (found U+000A at character 3)"},
		{"invalid UTF-8", "go\xfflang", nil, "query must be valid UTF-8 text"},
		{"negative max", "q", &websearch.SearchOptions{MaxResults: -1}, "max results must be from 1 to 100 (got -1)"},
		{"max too large", "q", &websearch.SearchOptions{MaxResults: 101}, "max results must be from 1 to 100 (got 101)"},
		{"bad region", "q", &websearch.SearchOptions{Region: "japan"}, `region must be a DuckDuckGo region code such as us-en or jp-jp (got "japan")`},
		{"bad safe search", "q", &websearch.SearchOptions{SafeSearch: 7}, "safe search must be strict, moderate or off (got 7)"},
		{"bad time range", "q", &websearch.SearchOptions{TimeRange: "decade"}, `time range must be day, week, month, year or any (got "decade")`},
	}
	var calls atomic.Int32
	c := replica(t, func(w http.ResponseWriter, r *http.Request) { calls.Add(1) }, nil)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.Search(context.Background(), tc.query, tc.opts)
			require.ErrorIs(t, err, websearch.ErrInvalidInput)
			assert.EqualError(t, err, tc.want)
		})
	}
	_, err := c.InstantAnswer(context.Background(), "")
	require.ErrorIs(t, err, websearch.ErrInvalidInput)
	assert.Zero(t, calls.Load(), "bad input never reaches DuckDuckGo")
}

func TestCheckQuery(t *testing.T) {
	t.Parallel()
	q, err := websearch.CheckQuery("  rust\u00a0lang  ")
	require.NoError(t, err)
	assert.Equal(t, "rust\u00a0lang", q)
	q, err = websearch.CheckQuery(strings.Repeat("a", 500))
	require.NoError(t, err)
	assert.Len(t, q, 500)
}

func TestInstantAnswerRequestAndFailures(t *testing.T) {
	t.Parallel()
	t.Run("request", func(t *testing.T) {
		t.Parallel()
		var got *http.Request
		c := replica(t, func(w http.ResponseWriter, r *http.Request) {
			got = r
			io.WriteString(w, `{"Heading":"Go","Type":"A","AbstractText":"Go is a language.","RelatedTopics":[]}`)
		}, nil)
		a, err := c.InstantAnswer(context.Background(), " go ")
		require.NoError(t, err)
		assert.Equal(t, "Go is a language.", a.Abstract.Text)
		assert.Equal(t, http.MethodGet, got.Method)
		assert.Equal(t, "/", got.URL.Path)
		assert.Equal(t, "format=json&no_html=1&no_redirect=1&q=go&t=websearch-mcp", got.URL.RawQuery)
	})
	tests := []struct {
		name    string
		status  int
		body    string
		wantErr error
	}{
		{"HTML instead of JSON", 200, "<html><body>Hello</body></html>", websearch.ErrUnexpectedMarkup},
		{"empty body", 200, "", websearch.ErrUnexpectedMarkup},
		{"JSON array", 200, "[]", websearch.ErrUnexpectedMarkup},
		{"broken JSON", 200, `{"Heading":`, websearch.ErrUnexpectedMarkup},
		{"challenge", 202, `<form id="challenge-form"></form>`, websearch.ErrBlocked},
		{"challenge with 200", 200, `<form id="challenge-form"></form>`, websearch.ErrBlocked},
		{"404", 404, "oops", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := replica(t, respond(tc.status, tc.body), nil)
			a, err := c.InstantAnswer(context.Background(), "q")
			require.Error(t, err)
			assert.Nil(t, a)
			if tc.wantErr != nil {
				assert.ErrorIs(t, err, tc.wantErr)
			} else {
				var se *websearch.StatusError
				require.ErrorAs(t, err, &se)
				assert.Equal(t, tc.status, se.StatusCode)
			}
		})
	}
}

func TestNewClient(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		opts *websearch.ClientOptions
		want string
	}{
		{"nil means defaults", nil, ""},
		{"relative HTML URL", &websearch.ClientOptions{HTMLURL: "/html/"}, `the HTML endpoint must be an absolute http or https URL (got "/html/")`},
		{"ftp lite URL", &websearch.ClientOptions{LiteURL: "ftp://example.com/"}, `the lite endpoint must be an absolute http or https URL (got "ftp://example.com/")`},
		{"malformed API URL", &websearch.ClientOptions{APIURL: "http://[::1"}, `the API endpoint must be an absolute http or https URL (got "http://[::1")`},
		{"negative timeout", &websearch.ClientOptions{Timeout: -time.Second}, "timeout must not be negative (got -1s)"},
		{"negative body limit", &websearch.ClientOptions{MaxBodyBytes: -1}, "the body size limit must not be negative (got -1)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, err := websearch.NewClient(tc.opts)
			if tc.want == "" {
				require.NoError(t, err)
				assert.NotNil(t, c)
				return
			}
			require.ErrorIs(t, err, websearch.ErrInvalidInput)
			assert.EqualError(t, err, tc.want)
		})
	}
}

func TestParseOptions(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]websearch.SafeSearch{"strict": websearch.SafeSearchStrict, "Moderate": websearch.SafeSearchModerate, "OFF": websearch.SafeSearchOff} {
		got, err := websearch.ParseSafeSearch(in)
		require.NoError(t, err)
		assert.Equal(t, want, got)
	}
	_, err := websearch.ParseSafeSearch("medium")
	assert.ErrorIs(t, err, websearch.ErrInvalidInput)
	for in, want := range map[string]websearch.TimeRange{"": websearch.AnyTime, "any": websearch.AnyTime, "day": websearch.PastDay, "W": websearch.PastWeek, "month": websearch.PastMonth, "y": websearch.PastYear} {
		got, err := websearch.ParseTimeRange(in)
		require.NoError(t, err)
		assert.Equal(t, want, got)
	}
	_, err = websearch.ParseTimeRange("fortnight")
	assert.ErrorIs(t, err, websearch.ErrInvalidInput)
}

func TestContentEncodings(t *testing.T) {
	t.Parallel()
	page := resultsPage(0, 3, "")
	compress := map[string]func(io.Writer) io.WriteCloser{
		"gzip":    func(w io.Writer) io.WriteCloser { return gzip.NewWriter(w) },
		"deflate": func(w io.Writer) io.WriteCloser { return zlib.NewWriter(w) },
		"br":      func(w io.Writer) io.WriteCloser { return brotli.NewWriter(w) },
		"zstd": func(w io.Writer) io.WriteCloser {
			z, _ := zstd.NewWriter(w)
			return z
		},
	}
	for enc, newWriter := range compress {
		t.Run(enc, func(t *testing.T) {
			t.Parallel()
			c := replica(t, func(w http.ResponseWriter, r *http.Request) {
				assert.Equal(t, "gzip, deflate, br, zstd", r.Header.Get("Accept-Encoding"))
				w.Header().Set("Content-Encoding", enc)
				zw := newWriter(w)
				io.WriteString(zw, page)
				zw.Close()
			}, nil)
			results, err := c.Search(context.Background(), "q", nil)
			require.NoError(t, err)
			assert.Len(t, results, 3)
		})
	}
	t.Run("unsupported", func(t *testing.T) {
		t.Parallel()
		c := replica(t, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Encoding", "compress")
			io.WriteString(w, page)
		}, nil)
		_, err := c.Search(context.Background(), "q", nil)
		assert.ErrorContains(t, err, `unsupported Content-Encoding "compress"`)
	})
	t.Run("limit counts decoded bytes", func(t *testing.T) {
		t.Parallel()
		c := replica(t, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Encoding", "gzip")
			zw := gzip.NewWriter(w)
			io.WriteString(zw, page+strings.Repeat(" ", 1<<20)) // 1 MiB of spaces packs into ~1 KiB
			zw.Close()
		}, &websearch.ClientOptions{MaxBodyBytes: 64 << 10})
		_, err := c.Search(context.Background(), "q", nil)
		assert.ErrorIs(t, err, websearch.ErrResponseTooLarge)
	})
}
