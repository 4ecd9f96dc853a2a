package websearch

import (
	"bufio"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	utls "github.com/refraction-networking/utls"
	"golang.org/x/net/http2"
	"golang.org/x/net/proxy"
)

// TLSFingerprint chooses the TLS handshake of the client's own transport.
type TLSFingerprint string

// TLSFingerprint values. The zero value is FingerprintChrome.
const (
	// FingerprintChrome sends the ClientHello of a desktop Chrome (see
	// ChromeVersion), negotiates HTTP/2 by ALPN as Chrome does, and falls
	// back to HTTP/1.1 when the server picks it. DuckDuckGo answers clients
	// whose handshake is not a browser's with its bot challenge.
	FingerprintChrome TLSFingerprint = "chrome"
	// FingerprintGo uses Go's own crypto/tls, as net/http does.
	FingerprintGo TLSFingerprint = "go"
)

// ParseTLSFingerprint reads "chrome" or "go" (in any case).
func ParseTLSFingerprint(s string) (TLSFingerprint, error) {
	switch f := TLSFingerprint(strings.ToLower(s)); f {
	case FingerprintChrome, FingerprintGo:
		return f, nil
	case "":
		return FingerprintChrome, nil
	}
	return "", invalidf("TLS fingerprint must be chrome or go (got %q)", s)
}

// chromeHello is the ClientHello the chrome fingerprint sends; it matches
// ChromeVersion.
var chromeHello = utls.HelloChrome_133

// TransportOptions configures NewTransport. A nil *TransportOptions means
// the defaults documented on each field.
type TransportOptions struct {
	// Fingerprint is the TLS handshake: FingerprintChrome (the zero value)
	// or FingerprintGo.
	Fingerprint TLSFingerprint
	// Proxy is a proxy URL: http://, https:// (HTTP CONNECT) or socks5://.
	// Empty means HTTP_PROXY, HTTPS_PROXY and NO_PROXY from the environment.
	Proxy string
}

// NewTransport returns the transport a Client uses when it is given no
// HTTPClient: with FingerprintChrome, https requests go over connections
// whose TLS handshake is Chrome's, in HTTP/2 when the server agrees as it
// does with Chrome, in HTTP/1.1 otherwise, kept and reused. Use it to build
// an *http.Client of your own that keeps the Chrome handshake. It fails with
// an ErrInvalidInput error for an unknown fingerprint or a malformed proxy.
func NewTransport(opts *TransportOptions) (http.RoundTripper, error) {
	var o TransportOptions
	if opts != nil {
		o = *opts
	}
	fp, err := ParseTLSFingerprint(string(o.Fingerprint))
	if err != nil {
		return nil, err
	}
	proxy, err := proxyFunc(o.Proxy)
	if err != nil {
		return nil, err
	}
	return newTransport(transportConfig{fingerprint: fp, proxy: proxy}), nil
}

// transportConfig is what newTransport builds a transport from.
type transportConfig struct {
	fingerprint TLSFingerprint
	proxy       func(*http.Request) (*url.URL, error) // nil: no proxy
	rootCAs     *x509.CertPool                        // nil: the system's; tests set their own
}

// newTransport returns the RoundTripper of a Client that was given no
// HTTPClient: Go's own, or one that speaks TLS like Chrome.
func newTransport(cfg transportConfig) http.RoundTripper {
	plain := &http.Transport{
		Proxy:                 cfg.proxy, // net/http speaks to http, https and socks5 proxies
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          16,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ExpectContinueTimeout: time.Second,
		TLSClientConfig:       &tls.Config{RootCAs: cfg.rootCAs},
	}
	if cfg.fingerprint == FingerprintGo {
		return plain
	}
	t := &chromeTransport{
		plain:   plain,
		h2:      &http2.Transport{MaxHeaderListSize: 262144}, // Chrome's SETTINGS_MAX_HEADER_LIST_SIZE
		cfg:     cfg,
		h2conns: map[string][]*http2.ClientConn{},
		protos:  map[string]string{},
	}
	t.h1 = &http.Transport{
		DialTLSContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			conn, _, err := t.dial(ctx, addr)
			return conn, err
		},
		MaxIdleConns:    16,
		IdleConnTimeout: 90 * time.Second,
	}
	return t
}

