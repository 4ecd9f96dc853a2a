package mcpserver_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/sebdah/goldie/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/websearch-mcp/websearch-mcp/internal/replay"
	"github.com/websearch-mcp/websearch-mcp/mcpserver"
	"github.com/websearch-mcp/websearch-mcp/websearch"
)

// protocolVersion is pinned so that the goldens do not move with the SDK's
// newest protocol.
const protocolVersion = "2025-06-18"

// connect serves server in memory and returns a client session to it.
func connect(t *testing.T, server *mcp.Server) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st, nil)
	require.NoError(t, err)
	t.Cleanup(func() { ss.Close() })
	client := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "1.0"}, nil)
	cs, err := client.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: protocolVersion})
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })
	return cs
}

// recordedServer is the server of a client replaying the named cassette,
// with no pacing and no cache, so that every call reaches the cassette.
func recordedServer(t *testing.T, cassette string, opts *mcpserver.Options) *mcp.Server {
	t.Helper()
	c, err := websearch.NewClient(&websearch.ClientOptions{HTTPClient: replay.Client(t, cassette), MinInterval: -1, CacheSize: -1})
	require.NoError(t, err)
	return mcpserver.New(c, opts)
}

// text is the single text content of a tool result.
func text(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	require.Len(t, res.Content, 1)
	tc, ok := res.Content[0].(*mcp.TextContent)
	require.True(t, ok, "content is %T", res.Content[0])
	return tc.Text
}

func TestToolsList(t *testing.T) {
	t.Parallel()
	want, err := os.ReadFile(filepath.Join("..", "fixtures", "tools-list.json"))
	require.NoError(t, err)

	// The fixture is a verbatim copy of the spec's tools/list; when the spec
	// is at hand, hold the copy to it.
	if spec, err := os.ReadFile(filepath.Join("..", "..", "shared", "spec", "tools-spec.ja.md")); err == nil {
		block := regexp.MustCompile("(?s)## `tools/list`.*?```json\n(.*?)```").FindSubmatch(spec)
		require.NotNil(t, block, "tools-spec.ja.md has no tools/list JSON block")
		assert.JSONEq(t, string(block[1]), string(want), "fixtures/tools-list.json drifted from tools-spec.ja.md")
	}

	cs := connect(t, mcpserver.New(nil, nil))
	res, err := cs.ListTools(context.Background(), nil)
	require.NoError(t, err)
	raw, err := json.Marshal(res.Tools)
	require.NoError(t, err)
	var got []map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(raw, &got))
	var spec struct {
		Tools []map[string]json.RawMessage `json:"tools"`
	}
	require.NoError(t, json.Unmarshal(want, &spec))
	require.Len(t, got, len(spec.Tools), "exactly the spec's tools")

	// The spec's fields are equal as JSON values, in the spec's order; the
	// only other fields are the ones the spec allows adding.
	for i, specTool := range spec.Tools {
		for field, value := range specTool {
			assert.JSONEq(t, string(value), string(got[i][field]), "tool %d, %s", i, field)
		}
		for field := range got[i] {
			if _, inSpec := specTool[field]; !inSpec {
				assert.Contains(t, []string{"title", "annotations", "outputSchema"}, field, "tool %d adds %s", i, field)
			}
		}
	}
	for _, tool := range res.Tools {
		assert.NotEmpty(t, tool.Title)
		require.NotNil(t, tool.Annotations)
		assert.True(t, tool.Annotations.ReadOnlyHint)
		assert.True(t, tool.Annotations.IdempotentHint)
		assert.True(t, *tool.Annotations.OpenWorldHint)
		assert.NotNil(t, tool.OutputSchema)
	}
}

