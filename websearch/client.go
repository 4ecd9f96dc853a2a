package websearch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"
)

// The endpoints DuckDuckGo serves, used when ClientOptions leaves them empty.
const (
	DefaultHTMLURL = "https://html.duckduckgo.com/html/"
	DefaultLiteURL = "https://lite.duckduckgo.com/lite/"
	DefaultAPIURL  = "https://api.duckduckgo.com/"
)

// Defaults of ClientOptions.
const (
	DefaultTimeout      = 15 * time.Second
	DefaultMaxBodyBytes = 5 << 20
	DefaultMinInterval  = time.Second
	DefaultMaxRetries   = 2
	DefaultCooldown     = time.Minute
	DefaultMaxCooldown  = 15 * time.Minute
	DefaultCacheSize    = 256
	DefaultCacheTTL     = 5 * time.Minute
)

// ClientOptions configures a Client. The zero value, like a nil
// *ClientOptions, means the defaults documented on each field.
type ClientOptions struct {
	// HTTPClient sends every request, used exactly as given: TLSFingerprint
	// and Proxy do not apply to it (build its transport with NewTransport to
	// keep them). Nil means a client of the package's own, with the
	// transport of NewTransport, that follows at most 5 redirects.
	HTTPClient *http.Client

	// TLSFingerprint is the TLS handshake of the package's own client:
	// FingerprintChrome (the zero value) or FingerprintGo.
	TLSFingerprint TLSFingerprint

	// Proxy is the proxy of the package's own client, such as
	// "http://proxy:8080" or "socks5://127.0.0.1:1080". Empty means the
	// HTTP_PROXY, HTTPS_PROXY and NO_PROXY environment variables.
	Proxy string

	// UserAgent is sent with every request. Empty means DefaultUserAgent,
	// which agrees with the Chrome TLS handshake; another one also drops
	// the Chrome client hints (Sec-CH-UA) from the requests.
	UserAgent string

	// HTMLURL is the HTML search endpoint. Empty means DefaultHTMLURL.
	HTMLURL string
	// LiteURL is the lite search endpoint. Empty means DefaultLiteURL.
	LiteURL string
	// APIURL is the Instant Answer API endpoint. Empty means DefaultAPIURL.
	APIURL string

	// Timeout bounds each HTTP request, on top of the caller's context.
	// Zero means DefaultTimeout; it must not be negative.
	Timeout time.Duration

	// MaxBodyBytes caps each response body, counted after decompression; a
	// larger one fails with ErrResponseTooLarge. Zero means
	// DefaultMaxBodyBytes; it must not be negative.
	MaxBodyBytes int64

	// MinInterval is the least time between two requests of the client to
	// DuckDuckGo, whatever goroutines send them; the pages of one search are
	// paced like any other request. Zero means DefaultMinInterval; a
	// negative value turns pacing off.
	MinInterval time.Duration

	// MaxRetries is how many times a transient failure (a connection reset
	// or refused, a timeout, HTTP 500, 502, 503 or 504) is retried, with
	// exponential backoff and jitter, Retry-After honoured, and always within
	// the caller's context. Blocks are never retried. Zero means
	// DefaultMaxRetries; a negative value turns retries off.
	MaxRetries int

	// Cooldown is how long searches are refused after DuckDuckGo blocked one
	// on both the HTML and the lite endpoint: calls during it fail at once
	// with a *BlockedError saying how long remains. Each further block
	// doubles it, up to MaxCooldown; a successful search resets it. Zero
	// means DefaultCooldown; a negative value turns the cool-down off.
	Cooldown time.Duration
	// MaxCooldown caps the doubling of Cooldown. Zero means
	// DefaultMaxCooldown.
	MaxCooldown time.Duration

	// CacheSize is how many answers (searches and instant answers) the
	// in-memory cache keeps, the least recently used leaving first. Zero
	// means DefaultCacheSize; a negative value turns the cache off.
	// Identical calls in flight at the same time always share one request.
	CacheSize int
	// CacheTTL is how long a cached answer is used. Zero means
	// DefaultCacheTTL; a negative value turns the cache off. Errors are
	// never cached.
	CacheTTL time.Duration
}

// Client searches DuckDuckGo. Its methods are safe for concurrent use.
type Client struct {
	http      *http.Client
	userAgent string
	htmlURL   *url.URL
	liteURL   *url.URL
	apiURL    *url.URL
	timeout   time.Duration
	maxBody   int64
	retries   int

	pace   pacer
	cool   cooldown
	cache  *cache // nil: no cache
	flight singleflight.Group
}

