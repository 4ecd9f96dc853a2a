package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/websearch-mcp/websearch-mcp/mcpserver"
	"github.com/websearch-mcp/websearch-mcp/websearch"
)

// config is every setting of the binary, read from flags and the
// environment (a flag wins over its variable).
type config struct {
	htmlURL, liteURL, apiURL string
	region                   string
	safeSearch               string
	timeRange                string
	timeout                  time.Duration
	userAgent                string
	tlsFingerprint           string
	proxy                    string
	minInterval              time.Duration
	retries                  int
	cooldown, maxCooldown    time.Duration
	cacheSize                int
	cacheTTL                 time.Duration
	logLevel, logFormat      string
	httpAddr                 string
	authToken                string
	allowedOrigins           string
	stateless, allowNoAuth   bool
	shutdownTimeout          time.Duration
	version                  bool
}

// setting is one flag and the environment variable behind it.
type setting struct {
	flag, env, usage string
}

var settings = []setting{
	{"html-url", "WEBSEARCH_HTML_URL", "DuckDuckGo HTML search endpoint"},
	{"lite-url", "WEBSEARCH_LITE_URL", "DuckDuckGo lite search endpoint"},
	{"api-url", "WEBSEARCH_API_URL", "DuckDuckGo Instant Answer API endpoint"},
	{"region", "WEBSEARCH_REGION", "region code of every search, such as us-en or jp-jp; empty for all regions"},
	{"safesearch", "WEBSEARCH_SAFESEARCH", "safe search of every search: strict, moderate or off"},
	{"time-range", "WEBSEARCH_TIME_RANGE", "date limit of every search: day, week, month, year or any"},
	{"timeout", "WEBSEARCH_TIMEOUT", "time limit of each request to DuckDuckGo, such as 15s"},
	{"user-agent", "WEBSEARCH_USER_AGENT", "User-Agent sent to DuckDuckGo"},
	{"tls-fingerprint", "WEBSEARCH_TLS_FINGERPRINT", "TLS handshake: chrome (a browser's, which DuckDuckGo answers) or go (Go's own)"},
	{"proxy", "WEBSEARCH_PROXY", "proxy URL, http://host:port or socks5://host:port; empty for HTTP_PROXY/HTTPS_PROXY/NO_PROXY"},
	{"min-interval", "WEBSEARCH_MIN_INTERVAL", "least time between two requests to DuckDuckGo; 0 for none"},
	{"retries", "WEBSEARCH_RETRIES", "retries of a transient failure (reset, timeout, HTTP 5xx); 0 for none"},
	{"cooldown", "WEBSEARCH_COOLDOWN", "pause of searches after DuckDuckGo blocks one, doubling at each block; 0 for none"},
	{"cooldown-max", "WEBSEARCH_COOLDOWN_MAX", "longest pause of searches after blocks"},
	{"cache-size", "WEBSEARCH_CACHE_SIZE", "answers kept in the in-memory cache; 0 turns the cache off"},
	{"cache-ttl", "WEBSEARCH_CACHE_TTL", "how long a cached answer is used; 0 turns the cache off"},
	{"log-level", "WEBSEARCH_LOG_LEVEL", "log level on stderr: debug (adds queries), info, warn or error"},
	{"log-format", "WEBSEARCH_LOG_FORMAT", "log format on stderr: text or json"},
	{"http", "WEBSEARCH_HTTP", "serve MCP over streamable HTTP at this address (such as 127.0.0.1:8080) instead of stdio"},
	{"auth-token", "WEBSEARCH_AUTH_TOKEN", "with -http: require Authorization: Bearer <token>"},
	{"allowed-origins", "WEBSEARCH_ALLOWED_ORIGINS", "with -http: browser origins allowed, comma-separated; empty for loopback origins only, * for any"},
	{"stateless", "WEBSEARCH_STATELESS", "with -http: keep no session between requests, to run several instances behind a load balancer"},
	{"allow-no-auth", "WEBSEARCH_ALLOW_NO_AUTH", "with -http: serve an address other than loopback without -auth-token"},
	{"shutdown-timeout", "WEBSEARCH_SHUTDOWN_TIMEOUT", "with -http: how long SIGINT/SIGTERM waits for calls in flight"},
}