// TestGoldens checks every Markdown case byte for byte against fixtures/,
// replayed from recordings/. Rewrite them with GOLDIE_UPDATE=1 go test ./...
func TestGoldens(t *testing.T) {
	t.Parallel()
	region := &mcpserver.Options{Search: websearch.SearchOptions{
		Region: "jp-jp", TimeRange: websearch.PastWeek, SafeSearch: websearch.SafeSearchStrict,
	}}
	tests := []struct {
		golden   string
		cassette string
		opts     *mcpserver.Options
		tool     string
		args     map[string]any
		isError  bool
	}{
		{"web_search-30-results", "search-paginated", nil, "web_search", map[string]any{"query": "golang concurrency", "max_results": 30}, false},
		{"web_search-one-result", "search-paginated", nil, "web_search", map[string]any{"query": "golang concurrency", "max_results": 1}, false},
		{"web_search-region-no-snippet", "search-region", region, "web_search", map[string]any{"query": "  onsen ryokan "}, false},
		{"web_search-no-results", "search-no-results", nil, "web_search", map[string]any{"query": "xyzzy12345noresult"}, false},
		{"web_search-blocked", "search-blocked", nil, "web_search", map[string]any{"query": "golang generics"}, true},
		{"instant_answer-abstract-related", "instant-answers", nil, "instant_answer", map[string]any{"query": "Rust programming language"}, false},
		{"instant_answer-results-official-site", "instant-answers", nil, "instant_answer", map[string]any{"query": "DuckDuckGo"}, false},
		{"instant_answer-groups-definition", "instant-answers", nil, "instant_answer", map[string]any{"query": "mercury"}, false},
		{"instant_answer-category", "instant-answers", nil, "instant_answer", map[string]any{"query": "Go web frameworks"}, false},
		{"instant_answer-answer", "instant-answers", nil, "instant_answer", map[string]any{"query": "2+2"}, false},
		{"instant_answer-redirect", "instant-answers", nil, "instant_answer", map[string]any{"query": "!w golang"}, false},
		{"instant_answer-none", "instant-answers", nil, "instant_answer", map[string]any{"query": "xyzzy12345noresult"}, false},
	}
	for _, tc := range tests {
		t.Run(tc.golden, func(t *testing.T) {
			t.Parallel()
			cs := connect(t, recordedServer(t, tc.cassette, tc.opts))
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tc.tool, Arguments: tc.args})
			require.NoError(t, err)
			assert.Equal(t, tc.isError, res.IsError)
			got := text(t, res)
			assert.False(t, strings.HasSuffix(got, "\n"), "no trailing newline")
			g := goldie.New(t, goldie.WithFixtureDir(filepath.Join("..", "fixtures")), goldie.WithNameSuffix(".md"))
			g.Assert(t, tc.golden, []byte(got))
		})
	}
}

// The spec's own examples, byte for byte.
func TestSpecExamples(t *testing.T) {
	t.Parallel()
	results := []websearch.Result{
		{Title: "The Rust Programming Language", URL: "https://www.rust-lang.org/", Snippet: "Rust is a systems programming language focused on safety, speed, and concurrency."},
		{Title: "Rust (programming language) - Wikipedia", URL: "https://en.wikipedia.org/wiki/Rust_(programming_language)", Snippet: "Rust is a multi-paradigm, general-purpose programming language..."},
	}
	assert.Equal(t, "## Web Search Results for \"Rust programming\"\n\n"+
		"### 1. The Rust Programming Language\n**URL:** https://www.rust-lang.org/\nRust is a systems programming language focused on safety, speed, and concurrency.\n\n---\n\n"+
		"### 2. Rust (programming language) - Wikipedia\n**URL:** https://en.wikipedia.org/wiki/Rust_(programming_language)\nRust is a multi-paradigm, general-purpose programming language...\n\n---\n\n"+
		"_Source: DuckDuckGo (2 results)_", mcpserver.SearchMarkdown("Rust programming", results))
	assert.Equal(t, "## Web Search Results for \"xyzzy12345noresult\"\n\nNo results found.\n\n_Source: DuckDuckGo_",
		mcpserver.SearchMarkdown("xyzzy12345noresult", nil))

	cs := connect(t, recordedServer(t, "instant-answers", nil))
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "instant_answer", Arguments: map[string]any{"query": "Rust programming language"}})
	require.NoError(t, err)
	assert.Equal(t, "## Instant Answer for \"Rust programming language\"\n\n"+
		"### Abstract\nRust is a multi-paradigm, general-purpose programming language that emphasizes performance, type safety, and concurrency.\n\n"+
		"**Source:** Wikipedia\n**URL:** https://en.wikipedia.org/wiki/Rust_(programming_language)\n\n"+
		"### Related Topics\n- **Cargo** - The Rust package manager\n- **Crates.io** - The Rust community's crate registry\n\n"+
		"_Source: DuckDuckGo Instant Answer API_", text(t, res))
	assert.Equal(t, "## Instant Answer for \"xyzzy12345noresult\"\n\nNo instant answer available for this query.\n\n_Source: DuckDuckGo Instant Answer API_",
		mcpserver.AnswerMarkdown("xyzzy12345noresult", &websearch.Answer{}))
}