// NewClient returns a Client configured by opts; nil opts means the defaults.
// It fails with an ErrInvalidInput error when an endpoint is not an absolute
// http or https URL, or a number is negative.
func NewClient(opts *ClientOptions) (*Client, error) {
	var o ClientOptions
	if opts != nil {
		o = *opts
	}
	c := &Client{
		http:      o.HTTPClient,
		userAgent: o.UserAgent,
		timeout:   o.Timeout,
		maxBody:   o.MaxBodyBytes,
	}
	if c.http == nil {
		t, err := NewTransport(&TransportOptions{Fingerprint: o.TLSFingerprint, Proxy: o.Proxy})
		if err != nil {
			return nil, err
		}
		c.http = &http.Client{Transport: t, CheckRedirect: limitRedirects}
	}
	if c.userAgent == "" {
		c.userAgent = DefaultUserAgent
	}
	switch {
	case c.timeout < 0:
		return nil, invalidf("timeout must not be negative (got %s)", c.timeout)
	case c.timeout == 0:
		c.timeout = DefaultTimeout
	}
	switch {
	case c.maxBody < 0:
		return nil, invalidf("the body size limit must not be negative (got %d)", c.maxBody)
	case c.maxBody == 0:
		c.maxBody = DefaultMaxBodyBytes
	}
	c.pace.interval = orDefault(o.MinInterval, DefaultMinInterval)
	c.retries = orDefault(o.MaxRetries, DefaultMaxRetries)
	c.cool.min = orDefault(o.Cooldown, DefaultCooldown)
	c.cool.max = max(c.cool.min, orDefault(o.MaxCooldown, DefaultMaxCooldown))
	if size, ttl := orDefault(o.CacheSize, DefaultCacheSize), orDefault(o.CacheTTL, DefaultCacheTTL); size > 0 && ttl > 0 {
		c.cache = newCache(size, ttl)
	}
	var err error
	if c.htmlURL, err = endpoint("HTML endpoint", o.HTMLURL, DefaultHTMLURL); err != nil {
		return nil, err
	}
	if c.liteURL, err = endpoint("lite endpoint", o.LiteURL, DefaultLiteURL); err != nil {
		return nil, err
	}
	if c.apiURL, err = endpoint("API endpoint", o.APIURL, DefaultAPIURL); err != nil {
		return nil, err
	}
	return c, nil
}

// orDefault is def for 0, 0 for a negative v (the setting is off), and v
// otherwise.
func orDefault[T int | time.Duration](v, def T) T {
	switch {
	case v == 0:
		return def
	case v < 0:
		return 0
	}
	return v
}

// endpoint parses raw, or def when raw is empty, as an absolute http(s) URL.
func endpoint(name, raw, def string) (*url.URL, error) {
	if raw == "" {
		raw = def
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, invalidf("the %s must be an absolute http or https URL (got %q)", name, raw)
	}
	return u, nil
}

const maxRedirects = 5

func limitRedirects(req *http.Request, via []*http.Request) error {
	if len(via) >= maxRedirects {
		return fmt.Errorf("stopped after %d redirects", maxRedirects)
	}
	return nil
}

var defaultClient = sync.OnceValue(func() *Client {
	c, err := NewClient(nil)
	if err != nil {
		panic("websearch: the default options are invalid: " + err.Error())
	}
	return c
})

// Search searches DuckDuckGo with a Client made from the default options.
// See [Client.Search].
func Search(ctx context.Context, query string, opts *SearchOptions) ([]Result, error) {
	return defaultClient().Search(ctx, query, opts)
}

// InstantAnswer asks DuckDuckGo's Instant Answer API with a Client made from
// the default options. See [Client.InstantAnswer].
func InstantAnswer(ctx context.Context, query string) (*Answer, error) {
	return defaultClient().InstantAnswer(ctx, query)
}

// CloseIdleConnections closes the connections of the client's HTTP client
// that no request is using, as http.Client.CloseIdleConnections does.
func (c *Client) CloseIdleConnections() {
	c.http.CloseIdleConnections()
}

// response is what fetch returns of an HTTP exchange.
type response struct {
	status int
	header http.Header
	body   []byte
}

