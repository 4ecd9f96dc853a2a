package websearch

import (
	"compress/gzip"
	"compress/zlib"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/zstd"
)

// ChromeVersion is the major version of the desktop Chrome the default
// client presents as: its TLS handshake (see FingerprintChrome), its
// User-Agent and its client hints agree on it. Keeping it current is part of
// the refresh routine in CONTRIBUTING.md.
const ChromeVersion = "133"

// DefaultUserAgent is the User-Agent sent when ClientOptions.UserAgent is
// empty: the desktop Chrome of ChromeVersion on Windows.
const DefaultUserAgent = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/" + ChromeVersion + ".0.0.0 Safari/537.36"

// requestKind says what a browser would be doing when it sends a request.
type requestKind int

const (
	// formPost is the search form of a DuckDuckGo page posted to itself.
	formPost requestKind = iota
	// addressBar is a URL typed into the address bar.
	addressBar
)

// setBrowserHeaders gives req the headers Chrome sends for kind. The client
// hints (Sec-CH-UA) are sent only with Chrome's own User-Agent, so that a
// custom User-Agent is not contradicted by them.
func setBrowserHeaders(req *http.Request, userAgent string, kind requestKind) {
	h := req.Header
	if userAgent == DefaultUserAgent {
		h.Set("Sec-CH-UA", `"Not(A:Brand";v="99", "Google Chrome";v="`+ChromeVersion+`", "Chromium";v="`+ChromeVersion+`"`)
		h.Set("Sec-CH-UA-Mobile", "?0")
		h.Set("Sec-CH-UA-Platform", `"Windows"`)
	}
	h.Set("Upgrade-Insecure-Requests", "1")
	h.Set("User-Agent", userAgent)
	h.Set("Accept", "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7")
	switch kind {
	case formPost:
		h.Set("Cache-Control", "max-age=0")
		h.Set("Origin", strings.TrimSuffix(referer(req.URL), "/"))
		h.Set("Sec-Fetch-Site", "same-origin")
	case addressBar:
		h.Set("Sec-Fetch-Site", "none")
	}
	h.Set("Sec-Fetch-Mode", "navigate")
	h.Set("Sec-Fetch-User", "?1")
	h.Set("Sec-Fetch-Dest", "document")
	if kind == formPost {
		h.Set("Referer", referer(req.URL))
	}
	h.Set("Accept-Encoding", "gzip, deflate, br, zstd")
	h.Set("Accept-Language", "en-US,en;q=0.9")
}

// decodedBody undoes the Content-Encoding of a response, which net/http
// leaves in place when the request names its own Accept-Encoding.
func decodedBody(resp *http.Response) (io.Reader, func(), error) {
	none := func() {}
	switch enc := strings.ToLower(strings.TrimSpace(resp.Header.Get("Content-Encoding"))); enc {
	case "", "identity":
		return resp.Body, none, nil
	case "gzip", "x-gzip":
		r, err := gzip.NewReader(resp.Body)
		if err != nil {
			return nil, none, fmt.Errorf("gzip body: %w", err)
		}
		return r, none, nil
	case "deflate":
		r, err := zlib.NewReader(resp.Body)
		if err != nil {
			return nil, none, fmt.Errorf("deflate body: %w", err)
		}
		return r, func() { r.Close() }, nil
	case "br":
		return brotli.NewReader(resp.Body), none, nil
	case "zstd":
		r, err := zstd.NewReader(resp.Body, zstd.WithDecoderConcurrency(1))
		if err != nil {
			return nil, none, fmt.Errorf("zstd body: %w", err)
		}
		return r, r.Close, nil
	default:
		return nil, none, fmt.Errorf("unsupported Content-Encoding %q", enc)
	}
}
