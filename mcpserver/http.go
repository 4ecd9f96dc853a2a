package mcpserver

import (
	"crypto/subtle"
	"encoding/json"
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultMaxBodyBytes caps the body of an MCP request over HTTP when
// HTTPOptions.MaxBodyBytes is zero; tool calls are a few hundred bytes.
const DefaultMaxBodyBytes = 1 << 20

// HTTPOptions configures HTTPHandler. A nil *HTTPOptions means the defaults
// documented on each field.
type HTTPOptions struct {
	// AuthToken, when not empty, must come with every MCP request as
	// "Authorization: Bearer <token>"; /healthz needs none. Empty means no
	// authentication, which only suits a server bound to loopback.
	AuthToken string

	// AllowedOrigins are the browser origins ("https://app.example.com")
	// allowed to call the server, which protects against DNS rebinding.
	// Requests without an Origin header (clients that are not browsers) are
	// always allowed. Empty means the loopback origins only (localhost,
	// 127.0.0.1 and [::1], on any port); "*" allows every origin.
	AllowedOrigins []string

	// Stateless serves each request on its own, with no session kept between
	// requests, so that several instances can stand behind an ordinary load
	// balancer without sticky sessions. False keeps sessions (and allows
	// server-to-client streams).
	Stateless bool

	// MaxBodyBytes caps request bodies; a larger one is refused with 413.
	// Zero means DefaultMaxBodyBytes.
	MaxBodyBytes int64

	// Version is reported by /healthz. Empty means "dev".
	Version string
}

// HTTPHandler serves server over MCP's streamable HTTP transport at /mcp,
// and answers GET /healthz with {"status":"ok","version":…}. It refuses
// requests from browser origins that are not allowed (403), requests
// without the token when one is set (401), and bodies over the limit (413).
func HTTPHandler(server *mcp.Server, opts *HTTPOptions) http.Handler {
	var o HTTPOptions
	if opts != nil {
		o = *opts
	}
	if o.MaxBodyBytes == 0 {
		o.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if o.Version == "" {
		o.Version = "dev"
	}
	streamable := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, &mcp.StreamableHTTPOptions{
		Stateless:           o.Stateless,
		MaxRequestBodyBytes: o.MaxBodyBytes,
	})
	mux := http.NewServeMux()
	mux.Handle("/mcp", guard(&o, streamable))
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]string{"status": "ok", "version": o.Version})
	})
	return mux
}

// guard checks a request's origin and token before next sees it.
func guard(o *HTTPOptions, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if origin := r.Header.Get("Origin"); origin != "" && !originAllowed(origin, o.AllowedOrigins) {
			http.Error(w, "Forbidden: origin "+origin+" is not allowed (see -allowed-origins)", http.StatusForbidden)
			return
		}
		if o.AuthToken != "" {
			got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
			if !ok || subtle.ConstantTimeCompare([]byte(got), []byte(o.AuthToken)) != 1 {
				w.Header().Set("WWW-Authenticate", `Bearer realm="websearch-mcp"`)
				http.Error(w, "Unauthorized: send Authorization: Bearer <token>", http.StatusUnauthorized)
				return
			}
		}
		r.Body = http.MaxBytesReader(w, r.Body, o.MaxBodyBytes)
		next.ServeHTTP(w, r)
	})
}

// originAllowed reports whether a browser origin may call the server.
func originAllowed(origin string, allowed []string) bool {
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return false
	}
	if len(allowed) == 0 {
		return IsLoopback(u.Hostname())
	}
	norm := strings.ToLower(strings.TrimSuffix(origin, "/"))
	for _, a := range allowed {
		if a == "*" || strings.ToLower(strings.TrimSuffix(a, "/")) == norm {
			return true
		}
	}
	return false
}

// IsLoopback reports whether host (a name or an IP address, without port)
// is this machine's loopback: localhost, 127.0.0.0/8 or ::1.
func IsLoopback(host string) bool {
	host = strings.Trim(host, "[]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