func TestBadInput(t *testing.T) {
	t.Parallel()
	// A server that fails the test if any request reaches it.
	ddg := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("bad input reached DuckDuckGo: %s %s", r.Method, r.URL)
	}))
	t.Cleanup(ddg.Close)
	c, err := websearch.NewClient(&websearch.ClientOptions{HTMLURL: ddg.URL + "/html/", APIURL: ddg.URL + "/"})
	require.NoError(t, err)
	cs := connect(t, mcpserver.New(c, nil))

	long := strings.Repeat("a", 501)
	tests := []struct {
		name, tool, args, want string
	}{
		{"query missing", "web_search", `{}`, "query is required: give the words to search for"},
		{"no arguments at all", "instant_answer", ``, "query is required: give the words to search for"},
		{"query empty", "web_search", `{"query": ""}`, "query must not be empty"},
		{"query white space", "instant_answer", `{"query": "  \t "}`, "query must not be empty"},
		{"query too long", "web_search", `{"query": "` + long + `"}`, "query must be at most 500 characters (got 501)"},
		{"query with a line break", "web_search", `{"query": "go\nlang"}`, "query must not contain control characters such as tabs or line breaks (found U+000A at character 3)"},
		{"query with a bell", "instant_answer", `{"query": "go\u0007"}`, "query must not contain control characters such as tabs or line breaks (found U+0007 at character 3)"},
		{"query a number", "web_search", `{"query": 42}`, "query must be a string (got 42)"},
		{"query null", "web_search", `{"query": null}`, "query must be a string (got null)"},
		{"query a list", "instant_answer", `{"query": ["go", "lang"]}`, `query must be a string (got ["go","lang"])`},
		{"query an object", "web_search", `{"query": {"q": "go"}}`, `query must be a string (got {"q":"go"})`},
		{"max_results 0", "web_search", `{"query": "go", "max_results": 0}`, "max_results must be an integer from 1 to 30 (got 0)"},
		{"max_results 31", "web_search", `{"query": "go", "max_results": 31}`, "max_results must be an integer from 1 to 30 (got 31)"},
		{"max_results -1", "web_search", `{"query": "go", "max_results": -1}`, "max_results must be an integer from 1 to 30 (got -1)"},
		{"max_results 2.5", "web_search", `{"query": "go", "max_results": 2.5}`, "max_results must be an integer from 1 to 30 (got 2.5)"},
		{"max_results ten", "web_search", `{"query": "go", "max_results": "ten"}`, `max_results must be an integer from 1 to 30 (got "ten")`},
		{"max_results null", "web_search", `{"query": "go", "max_results": null}`, "max_results must be an integer from 1 to 30 (got null)"},
		{"max_results huge", "web_search", `{"query": "go", "max_results": 1e300}`, "max_results must be an integer from 1 to 30 (got 1e300)"},
		{"arguments a list", "web_search", `["go"]`, `arguments must be an object such as {"query": "golang"}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			params := &mcp.CallToolParams{Name: tc.tool}
			if tc.args != "" {
				params.Arguments = json.RawMessage(tc.args)
			}
			res, err := cs.CallTool(context.Background(), params)
			require.NoError(t, err, "bad input is a tool error, never a protocol error")
			assert.True(t, res.IsError)
			assert.Equal(t, tc.want, text(t, res))
		})
	}
}

func TestGoodNumbers(t *testing.T) {
	t.Parallel()
	cs := connect(t, recordedServer(t, "search-paginated", nil))
	// 10.0 is 10, and unknown arguments are ignored.
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "web_search",
		Arguments: json.RawMessage(`{"query": "golang concurrency", "max_results": 10.0, "unknown": true}`)})
	require.NoError(t, err)
	require.False(t, res.IsError, text(t, res))
	assert.Contains(t, text(t, res), "_Source: DuckDuckGo (10 results)_")
}

func TestCancellationStopsRequests(t *testing.T) {
	t.Parallel()
	arrived := make(chan struct{})
	stopped := make(chan struct{})
	ddg := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Read the body first: only then does the server watch the
		// connection and cancel r.Context() when the client hangs up.
		io.Copy(io.Discard, r.Body)
		close(arrived)
		<-r.Context().Done()
		close(stopped)
	}))
	t.Cleanup(ddg.Close)
	c, err := websearch.NewClient(&websearch.ClientOptions{HTMLURL: ddg.URL + "/html/", Timeout: time.Minute})
	require.NoError(t, err)
	cs := connect(t, mcpserver.New(c, nil))

	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "web_search", Arguments: map[string]any{"query": "go"}})
		done <- err
	}()
	select {
	case <-arrived:
	case <-time.After(10 * time.Second):
		t.Fatal("the search never reached the server")
	}
	cancel()
	select {
	case <-stopped:
	case <-time.After(10 * time.Second):
		t.Fatal("cancelling the call did not cancel its HTTP request")
	}
	assert.Error(t, <-done)
}

func TestErrorText(t *testing.T) {
	t.Parallel()
	tests := []struct {
		err  error
		want string
	}{
		{context.DeadlineExceeded, "did not answer in time"},
		{context.Canceled, "cancelled"},
		{&websearch.StatusError{StatusCode: 503}, "HTTP 503 Service Unavailable; try again in a few minutes."},
		{websearch.ErrResponseTooLarge, "larger than the size limit"},
		{websearch.ErrUnexpectedMarkup, "CONTRIBUTING.md"},
		{websearch.ErrBlocked, "wait a few minutes"},
		{&websearch.BlockedError{Endpoint: "x", StatusCode: 202, Wait: time.Minute}, "wait 1 minute before searching again."},
		{&websearch.BlockedError{Endpoint: "x", Wait: 4 * time.Minute}, "wait 4 minutes before"},
		{&websearch.BlockedError{Wait: 90 * time.Second}, "Searches are paused because DuckDuckGo took the last one for a bot; try again in 2 minutes."},
		{&websearch.BlockedError{Wait: 42*time.Second + time.Millisecond}, "try again in 43 seconds."},
		{os.ErrDeadlineExceeded, "Could not reach DuckDuckGo"},
	}
	for _, tc := range tests {
		assert.Contains(t, mcpserver.ErrorText(tc.err), tc.want)
	}
}

func TestStructuredContent(t *testing.T) {
	t.Parallel()
	cs := connect(t, recordedServer(t, "search-region", &mcpserver.Options{Search: websearch.SearchOptions{
		Region: "jp-jp", TimeRange: websearch.PastWeek, SafeSearch: websearch.SafeSearchStrict,
	}}))
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "web_search", Arguments: map[string]any{"query": "onsen ryokan", "max_results": 2}})
	require.NoError(t, err)
	require.False(t, res.IsError)
	tc := res.Content[0].(*mcp.TextContent)
	assert.True(t, strings.HasPrefix(tc.Text, "## Web Search Results"), "the Markdown stays first")
	require.NotNil(t, tc.Annotations)
	assert.Equal(t, []mcp.Role{"user", "assistant"}, tc.Annotations.Audience)
	assert.Equal(t, 0.9, tc.Annotations.Priority)

	raw, err := json.Marshal(res.StructuredContent)
	require.NoError(t, err)
	assert.JSONEq(t, `{"query":"onsen ryokan","results":[
		{"position":1,"title":"箱根の温泉旅館ランキング - 旅の窓口","url":"https://travel.example.jp/hakone/onsen-ryokan/",
		 "snippet":"箱根エリアの温泉旅館を口コミ評価順に紹介します。日帰り入浴ができる宿も掲載。","display_url":"travel.example.jp/hakone/onsen-ryokan/",
		 "favicon":"https://external-content.duckduckgo.com/ip3/travel.example.jp.ico","date":"2026-11-18T00:00:00Z"},
		{"position":2,"title":"Onsen Ryokan Guide | Japan Travel","url":"https://www.japan-guide.example.com/e/e2292.html",
		 "display_url":"www.japan-guide.example.com/e/e2292.html","favicon":"https://external-content.duckduckgo.com/ip3/www.japan-guide.example.com.ico"}]}`, string(raw))

	cs = connect(t, recordedServer(t, "instant-answers", nil))
	res, err = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "instant_answer", Arguments: map[string]any{"query": "2+2"}})
	require.NoError(t, err)
	raw, err = json.Marshal(res.StructuredContent)
	require.NoError(t, err)
	assert.JSONEq(t, `{"query":"2+2","type":"E","answer":"2 + 2 = 4","answer_type":"calc"}`, string(raw))

	res, err = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "web_search", Arguments: map[string]any{"query": ""}})
	require.NoError(t, err)
	assert.True(t, res.IsError)
	assert.Nil(t, res.StructuredContent, "an error has no structured content")
	assert.Equal(t, 1.0, res.Content[0].(*mcp.TextContent).Annotations.Priority, "an error has the highest priority")
}

func TestProgressAndLogNotifications(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var progress []*mcp.ProgressNotificationParams
	//lint:ignore SA1019 MCP log notifications serve clients of protocols before 2026-07-28, which deprecates them (issue: Speak full MCP)
	var logs []*mcp.LoggingMessageParams
	client := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "1.0"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			mu.Lock()
			progress = append(progress, req.Params)
			mu.Unlock()
		},
		//lint:ignore SA1019 MCP log notifications serve clients of protocols before 2026-07-28, which deprecates them (issue: Speak full MCP)
		LoggingMessageHandler: func(_ context.Context, req *mcp.LoggingMessageRequest) {
			mu.Lock()
			logs = append(logs, req.Params)
			mu.Unlock()
		},
	})
	var stderr strings.Builder
	var stderrMu sync.Mutex
	logger := slog.New(slog.NewJSONHandler(writerFunc(func(p []byte) (int, error) {
		stderrMu.Lock()
		defer stderrMu.Unlock()
		return stderr.Write(p)
	}), nil))
	server := recordedServer(t, "search-paginated", &mcpserver.Options{Logger: logger})
	st, ct := mcp.NewInMemoryTransports()
	ss, err := server.Connect(context.Background(), st, nil)
	require.NoError(t, err)
	t.Cleanup(func() { ss.Close() })
	cs, err := client.Connect(context.Background(), ct, &mcp.ClientSessionOptions{ProtocolVersion: protocolVersion})
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })
	//lint:ignore SA1019 MCP log notifications serve clients of protocols before 2026-07-28, which deprecates them (issue: Speak full MCP)
	require.NoError(t, cs.SetLoggingLevel(context.Background(), &mcp.SetLoggingLevelParams{Level: "info"}))

	params := &mcp.CallToolParams{Name: "web_search", Arguments: map[string]any{"query": "golang concurrency", "max_results": 30}}
	params.SetProgressToken("search-1")
	res, err := cs.CallTool(context.Background(), params)
	require.NoError(t, err)
	require.False(t, res.IsError)

	require.Eventually(t, func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(progress) == 3 && len(logs) >= 2
	}, 5*time.Second, 10*time.Millisecond, "one progress notification per page, and the call's log events")
	mu.Lock()
	for i, p := range progress {
		assert.Equal(t, "search-1", p.ProgressToken)
		assert.Equal(t, float64(i+1), p.Progress)
		assert.Contains(t, p.Message, "fetched page")
	}
	var finished map[string]any
	for _, l := range logs {
		if m, ok := l.Data.(map[string]any); ok && m["msg"] == "tool call finished" {
			finished = m
		}
	}
	mu.Unlock()
	require.NotNil(t, finished, "the end of the call reached the client as a log notification")
	assert.Equal(t, "web_search", finished["tool"])
	assert.Equal(t, "ok", finished["outcome"])
	assert.EqualValues(t, 30, finished["results"])

	stderrMu.Lock()
	out := stderr.String()
	stderrMu.Unlock()
	assert.Contains(t, out, `"msg":"tool call started"`)
	assert.Contains(t, out, `"duration_ms":`)
	assert.Contains(t, out, `"query_len":18`)
	assert.NotContains(t, out, "golang concurrency", "the query is not logged at info level")

	// A call without a token sends no progress.
	mu.Lock()
	progress = nil
	mu.Unlock()
	_, err = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "web_search", Arguments: map[string]any{"query": "golang concurrency", "max_results": 30}})
	require.NoError(t, err)
	time.Sleep(50 * time.Millisecond)
	mu.Lock()
	assert.Empty(t, progress)
	mu.Unlock()
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }
