package websearch

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ja4 computes the JA4 fingerprint (FoxIO's, for TCP) of a raw ClientHello
// as it arrives on the wire: TLS records holding one handshake message.
func ja4(raw []byte) (string, error) {
	// Join the handshake records.
	var hs []byte
	for len(raw) >= 5 && raw[0] == 22 {
		n := int(binary.BigEndian.Uint16(raw[3:5]))
		if len(raw) < 5+n {
			return "", fmt.Errorf("truncated record")
		}
		hs = append(hs, raw[5:5+n]...)
		raw = raw[5+n:]
		if len(hs) >= 4 && len(hs) >= 4+int(hs[1])<<16|int(hs[2])<<8|int(hs[3]) {
			break
		}
	}
	if len(hs) < 4 || hs[0] != 1 {
		return "", fmt.Errorf("not a ClientHello")
	}
	b := hs[4:]
	take := func(n int) []byte {
		if n > len(b) {
			n = len(b)
		}
		v := b[:n]
		b = b[n:]
		return v
	}
	u16 := func(v []byte) int { return int(binary.BigEndian.Uint16(v)) }
	grease := func(v int) bool { return v&0x0f0f == 0x0a0a && v>>8 == v&0xff }

	legacyVersion := u16(take(2))
	take(32)              // random
	take(int(take(1)[0])) // session id
	suites := take(u16(take(2)))
	take(int(take(1)[0]))      // compression methods
	exts := take(u16(take(2))) // extensions

	var ciphers []string
	for i := 0; i+1 < len(suites); i += 2 {
		if v := u16(suites[i:]); !grease(v) {
			ciphers = append(ciphers, fmt.Sprintf("%04x", v))
		}
	}
	var extIDs []string
	var sigAlgs []string
	sni, alpn, version := "i", "00", legacyVersion
	count := 0
	for len(exts) >= 4 {
		typ, n := u16(exts), u16(exts[2:])
		data := exts[4 : 4+n]
		exts = exts[4+n:]
		if grease(typ) {
			continue
		}
		count++
		switch typ {
		case 0x0000:
			sni = "d"
		case 0x0010:
			if len(data) > 3 {
				first := data[3 : 3+int(data[2])]
				alpn = string(first[0]) + string(first[len(first)-1])
			}
		case 0x002b:
			version = 0
			for i := 1; i+1 < len(data); i += 2 {
				if v := u16(data[i:]); !grease(v) && v > version {
					version = v
				}
			}
		case 0x000d:
			for i := 2; i+1 < len(data); i += 2 {
				sigAlgs = append(sigAlgs, fmt.Sprintf("%04x", u16(data[i:])))
			}
		}
		if typ != 0x0000 && typ != 0x0010 {
			extIDs = append(extIDs, fmt.Sprintf("%04x", typ))
		}
	}
	versions := map[int]string{0x0304: "13", 0x0303: "12", 0x0302: "11", 0x0301: "10"}
	hash := func(s string) string {
		if s == "" {
			return "000000000000"
		}
		h := sha256.Sum256([]byte(s))
		return hex.EncodeToString(h[:])[:12]
	}
	sort.Strings(ciphers)
	sort.Strings(extIDs)
	c := strings.Join(extIDs, ",")
	if len(sigAlgs) > 0 {
		c += "_" + strings.Join(sigAlgs, ",")
	}
	return fmt.Sprintf("t%s%s%02d%02d%s_%s_%s", versions[version], sni, min(len(ciphers), 99), min(count, 99), alpn,
		hash(strings.Join(ciphers, ",")), hash(c)), nil
}

// helloRecorder is a listener that keeps the first bytes each connection
// sends (its ClientHello) and counts connections.
type helloRecorder struct {
	net.Listener
	mu     sync.Mutex
	hellos [][]byte
	conns  atomic.Int32
}

func (l *helloRecorder) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	l.conns.Add(1)
	rc := &recordingConn{Conn: c, l: l}
	return rc, nil
}

func (l *helloRecorder) lastHello(t *testing.T) string {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	require.NotEmpty(t, l.hellos, "no ClientHello arrived")
	fp, err := ja4(l.hellos[len(l.hellos)-1])
	require.NoError(t, err)
	return fp
}

type recordingConn struct {
	net.Conn
	l    *helloRecorder
	buf  bytes.Buffer
	done bool
}

