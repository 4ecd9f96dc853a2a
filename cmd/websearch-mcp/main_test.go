package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/websearch-mcp/websearch-mcp/internal/replay"
)

// binary is the websearch-mcp built once for the tests of this package.
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "websearch-mcp-e2e")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "websearch-mcp")
	if out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building websearch-mcp: %v\n%s", err, out)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// environ is the test's environment without WEBSEARCH_ settings, plus extra.
func environ(extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "WEBSEARCH_") {
			env = append(env, kv)
		}
	}
	return append(env, extra...)
}

// replica serves the recorded exchanges and returns the environment that
// points the binary at it.
func replica(t *testing.T) []string {
	t.Helper()
	srv := replay.Server(t, "search-paginated", "search-no-results", "search-blocked", "search-lite-fallback", "instant-answers")
	return []string{
		"WEBSEARCH_MIN_INTERVAL=0", // a replica needs no pacing
		"WEBSEARCH_HTML_URL=" + srv.URL + "/html/",
		"WEBSEARCH_LITE_URL=" + srv.URL + "/lite/",
		"WEBSEARCH_API_URL=" + srv.URL + "/",
	}
}

// runBinary runs the binary to completion and returns what it printed and
// its exit status.
func runBinary(t *testing.T, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Env = environ(env...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var exitErr *exec.ExitError
	switch {
	case errors.As(err, &exitErr):
		code = exitErr.ExitCode()
	case err != nil:
		t.Fatalf("running websearch-mcp: %v", err)
	}
	return out.String(), errOut.String(), code
}

func golden(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "fixtures", name+".md"))
	require.NoError(t, err)
	return string(b)
}

// connectBinary starts the binary as an MCP server over stdio.
func connectBinary(t *testing.T, env []string) *mcp.ClientSession {
	t.Helper()
	cmd := exec.Command(binary)
	cmd.Env = environ(env...)
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1.0"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-06-18"})
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })
	return cs
}

func TestServeOverStdio(t *testing.T) {
	t.Parallel()
	cs := connectBinary(t, replica(t))
	ctx := context.Background()

	tools, err := cs.ListTools(ctx, nil)
	require.NoError(t, err)
	require.Len(t, tools.Tools, 2)
	assert.Equal(t, "web_search", tools.Tools[0].Name)
	assert.Equal(t, "instant_answer", tools.Tools[1].Name)

	calls := []struct {
		tool, golden string
		args         map[string]any
	}{
		{"web_search", "web_search-30-results", map[string]any{"query": "golang concurrency", "max_results": 30}},
		{"web_search", "web_search-no-results", map[string]any{"query": "xyzzy12345noresult"}},
		{"instant_answer", "instant_answer-abstract-related", map[string]any{"query": "Rust programming language"}},
		{"instant_answer", "instant_answer-groups-definition", map[string]any{"query": "mercury"}},
	}
	for _, c := range calls {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: c.tool, Arguments: c.args})
		require.NoError(t, err)
		require.False(t, res.IsError)
		require.Len(t, res.Content, 1)
		assert.Equal(t, golden(t, c.golden), res.Content[0].(*mcp.TextContent).Text, c.golden)
	}

	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "web_search", Arguments: map[string]any{"query": "golang generics"}})
	require.NoError(t, err)
	assert.True(t, res.IsError)
	assert.Equal(t, golden(t, "web_search-blocked"), res.Content[0].(*mcp.TextContent).Text)
}

func TestCommands(t *testing.T) {
	t.Parallel()
	env := replica(t)
	tests := []struct {
		name       string
		args       []string
		wantOut    string
		wantErr    string
		wantStatus int
	}{
		{"search", []string{"search", "-n", "1", "golang concurrency"}, golden(t, "web_search-one-result") + "\n", "", 0},
		{"search, words not quoted", []string{"search", "-n", "30", "golang", "concurrency"}, golden(t, "web_search-30-results") + "\n", "", 0},
		{"answer", []string{"answer", "Rust programming language"}, golden(t, "instant_answer-abstract-related") + "\n", "", 0},
		{"no results", []string{"search", "xyzzy12345noresult"}, golden(t, "web_search-no-results") + "\n", "", 0},
		{"blocked", []string{"search", "golang generics"}, "", "websearch-mcp search: " + golden(t, "web_search-blocked") + "\n", 1},
		{"query too long", []string{"answer", strings.Repeat("x", 501)}, "", "websearch-mcp answer: query must be at most 500 characters (got 501)\n", 1},
		{"no query", []string{"answer"}, "", "websearch-mcp answer: give the query to look up, such as: websearch-mcp answer \"golang generics\"\n", 2},
		{"bad -n", []string{"search", "-n", "x", "go"}, "", "websearch-mcp search: invalid value \"x\" for flag -n: parse error (see websearch-mcp -h)\n", 2},
		{"-n out of range", []string{"search", "-n", "101", "go"}, "", "websearch-mcp search: max results must be from 1 to 100 (got 101)\n", 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out, errOut, code := runBinary(t, env, tc.args...)
			assert.Equal(t, tc.wantStatus, code)
			assert.Equal(t, tc.wantOut, out)
			assert.Equal(t, tc.wantErr, errOut)
		})
	}
}

