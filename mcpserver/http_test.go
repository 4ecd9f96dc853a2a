package mcpserver_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/websearch-mcp/websearch-mcp/internal/replay"
	"github.com/websearch-mcp/websearch-mcp/mcpserver"
	"github.com/websearch-mcp/websearch-mcp/websearch"
)

// bearer adds a token to every request.
type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

// httpServer serves the MCP server of a client pointed at a replay server
// of the recordings, over HTTP.
func httpServer(t testing.TB, opts *mcpserver.HTTPOptions) *httptest.Server {
	t.Helper()
	ddg := replay.Server(t, "search-paginated", "instant-answers")
	c, err := websearch.NewClient(&websearch.ClientOptions{
		HTMLURL: ddg.URL + "/html/", APIURL: ddg.URL + "/", MinInterval: -1, CacheSize: -1,
	})
	require.NoError(t, err)
	t.Cleanup(c.CloseIdleConnections)
	srv := httptest.NewServer(mcpserver.HTTPHandler(mcpserver.New(c, nil), opts))
	t.Cleanup(srv.Close)
	return srv
}

// clientTransport keeps a connection per session, as MCP clients do; net/http's
// default keeps 2 per host and would make 50 sessions redial constantly.
var clientTransport = &http.Transport{MaxIdleConnsPerHost: 200}

func connectHTTP(t testing.TB, url, token string) (*mcp.ClientSession, error) {
	t.Helper()
	hc := &http.Client{Transport: clientTransport}
	if token != "" {
		hc.Transport = bearer{token, clientTransport}
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "http-test", Version: "1.0"}, nil)
	return client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url + "/mcp", HTTPClient: hc},
		&mcp.ClientSessionOptions{ProtocolVersion: protocolVersion})
}

func TestHTTP(t *testing.T) {
	t.Parallel()
	for _, stateless := range []bool{false, true} {
		t.Run(fmt.Sprintf("stateless=%v", stateless), func(t *testing.T) {
			t.Parallel()
			srv := httpServer(t, &mcpserver.HTTPOptions{Stateless: stateless, Version: "v1.2.3"})
			cs, err := connectHTTP(t, srv.URL, "")
			require.NoError(t, err)
			defer cs.Close()
			ctx := context.Background()

			tools, err := cs.ListTools(ctx, nil)
			require.NoError(t, err)
			assert.Equal(t, []string{"web_search", "instant_answer"}, []string{tools.Tools[0].Name, tools.Tools[1].Name})
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "web_search", Arguments: map[string]any{"query": "golang concurrency", "max_results": 1}})
			require.NoError(t, err)
			assert.Equal(t, golden(t, "web_search-one-result"), res.Content[0].(*mcp.TextContent).Text)
			res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "instant_answer", Arguments: map[string]any{"query": "2+2"}})
			require.NoError(t, err)
			assert.Equal(t, golden(t, "instant_answer-answer"), res.Content[0].(*mcp.TextContent).Text)

			resp, err := http.Get(srv.URL + "/healthz")
			require.NoError(t, err)
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			assert.Equal(t, http.StatusOK, resp.StatusCode)
			assert.JSONEq(t, `{"status":"ok","version":"v1.2.3"}`, string(body))
		})
	}
}

func golden(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "fixtures", name+".md"))
	require.NoError(t, err)
	return string(b)
}