// newFlagSet declares the flags into c, with their defaults.
func newFlagSet(c *config) *flag.FlagSet {
	fs := flag.NewFlagSet("websearch-mcp", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors are reported in one line by parseConfig
	fs.StringVar(&c.htmlURL, "html-url", websearch.DefaultHTMLURL, "")
	fs.StringVar(&c.liteURL, "lite-url", websearch.DefaultLiteURL, "")
	fs.StringVar(&c.apiURL, "api-url", websearch.DefaultAPIURL, "")
	fs.StringVar(&c.region, "region", "", "")
	fs.StringVar(&c.safeSearch, "safesearch", "moderate", "")
	fs.StringVar(&c.timeRange, "time-range", "any", "")
	c.timeout = websearch.DefaultTimeout
	fs.Var(durationFlag{d: &c.timeout}, "timeout", "")
	c.minInterval, c.cooldown, c.maxCooldown, c.cacheTTL = websearch.DefaultMinInterval, websearch.DefaultCooldown, websearch.DefaultMaxCooldown, websearch.DefaultCacheTTL
	fs.Var(durationFlag{d: &c.minInterval, zeroOK: true}, "min-interval", "")
	fs.Var(durationFlag{d: &c.cooldown, zeroOK: true}, "cooldown", "")
	fs.Var(durationFlag{d: &c.maxCooldown}, "cooldown-max", "")
	fs.Var(durationFlag{d: &c.cacheTTL, zeroOK: true}, "cache-ttl", "")
	fs.StringVar(&c.logLevel, "log-level", "info", "")
	fs.StringVar(&c.logFormat, "log-format", "text", "")
	fs.StringVar(&c.httpAddr, "http", "", "")
	fs.StringVar(&c.authToken, "auth-token", "", "")
	fs.StringVar(&c.allowedOrigins, "allowed-origins", "", "")
	fs.BoolVar(&c.stateless, "stateless", false, "")
	fs.BoolVar(&c.allowNoAuth, "allow-no-auth", false, "")
	c.shutdownTimeout = 10 * time.Second
	fs.Var(durationFlag{d: &c.shutdownTimeout}, "shutdown-timeout", "")
	c.retries, c.cacheSize = websearch.DefaultMaxRetries, websearch.DefaultCacheSize
	fs.Var(countFlag{&c.retries}, "retries", "")
	fs.Var(countFlag{&c.cacheSize}, "cache-size", "")
	fs.StringVar(&c.userAgent, "user-agent", websearch.DefaultUserAgent, "")
	fs.StringVar(&c.tlsFingerprint, "tls-fingerprint", string(websearch.FingerprintChrome), "")
	fs.StringVar(&c.proxy, "proxy", "", "")
	fs.BoolVar(&c.version, "version", false, "")
	return fs
}

// errHelp asks for the usage text.
var errHelp = flag.ErrHelp

// parseConfig reads the flags in args and, for each flag not given, its
// environment variable from getenv. It returns the arguments left after the
// flags. Its errors fit on one line.
func parseConfig(args []string, getenv func(string) string) (*config, []string, error) {
	c := &config{}
	fs := newFlagSet(c)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, nil, errHelp
		}
		return nil, nil, err
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	for _, s := range settings {
		v := getenv(s.env)
		if given[s.flag] || v == "" {
			continue
		}
		if err := fs.Set(s.flag, v); err != nil {
			return nil, nil, fmt.Errorf("%s: %v", s.env, err)
		}
	}
	return c, fs.Args(), nil
}

// durationFlag is a time.Duration flag, positive (or zero when zeroOK),
// with a plain error message.
type durationFlag struct {
	d      *time.Duration
	zeroOK bool
}

func (f durationFlag) String() string {
	if f.d == nil {
		return ""
	}
	return f.d.String()
}

func (f durationFlag) Set(s string) error {
	d, err := time.ParseDuration(s)
	switch {
	case err == nil && d > 0, err == nil && d == 0 && f.zeroOK:
		*f.d = d
		return nil
	case f.zeroOK:
		return fmt.Errorf("must be a duration such as 1s or 1m30s, or 0 for none (got %q)", s)
	}
	return fmt.Errorf("must be a positive duration such as 15s or 1m30s (got %q)", s)
}

// countFlag is a whole number flag, 0 or more, with a plain error message.
type countFlag struct{ n *int }

func (f countFlag) String() string {
	if f.n == nil {
		return ""
	}
	return strconv.Itoa(*f.n)
}

func (f countFlag) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return fmt.Errorf("must be a whole number, 0 or more (got %q)", s)
	}
	*f.n = n
	return nil
}

// off maps the binary's "0 turns it off" onto the library's negative value.
func off[T int | time.Duration](v T) T {
	if v == 0 {
		return -1
	}
	return v
}