func (c *recordingConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if !c.done {
		c.buf.Write(p[:n])
		if c.buf.Len() >= 5 && c.buf.Len() >= 5+int(binary.BigEndian.Uint16(c.buf.Bytes()[3:5])) {
			c.done = true
			c.l.mu.Lock()
			c.l.hellos = append(c.l.hellos, bytes.Clone(c.buf.Bytes()))
			c.l.mu.Unlock()
		}
	}
	return n, err
}

// localhostCert is a self-signed certificate for "localhost", trusted only
// by the pool returned beside it.
func localhostCert(t *testing.T) (tls.Certificate, *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "localhost"},
		DNSNames:     []string{"localhost"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	require.NoError(t, err)
	cert, err := x509.ParseCertificate(der)
	require.NoError(t, err)
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: cert}, pool
}

// tlsServer is a TLS server on localhost that records ClientHellos and the
// requests it is sent. With h2 false it offers HTTP/1.1 only.
type tlsServer struct {
	url      string
	hellos   *helloRecorder
	pool     *x509.CertPool
	mu       sync.Mutex
	requests []*http.Request
}

func startTLSServer(t *testing.T, h2 bool) *tlsServer {
	t.Helper()
	cert, pool := localhostCert(t)
	s := &tlsServer{pool: pool}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		s.mu.Lock()
		s.requests = append(s.requests, r)
		s.mu.Unlock()
		io.WriteString(w, `<html><body><div class="result"><a class="result__a" href="https://example.com/">Example</a></div></body></html>`)
	}))
	srv.EnableHTTP2 = h2
	srv.TLS = &tls.Config{Certificates: []tls.Certificate{cert}}
	s.hellos = &helloRecorder{Listener: srv.Listener}
	srv.Listener = s.hellos
	srv.StartTLS()
	t.Cleanup(srv.Close)
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	s.url = "https://localhost:" + port + "/html/"
	return s
}

func (s *tlsServer) requestCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.requests)
}

func (s *tlsServer) lastRequest(t *testing.T) *http.Request {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	require.NotEmpty(t, s.requests)
	return s.requests[len(s.requests)-1]
}

// clientFor is a Client of the package's own transport, trusting s, with no
// cache and no pacing, so that every search reaches s at once.
func clientFor(t *testing.T, s *tlsServer, fp TLSFingerprint, proxyURL *url.URL) *Client {
	t.Helper()
	cfg := transportConfig{fingerprint: fp, rootCAs: s.pool}
	if proxyURL != nil {
		cfg.proxy = http.ProxyURL(proxyURL)
	}
	c, err := NewClient(&ClientOptions{
		HTMLURL: s.url, HTTPClient: &http.Client{Transport: newTransport(cfg)}, CacheSize: -1, MinInterval: -1,
	})
	require.NoError(t, err)
	return c
}

func TestChromeFingerprint(t *testing.T) {
	t.Parallel()
	s := startTLSServer(t, true)
	c := clientFor(t, s, FingerprintChrome, nil)
	for range 3 {
		results, err := c.Search(context.Background(), "go", nil)
		require.NoError(t, err)
		require.Len(t, results, 1)
	}

	fp := s.hellos.lastHello(t)
	parts := strings.Split(fp, "_")
	require.Len(t, parts, 3, fp)
	assert.True(t, strings.HasPrefix(fp, "t13d151"), "15 ciphers over TLS 1.3 with SNI: %s", fp)
	assert.Contains(t, []string{"t13d1516h2", "t13d1517h2"}, parts[0], "16 or 17 extensions, ALPN h2: %s", fp)
	assert.Equal(t, "8daaf6152771", parts[1], "Chrome's cipher hash: %s", fp)
	assert.Equal(t, 3, s.requestCount())
	assert.Equal(t, int32(1), s.hellos.conns.Load(), "one handshake for three requests: the connection is reused")

	r := s.lastRequest(t)
	assert.Equal(t, 2, r.ProtoMajor, "HTTP/2 was negotiated")
	assert.Equal(t, DefaultUserAgent, r.Header.Get("User-Agent"))
	assert.Contains(t, r.Header.Get("User-Agent"), "Chrome/"+ChromeVersion+".")
	assert.Contains(t, r.Header.Get("Sec-CH-UA"), `"Google Chrome";v="`+ChromeVersion+`"`)
	for h, want := range map[string]string{
		"Sec-Fetch-Dest": "document", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Site": "same-origin", "Sec-Fetch-User": "?1",
		"Accept-Encoding": "gzip, deflate, br, zstd", "Accept-Language": "en-US,en;q=0.9",
		"Referer": "https://localhost:" + strings.Split(strings.TrimPrefix(s.url, "https://localhost:"), "/")[0] + "/",
	} {
		assert.Equal(t, want, r.Header.Get(h), h)
	}
	assert.True(t, strings.HasPrefix(r.Header.Get("Accept"), "text/html,application/xhtml+xml"))
}