// fetch sends a request with a browser's headers for kind, paced and with
// the per-request timeout, retrying transient failures, and reads the
// decoded body through the size limit. form, when not nil, is posted. Any
// status is returned without error; the callers decide what a status means
// for their endpoint.
func (c *Client) fetch(ctx context.Context, u *url.URL, form form, kind requestKind) (*response, error) {
	for n := 0; ; n++ {
		if err := c.pace.wait(ctx); err != nil {
			return nil, fmt.Errorf("%s: %w", endpointName(u), context.Cause(ctx))
		}
		resp, err := c.fetchOnce(ctx, u, form, kind)
		delay, again := retryDelay(ctx, resp, err, n)
		if !again || n >= c.retries {
			return resp, err
		}
		if err := sleep(ctx, delay); err != nil {
			return nil, fmt.Errorf("%s: %w", endpointName(u), context.Cause(ctx))
		}
	}
}

// fetchOnce makes one attempt of fetch.
func (c *Client) fetchOnce(parent context.Context, u *url.URL, form form, kind requestKind) (*response, error) {
	ctx, cancel := context.WithTimeout(parent, c.timeout)
	defer cancel()
	method, body := http.MethodGet, io.Reader(nil)
	if form != nil {
		method, body = http.MethodPost, strings.NewReader(form.encode())
	}
	req, err := http.NewRequestWithContext(ctx, method, u.String(), body)
	if err != nil {
		return nil, fmt.Errorf("building the request: %w", err)
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	setBrowserHeaders(req, c.userAgent, kind)

	endpoint := endpointName(req.URL)
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, requestError(parent, ctx, endpoint, c.timeout, err)
	}
	defer resp.Body.Close()
	decoded, closeDecoder, err := decodedBody(resp)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", endpoint, err)
	}
	defer closeDecoder()
	data, err := io.ReadAll(io.LimitReader(decoded, c.maxBody+1))
	if err != nil {
		return nil, requestError(parent, ctx, endpoint, c.timeout, fmt.Errorf("reading the body: %w", err))
	}
	if int64(len(data)) > c.maxBody {
		return nil, fmt.Errorf("%s: %w: over %d bytes", endpoint, ErrResponseTooLarge, c.maxBody)
	}
	return &response{status: resp.StatusCode, header: resp.Header, body: data}, nil
}

// requestError says why a request failed, keeping the cause for errors.Is:
// the caller's context error when the caller gave up or ran out of time,
// context.DeadlineExceeded when the per-request timeout ran out.
func requestError(parent, ctx context.Context, endpoint string, timeout time.Duration, err error) error {
	if parent.Err() != nil {
		return fmt.Errorf("%s: %w", endpoint, context.Cause(parent))
	}
	if ctx.Err() != nil {
		return fmt.Errorf("%s: no answer within %s: %w", endpoint, timeout, context.DeadlineExceeded)
	}
	var uerr *url.Error
	if errors.As(err, &uerr) {
		err = uerr.Err // the URL is said once already
	}
	return fmt.Errorf("%s: %w", endpoint, err)
}

// endpointName is the URL without query, used to say which endpoint failed.
func endpointName(u *url.URL) string {
	return u.Scheme + "://" + u.Host + u.Path
}

// referer is the origin of an endpoint, which DuckDuckGo's own pages send as
// Referer.
func referer(u *url.URL) string {
	return u.Scheme + "://" + u.Host + "/"
}

// checkStatus says what a response's status means at endpoint: a
// *BlockedError for DuckDuckGo refusing a client it takes for a bot, a
// *StatusError for any other status outside 2xx, and nil for 2xx.
func checkStatus(endpoint *url.URL, r *response) error {
	switch {
	case isBlockStatus(r.status, r.body):
		return &BlockedError{Endpoint: endpointName(endpoint), StatusCode: r.status}
	case r.status < 200 || r.status > 299:
		return statusError(endpoint, r)
	}
	return nil
}

// isBlockStatus reports whether a status, with its body, is DuckDuckGo
// refusing a client it takes for a bot: 202 (its rate limit), 418 and 429
// always, 403 when the body is the challenge or the error-lite line.
func isBlockStatus(status int, body []byte) bool {
	switch status {
	case http.StatusAccepted, http.StatusTeapot, http.StatusTooManyRequests:
		return true
	case http.StatusForbidden:
		return isChallengeBody(body)
	}
	return false
}

// statusError builds a StatusError with the start of the body as text.
func statusError(u *url.URL, r *response) *StatusError {
	body := r.body
	if len(body) > 512 {
		body = body[:512]
	}
	return &StatusError{Endpoint: endpointName(u), StatusCode: r.status, Body: strings.ToValidUTF8(string(body), "")}
}