func TestBadSettings(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		env  []string
		args []string
		want string
	}{
		{"bad timeout flag", nil, []string{"-timeout", "abc"}, `invalid value "abc" for flag -timeout`},
		{"negative timeout", nil, []string{"-timeout=-1s"}, "must be a positive duration"},
		{"bad timeout variable", []string{"WEBSEARCH_TIMEOUT=soon"}, nil, `WEBSEARCH_TIMEOUT: must be a positive duration such as 15s or 1m30s (got "soon")`},
		{"bad safe search", nil, []string{"-safesearch", "medium"}, `safe search must be strict, moderate or off (got "medium")`},
		{"bad safe search variable", []string{"WEBSEARCH_SAFESEARCH=none"}, nil, `safe search must be strict, moderate or off (got "none")`},
		{"bad region", nil, []string{"-region", "japan"}, `region must be a DuckDuckGo region code such as us-en or jp-jp (got "japan")`},
		{"bad time range", nil, []string{"-time-range", "decade"}, `time range must be day, week, month, year or any (got "decade")`},
		{"bad HTML URL", nil, []string{"-html-url", "ftp://example.com/"}, `the HTML endpoint must be an absolute http or https URL (got "ftp://example.com/")`},
		{"bad API URL variable", []string{"WEBSEARCH_API_URL=not a url"}, nil, `the API endpoint must be an absolute http or https URL (got "not a url")`},
		{"bad interval", nil, []string{"-min-interval", "-1s"}, `must be a duration such as 1s or 1m30s, or 0 for none (got "-1s")`},
		{"bad retries", []string{"WEBSEARCH_RETRIES=many"}, nil, `WEBSEARCH_RETRIES: must be a whole number, 0 or more (got "many")`},
		{"bad cache size", nil, []string{"-cache-size", "-5"}, `must be a whole number, 0 or more (got "-5")`},
		{"bad TLS fingerprint", nil, []string{"-tls-fingerprint", "firefox"}, `TLS fingerprint must be chrome or go (got "firefox")`},
		{"bad proxy", []string{"WEBSEARCH_PROXY=ftp://proxy:21"}, nil, `proxy must be an http, https or socks5 URL (got "ftp://proxy:21")`},
		{"HTTP beyond loopback without a token", nil, []string{"-http", "0.0.0.0:0"}, "-http 0.0.0.0:0 is reachable beyond this machine: set -auth-token"},
		{"HTTP on all interfaces without a token", []string{"WEBSEARCH_HTTP=:0"}, nil, "is reachable beyond this machine"},
		{"bad HTTP address", nil, []string{"-http", "8080"}, `-http must be host:port, such as 127.0.0.1:8080 (got "8080")`},
		{"HTTP with a command", nil, []string{"-http", "127.0.0.1:0", "search", "go"}, "-http serves MCP; it takes no command"},
		{"bad log level", nil, []string{"-log-level", "loud"}, `-log-level must be debug, info, warn or error (got "loud")`},
		{"bad log format", []string{"WEBSEARCH_LOG_FORMAT=xml"}, nil, `-log-format must be text or json (got "xml")`},
		{"unknown flag", nil, []string{"-verbose"}, "flag provided but not defined: -verbose"},
		{"unknown command", nil, []string{"serve-http"}, `unknown command "serve-http"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out, errOut, code := runBinary(t, tc.env, tc.args...)
			assert.Equal(t, 2, code)
			assert.Empty(t, out, "nothing on stdout")
			assert.Equal(t, 1, strings.Count(errOut, "\n"), "one line on stderr: %q", errOut)
			assert.True(t, strings.HasPrefix(errOut, "websearch-mcp: "), errOut)
			assert.Contains(t, errOut, tc.want)
		})
	}
}

func TestFlagWinsOverEnvironment(t *testing.T) {
	t.Parallel()
	env := replica(t)
	var htmlURL string
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "WEBSEARCH_HTML_URL="); ok {
			htmlURL = v
		}
	}
	// The variable alone would fail; the flag's value is used.
	out, errOut, code := runBinary(t, append(env, "WEBSEARCH_HTML_URL=ftp://nowhere/"), "-html-url", htmlURL, "search", "xyzzy12345noresult")
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, golden(t, "web_search-no-results")+"\n", out)
}

func TestHelpAndVersion(t *testing.T) {
	t.Parallel()
	out, errOut, code := runBinary(t, nil, "-h")
	assert.Equal(t, 0, code)
	assert.Empty(t, errOut)
	for _, s := range settings {
		assert.Contains(t, out, "-"+s.flag, "help lists the flag")
		assert.Contains(t, out, s.env, "help lists the variable")
	}
	assert.Contains(t, out, "(default 15s)")
	for _, def := range []string{"(default 1m0s)", "(default 15m0s)", "(default 256)", "(default 5m0s)"} {
		assert.Contains(t, out, def, "the cool-down and the cache are visible in -h")
	}

	out, _, code = runBinary(t, nil, "-version")
	assert.Equal(t, 0, code)
	assert.Regexp(t, `^websearch-mcp \S+\n$`, out)
}

// BenchmarkStartup starts the built server and measures the time to an
// answered tools/list (spawn, initialize, list), and the server's peak RSS.
//
//	go test -run '^$' -bench Startup ./cmd/websearch-mcp
func BenchmarkStartup(b *testing.B) {
	var maxRSS int64
	for b.Loop() {
		cmd := exec.Command(binary)
		cmd.Env = environ()
		client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1.0"}, nil)
		cs, err := client.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-06-18"})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := cs.ListTools(context.Background(), nil); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		cs.Close()
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			maxRSS = max(maxRSS, ru.Maxrss) // KiB on Linux
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(maxRSS)/1024, "peak-RSS-MiB")
}

// startHTTP starts the binary in -http mode on a free loopback port and
// returns its MCP URL, the process and its stderr.
func startHTTP(t *testing.T, env []string, args ...string) (string, *exec.Cmd, *syncBuffer) {
	t.Helper()
	cmd := exec.Command(binary, append([]string{"-http", "127.0.0.1:0", "-log-format", "json"}, args...)...)
	cmd.Env = environ(env...)
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	var url string
	require.Eventually(t, func() bool {
		if m := regexp.MustCompile(`"url":"([^"]+)"`).FindStringSubmatch(stderr.String()); m != nil {
			url = m[1]
			return true
		}
		return false
	}, 10*time.Second, 20*time.Millisecond, "the server says where it listens: %s", stderr)
	return url, cmd, stderr
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestHTTPModeGracefulShutdown(t *testing.T) {
	t.Parallel()
	// DuckDuckGo's stand-in takes a while, so that the call is in flight
	// when the signal comes.
	arrived := make(chan struct{}, 1)
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		arrived <- struct{}{}
		time.Sleep(time.Second)
		io.WriteString(w, `{"Type":"E","Answer":"2 + 2 = 4","AnswerType":"calc"}`)
	}))
	t.Cleanup(slow.Close)
	url, cmd, stderr := startHTTP(t, []string{"WEBSEARCH_API_URL=" + slow.URL + "/", "WEBSEARCH_MIN_INTERVAL=0"})

	resp, err := http.Get(strings.TrimSuffix(url, "/mcp") + "/healthz")
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.JSONEq(t, `{"status":"ok","version":"dev"}`, string(body))

	client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1.0"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-06-18"})
	require.NoError(t, err)
	defer cs.Close()
	done := make(chan *mcp.CallToolResult, 1)
	go func() {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "instant_answer", Arguments: map[string]any{"query": "2+2"}})
		assert.NoError(t, err)
		done <- res
	}()
	<-arrived
	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))

	select {
	case res := <-done:
		require.NotNil(t, res)
		assert.False(t, res.IsError)
		assert.Contains(t, res.Content[0].(*mcp.TextContent).Text, "2 + 2 = 4", "the call in flight finished")
	case <-time.After(10 * time.Second):
		t.Fatal("the call in flight never finished")
	}
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	select {
	case err := <-waited:
		assert.NoError(t, err, "a graceful stop exits 0: %s", stderr)
	case <-time.After(15 * time.Second):
		t.Fatal("the server did not stop")
	}
	assert.Contains(t, stderr.String(), `"msg":"stopped"`)
}

func TestHTTPModeToken(t *testing.T) {
	t.Parallel()
	url, _, _ := startHTTP(t, replica(t), "-auth-token", "s3cret")
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1.0"}, nil)
	_, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url}, nil)
	assert.Error(t, err, "no token, no session")
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(`{}`))
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)
}