func TestChromeFingerprintOverHTTP1(t *testing.T) {
	t.Parallel()
	s := startTLSServer(t, false)
	c := clientFor(t, s, FingerprintChrome, nil)
	for range 3 {
		_, err := c.Search(context.Background(), "go", nil)
		require.NoError(t, err)
	}
	assert.Equal(t, 3, s.requestCount())
	assert.Equal(t, 1, s.lastRequest(t).ProtoMajor, "the server chose HTTP/1.1")
	assert.True(t, strings.HasPrefix(s.hellos.lastHello(t), "t13d151"), "still Chrome's handshake")
	// One handshake learns the server's choice; then net/http keeps one
	// connection for the three requests.
	assert.LessOrEqual(t, s.hellos.conns.Load(), int32(2))
}

func TestGoFingerprintDiffers(t *testing.T) {
	t.Parallel()
	s := startTLSServer(t, true)
	_, err := clientFor(t, s, FingerprintChrome, nil).Search(context.Background(), "go", nil)
	require.NoError(t, err)
	chrome := s.hellos.lastHello(t)
	_, err = clientFor(t, s, FingerprintGo, nil).Search(context.Background(), "go", nil)
	require.NoError(t, err)
	goFP := s.hellos.lastHello(t)
	assert.NotEqual(t, chrome, goFP)
	assert.NotEqual(t, strings.Split(chrome, "_")[1], strings.Split(goFP, "_")[1], "Go's cipher list is not Chrome's")
}

func TestChromeFingerprintThroughProxies(t *testing.T) {
	t.Parallel()
	s := startTLSServer(t, true)
	_, err := clientFor(t, s, FingerprintChrome, nil).Search(context.Background(), "go", nil)
	require.NoError(t, err)
	direct := s.hellos.lastHello(t)

	var tunnels atomic.Int32
	proxySrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodConnect {
			http.Error(w, "CONNECT only", http.StatusMethodNotAllowed)
			return
		}
		tunnels.Add(1)
		upstream, err := net.Dial("tcp", r.Host)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		client, _, err := http.NewResponseController(w).Hijack()
		if err != nil {
			upstream.Close()
			return
		}
		io.WriteString(client, "HTTP/1.1 200 Connection established\r\n\r\n")
		go func() { io.Copy(upstream, client); upstream.Close() }()
		io.Copy(client, upstream)
		client.Close()
	}))
	t.Cleanup(proxySrv.Close)
	proxyURL, _ := url.Parse(proxySrv.URL)

	_, err = clientFor(t, s, FingerprintChrome, proxyURL).Search(context.Background(), "go", nil)
	require.NoError(t, err)
	assert.Equal(t, int32(1), tunnels.Load(), "the request went through the proxy")
	assert.Equal(t, direct, s.hellos.lastHello(t), "the same fingerprint arrives through the proxy")
}

func TestNewTransportOptions(t *testing.T) {
	t.Parallel()
	for _, bad := range []TransportOptions{{Fingerprint: "firefox"}, {Proxy: "ftp://proxy:21"}, {Proxy: "not a url"}} {
		_, err := NewTransport(&bad)
		assert.ErrorIs(t, err, ErrInvalidInput, "%+v", bad)
	}
	for _, good := range []*TransportOptions{nil, {Fingerprint: "GO"}, {Proxy: "socks5://127.0.0.1:1080"}, {Proxy: "http://user:pw@proxy:3128"}} {
		_, err := NewTransport(good)
		assert.NoError(t, err, "%+v", good)
	}
	_, err := NewClient(&ClientOptions{TLSFingerprint: "edge"})
	assert.EqualError(t, err, `TLS fingerprint must be chrome or go (got "edge")`)
}