// client builds the websearch client and server options the settings
// describe, checking every value; logs go to stderr.
func (c *config) client(stderr io.Writer) (*websearch.Client, *mcpserver.Options, error) {
	safe, err := websearch.ParseSafeSearch(c.safeSearch)
	if err != nil {
		return nil, nil, fmt.Errorf("-safesearch: %w", err)
	}
	tr, err := websearch.ParseTimeRange(c.timeRange)
	if err != nil {
		return nil, nil, fmt.Errorf("-time-range: %w", err)
	}
	search := websearch.SearchOptions{Region: c.region, SafeSearch: safe, TimeRange: tr}
	if err := search.Validate(); err != nil {
		return nil, nil, fmt.Errorf("-region: %w", err)
	}
	fp, err := websearch.ParseTLSFingerprint(c.tlsFingerprint)
	if err != nil {
		return nil, nil, fmt.Errorf("-tls-fingerprint: %w", err)
	}
	client, err := websearch.NewClient(&websearch.ClientOptions{
		HTMLURL:        c.htmlURL,
		LiteURL:        c.liteURL,
		APIURL:         c.apiURL,
		Timeout:        c.timeout,
		UserAgent:      c.userAgent,
		TLSFingerprint: fp,
		Proxy:          c.proxy,
		MinInterval:    off(c.minInterval),
		MaxRetries:     off(c.retries),
		Cooldown:       off(c.cooldown),
		MaxCooldown:    c.maxCooldown,
		CacheSize:      off(c.cacheSize),
		CacheTTL:       off(c.cacheTTL),
	})
	if err != nil {
		return nil, nil, err
	}
	logger, err := c.logger(stderr)
	if err != nil {
		return nil, nil, err
	}
	return client, &mcpserver.Options{Search: search, Version: version(), Logger: logger}, nil
}

// logger is the slog.Logger the settings describe, writing to w.
func (c *config) logger(w io.Writer) (*slog.Logger, error) {
	var level slog.Level
	if err := level.UnmarshalText([]byte(c.logLevel)); err != nil {
		return nil, fmt.Errorf("-log-level must be debug, info, warn or error (got %q)", c.logLevel)
	}
	opts := &slog.HandlerOptions{Level: level}
	switch strings.ToLower(c.logFormat) {
	case "text":
		return slog.New(slog.NewTextHandler(w, opts)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(w, opts)), nil
	}
	return nil, fmt.Errorf("-log-format must be text or json (got %q)", c.logFormat)
}

// httpOptions checks the HTTP settings: a bind beyond loopback needs a
// token, or the explicit -allow-no-auth.
func (c *config) httpOptions() (*mcpserver.HTTPOptions, error) {
	host, _, err := net.SplitHostPort(c.httpAddr)
	if err != nil {
		return nil, fmt.Errorf("-http must be host:port, such as 127.0.0.1:8080 (got %q)", c.httpAddr)
	}
	if !mcpserver.IsLoopback(host) && c.authToken == "" && !c.allowNoAuth {
		return nil, fmt.Errorf("-http %s is reachable beyond this machine: set -auth-token (or WEBSEARCH_AUTH_TOKEN), or bind 127.0.0.1, or pass -allow-no-auth to serve it unauthenticated", c.httpAddr)
	}
	var origins []string
	for _, o := range strings.Split(c.allowedOrigins, ",") {
		if o = strings.TrimSpace(o); o != "" {
			origins = append(origins, o)
		}
	}
	return &mcpserver.HTTPOptions{
		AuthToken:      c.authToken,
		AllowedOrigins: origins,
		Stateless:      c.stateless,
		Version:        version(),
	}, nil
}

// usage writes the help text: commands, then every setting with its
// default and environment variable.
func usage(w io.Writer) {
	fmt.Fprint(w, `websearch-mcp: web search through DuckDuckGo, with no API key.

Usage:
  websearch-mcp [settings]                      serve MCP on stdin/stdout (what MCP clients run)
  websearch-mcp [settings] search [-n N] QUERY  print web_search's Markdown for QUERY (N: 1 to 100, default 10)
  websearch-mcp [settings] answer QUERY         print instant_answer's Markdown for QUERY
  websearch-mcp -version                        print the version

Settings (a flag wins over its environment variable):
`)
	var defaults config
	fs := newFlagSet(&defaults)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, s := range settings {
		def := fs.Lookup(s.flag).DefValue
		if def == "" {
			def = `""`
		}
		fmt.Fprintf(tw, "  -%s\t%s\t%s (default %s)\n", s.flag, s.env, s.usage, def)
	}
	tw.Flush()
	fmt.Fprintln(w, "\nLogs go to stderr; stdout carries only MCP messages or the printed Markdown.")
}

// oneLine folds an error into one line for stderr.
func oneLine(err error) string {
	return strings.Join(strings.Fields(err.Error()), " ")
}