func TestHTTPRefusals(t *testing.T) {
	t.Parallel()
	srv := httpServer(t, &mcpserver.HTTPOptions{AuthToken: "s3cret", AllowedOrigins: []string{"https://app.example.com"}})
	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"curl","version":"1"}}}`
	post := func(header map[string]string, body string) int {
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		for k, v := range header {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	tests := []struct {
		name   string
		header map[string]string
		body   string
		want   int
	}{
		{"no token", nil, initialize, http.StatusUnauthorized},
		{"wrong token", map[string]string{"Authorization": "Bearer guess"}, initialize, http.StatusUnauthorized},
		{"not a bearer token", map[string]string{"Authorization": "Basic czNjcmV0"}, initialize, http.StatusUnauthorized},
		{"foreign origin", map[string]string{"Authorization": "Bearer s3cret", "Origin": "https://evil.example"}, initialize, http.StatusForbidden},
		{"foreign origin before the token", map[string]string{"Origin": "http://evil.example"}, initialize, http.StatusForbidden},
		{"loopback origin not in the list", map[string]string{"Authorization": "Bearer s3cret", "Origin": "http://localhost:3000"}, initialize, http.StatusForbidden},
		{"body too large", map[string]string{"Authorization": "Bearer s3cret"}, `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"` + strings.Repeat("a", 2<<20) + `"}}`, http.StatusRequestEntityTooLarge},
		{"allowed origin and token", map[string]string{"Authorization": "Bearer s3cret", "Origin": "https://app.example.com"}, initialize, http.StatusOK},
		{"token, no origin", map[string]string{"Authorization": "Bearer s3cret"}, initialize, http.StatusOK},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, post(tc.header, tc.body), tc.name)
	}
	_, err := connectHTTP(t, srv.URL, "")
	assert.Error(t, err, "the go-sdk client without the token is refused")
	cs, err := connectHTTP(t, srv.URL, "s3cret")
	require.NoError(t, err)
	cs.Close()

	resp, err := http.Get(srv.URL + "/healthz")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode, "/healthz needs no token")
}

func TestDefaultOrigins(t *testing.T) {
	t.Parallel()
	srv := httpServer(t, nil)
	for origin, want := range map[string]int{
		"http://localhost:5173":   http.StatusOK,
		"http://127.0.0.1:8080":   http.StatusOK,
		"http://[::1]":            http.StatusOK,
		"https://evil.example":    http.StatusForbidden,
		"http://127.0.0.1.nip.io": http.StatusForbidden,
		"null":                    http.StatusForbidden,
	} {
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Origin", origin)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, want, resp.StatusCode, origin)
	}
}

// TestHTTPLoad makes 500 tool calls from 50 concurrent sessions over HTTP
// against a replay server: all answered correctly, no goroutine left
// behind. It logs the latency per call, and the same calls made directly
// through the library under the same concurrency: the difference is what
// MCP over HTTP adds.
func TestHTTPLoad(t *testing.T) {
	ignore := goleak.IgnoreCurrent()
	t.Cleanup(func() { goleak.VerifyNone(t, ignore) }) // after the servers' own cleanups
	const sessions, callsPerSession = 50, 10

	start := time.Now()
	overHTTP := loadRun(t, sessions, callsPerSession)
	elapsed := time.Since(start)
	require.Len(t, overHTTP, sessions*callsPerSession)
	p := func(l []time.Duration, q int) time.Duration { slices.Sort(l); return l[len(l)*q/100] }
	t.Logf("%d calls over %d concurrent sessions: p50 %v, p99 %v, %.0f calls/s",
		len(overHTTP), sessions, p(overHTTP, 50), p(overHTTP, 99), float64(len(overHTTP))/elapsed.Seconds())

	// One call at a time, what MCP over HTTP adds to the library's own work.
	seqHTTP, seqDirect := loadRun(t, 1, 100), directRun(t, 1, 100)
	t.Logf("one at a time: MCP over HTTP p50 %v p99 %v; library alone p50 %v p99 %v; overhead p50 %v p99 %v",
		p(seqHTTP, 50), p(seqHTTP, 99), p(seqDirect, 50), p(seqDirect, 99),
		p(seqHTTP, 50)-p(seqDirect, 50), p(seqHTTP, 99)-p(seqDirect, 99))
}

// directRun makes loadRun's calls through the library, with no MCP.
func directRun(t *testing.T, workers, callsPerWorker int) []time.Duration {
	ddg := replay.Server(t, "search-paginated", "instant-answers")
	c, err := websearch.NewClient(&websearch.ClientOptions{HTMLURL: ddg.URL + "/html/", APIURL: ddg.URL + "/", MinInterval: -1, CacheSize: -1})
	require.NoError(t, err)
	t.Cleanup(c.CloseIdleConnections)
	var mu sync.Mutex
	var latencies []time.Duration
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := range callsPerWorker {
				start := time.Now()
				var err error
				if (w+i)%2 == 1 {
					_, err = c.InstantAnswer(context.Background(), "2+2")
				} else {
					_, err = c.Search(context.Background(), "golang concurrency", &websearch.SearchOptions{MaxResults: 1})
				}
				d := time.Since(start)
				assert.NoError(t, err)
				mu.Lock()
				latencies = append(latencies, d)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return latencies
}

func loadRun(t *testing.T, sessions, callsPerSession int) []time.Duration {
	srv := httpServer(t, nil)
	t.Cleanup(clientTransport.CloseIdleConnections)
	want := map[string]string{"web_search": golden(t, "web_search-one-result"), "instant_answer": golden(t, "instant_answer-answer")}
	args := map[string]map[string]any{
		"web_search":     {"query": "golang concurrency", "max_results": 1},
		"instant_answer": {"query": "2+2"},
	}
	var mu sync.Mutex
	var latencies []time.Duration
	var wg sync.WaitGroup
	for s := range sessions {
		wg.Go(func() {
			cs, err := connectHTTP(t, srv.URL, "")
			if !assert.NoError(t, err) {
				return
			}
			defer cs.Close()
			for i := range callsPerSession {
				tool := "web_search"
				if (s+i)%2 == 1 {
					tool = "instant_answer"
				}
				start := time.Now()
				res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args[tool]})
				d := time.Since(start)
				if !assert.NoError(t, err) || !assert.False(t, res.IsError) {
					return
				}
				assert.Equal(t, want[tool], res.Content[0].(*mcp.TextContent).Text)
				mu.Lock()
				latencies = append(latencies, d)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return latencies
}