// chromeTransport sends https requests over connections whose TLS handshake
// is Chrome's, with HTTP/2 when the server agrees to it, as Chrome does, and
// HTTP/1.1 otherwise. Connections are kept and reused. Plain http requests
// go through Go's own transport.
type chromeTransport struct {
	plain *http.Transport  // http:// requests
	h1    *http.Transport  // https:// to servers that chose HTTP/1.1
	h2    *http2.Transport // creates HTTP/2 client connections
	cfg   transportConfig

	mu      sync.Mutex
	h2conns map[string][]*http2.ClientConn // by host:port
	protos  map[string]string              // the protocol each host:port chose
}

func (t *chromeTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.URL.Scheme != "https" {
		return t.plain.RoundTrip(req)
	}
	addr := hostPort(req.URL)
	t.mu.Lock()
	proto := t.protos[addr]
	t.mu.Unlock()
	if proto == "http/1.1" {
		return t.h1.RoundTrip(req)
	}
	cc, err := t.h2conn(req.Context(), addr)
	if err != nil {
		return nil, err
	}
	if cc == nil { // the server chose HTTP/1.1
		return t.h1.RoundTrip(req)
	}
	return cc.RoundTrip(req)
}

// h2conn returns an HTTP/2 connection to addr that can take a request,
// dialling one when none can. It returns nil when the server answers the
// Chrome handshake by choosing HTTP/1.1.
func (t *chromeTransport) h2conn(ctx context.Context, addr string) (*http2.ClientConn, error) {
	t.mu.Lock()
	live := t.h2conns[addr][:0]
	var found *http2.ClientConn
	for _, cc := range t.h2conns[addr] {
		if cc.State().Closed || cc.State().Closing {
			continue
		}
		live = append(live, cc)
		if found == nil && cc.ReserveNewRequest() {
			found = cc
		}
	}
	t.h2conns[addr] = live
	t.mu.Unlock()
	if found != nil {
		return found, nil
	}

	conn, proto, err := t.dial(ctx, addr)
	if err != nil {
		return nil, err
	}
	t.mu.Lock()
	t.protos[addr] = proto
	t.mu.Unlock()
	if proto != "h2" {
		conn.Close() // net/http dials its own for HTTP/1.1
		return nil, nil
	}
	cc, err := t.h2.NewClientConn(conn)
	if err != nil {
		conn.Close()
		return nil, fmt.Errorf("starting HTTP/2 with %s: %w", addr, err)
	}
	t.mu.Lock()
	t.h2conns[addr] = append(t.h2conns[addr], cc)
	t.mu.Unlock()
	if !cc.ReserveNewRequest() {
		return nil, fmt.Errorf("a new HTTP/2 connection to %s takes no request", addr)
	}
	return cc, nil
}

// CloseIdleConnections closes the connections no request is using.
func (t *chromeTransport) CloseIdleConnections() {
	t.plain.CloseIdleConnections()
	t.h1.CloseIdleConnections()
	t.mu.Lock()
	defer t.mu.Unlock()
	for addr, conns := range t.h2conns {
		for _, cc := range conns {
			if cc.State().StreamsActive == 0 {
				cc.Close()
			}
		}
		delete(t.h2conns, addr)
	}
}

// dial opens a TCP connection to addr (through the proxy, if any) and makes
// Chrome's TLS handshake on it. It returns the protocol the server chose.
func (t *chromeTransport) dial(ctx context.Context, addr string) (net.Conn, string, error) {
	var proxyURL *url.URL
	if t.cfg.proxy != nil {
		var err error
		req := &http.Request{URL: &url.URL{Scheme: "https", Host: addr}}
		if proxyURL, err = t.cfg.proxy(req); err != nil {
			return nil, "", fmt.Errorf("choosing a proxy: %w", err)
		}
	}
	raw, err := dialVia(ctx, proxyURL, "tcp", addr)
	if err != nil {
		return nil, "", err
	}
	host, _, _ := net.SplitHostPort(addr)
	uconn := utls.UClient(raw, &utls.Config{ServerName: host, RootCAs: t.cfg.rootCAs}, chromeHello)
	if deadline, ok := ctx.Deadline(); ok {
		raw.SetDeadline(deadline)
	}
	if err := uconn.HandshakeContext(ctx); err != nil {
		raw.Close()
		return nil, "", fmt.Errorf("TLS handshake with %s: %w", addr, err)
	}
	raw.SetDeadline(time.Time{})
	proto := uconn.ConnectionState().NegotiatedProtocol
	if proto == "" {
		proto = "http/1.1"
	}
	return uconn, proto, nil
}

