package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
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