// dialVia connects to addr directly, or through an HTTP proxy (CONNECT) or
// a socks5 proxy when proxyURL says so.
func dialVia(ctx context.Context, proxyURL *url.URL, network, addr string) (net.Conn, error) {
	d := &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}
	if proxyURL == nil {
		return d.DialContext(ctx, network, addr)
	}
	switch proxyURL.Scheme {
	case "socks5", "socks5h":
		pd, err := proxy.FromURL(proxyURL, d)
		if err != nil {
			return nil, fmt.Errorf("proxy %s: %w", proxyURL.Redacted(), err)
		}
		conn, err := pd.(proxy.ContextDialer).DialContext(ctx, network, addr)
		if err != nil {
			return nil, fmt.Errorf("through proxy %s: %w", proxyURL.Redacted(), err)
		}
		return conn, nil
	case "http", "https":
		return connect(ctx, d, proxyURL, addr)
	}
	return nil, fmt.Errorf("proxy %s: the scheme must be http, https or socks5", proxyURL.Redacted())
}

// connect opens a tunnel to addr through an HTTP proxy.
func connect(ctx context.Context, d *net.Dialer, proxyURL *url.URL, addr string) (net.Conn, error) {
	conn, err := d.DialContext(ctx, "tcp", hostPort(proxyURL))
	if err != nil {
		return nil, fmt.Errorf("reaching proxy %s: %w", proxyURL.Redacted(), err)
	}
	if proxyURL.Scheme == "https" {
		tc := tls.Client(conn, &tls.Config{ServerName: proxyURL.Hostname()})
		if err := tc.HandshakeContext(ctx); err != nil {
			conn.Close()
			return nil, fmt.Errorf("TLS with proxy %s: %w", proxyURL.Redacted(), err)
		}
		conn = tc
	}
	if deadline, ok := ctx.Deadline(); ok {
		conn.SetDeadline(deadline)
	}
	req := "CONNECT " + addr + " HTTP/1.1\r\nHost: " + addr + "\r\n"
	if u := proxyURL.User; u != nil {
		pass, _ := u.Password()
		req += "Proxy-Authorization: Basic " + base64.StdEncoding.EncodeToString([]byte(u.Username()+":"+pass)) + "\r\n"
	}
	if _, err := conn.Write([]byte(req + "\r\n")); err != nil {
		conn.Close()
		return nil, fmt.Errorf("proxy %s: %w", proxyURL.Redacted(), err)
	}
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, &http.Request{Method: http.MethodConnect})
	if err != nil {
		conn.Close()
		return nil, fmt.Errorf("proxy %s: %w", proxyURL.Redacted(), err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		conn.Close()
		return nil, fmt.Errorf("proxy %s refused the tunnel: %s", proxyURL.Redacted(), resp.Status)
	}
	if br.Buffered() > 0 {
		conn.Close()
		return nil, fmt.Errorf("proxy %s: data before the tunnel opened", proxyURL.Redacted())
	}
	conn.SetDeadline(time.Time{})
	return conn, nil
}

// hostPort is u's host with the scheme's port when it names none.
func hostPort(u *url.URL) string {
	if u.Port() != "" {
		return u.Host
	}
	port := "443"
	switch u.Scheme {
	case "http":
		port = "80"
	case "socks5", "socks5h":
		port = "1080"
	}
	return net.JoinHostPort(u.Hostname(), port)
}

// proxyFunc chooses the proxy of each request: raw when it is set
// ("http://host:port", "socks5://host:port"), else HTTP_PROXY, HTTPS_PROXY
// and NO_PROXY from the environment.
func proxyFunc(raw string) (func(*http.Request) (*url.URL, error), error) {
	if raw == "" {
		return http.ProxyFromEnvironment, nil
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return nil, invalidf("proxy must be a URL such as http://host:8080 or socks5://host:1080 (got %q)", raw)
	}
	switch u.Scheme {
	case "http", "https", "socks5", "socks5h":
	default:
		return nil, invalidf("proxy must be an http, https or socks5 URL (got %q)", raw)
	}
	return http.ProxyURL(u), nil
}
