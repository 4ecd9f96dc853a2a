// Package mcpserver offers DuckDuckGo search as the MCP tools web_search and
// instant_answer, built on the go-sdk's mcp package. Both tools return
// Markdown; their names, descriptions and input schemas are those of the
// project's tool specification, byte for byte.
//
// Serve it over any go-sdk transport:
//
//	server := mcpserver.New(nil, nil)
//	err := server.Run(ctx, &mcp.StdioTransport{})
package mcpserver

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/websearch-mcp/websearch-mcp/websearch"
)

// Name is the server's name in the MCP handshake.
const Name = "websearch-mcp"

// Options configures the server. A nil *Options means the defaults
// documented on each field.
type Options struct {
	// Search holds the region, safe search and time range of every
	// web_search call. Its MaxResults and OnPage are ignored: the tool's
	// max_results argument decides, and progress goes to the MCP client.
	// The zero value means all regions, moderate safe search and any time.
	Search websearch.SearchOptions

	// Version is the version the server reports in the MCP handshake.
	// Empty means "dev".
	Version string

	// Logger receives the start and end of every tool call: the tool, the
	// query's length and a hash of it (the query itself only at debug
	// level), the outcome, the result count and duration_ms. Nil means no
	// log. Clients that set a logging level also receive these events as
	// MCP log notifications.
	Logger *slog.Logger
}

// New returns an MCP server offering exactly the tools web_search and
// instant_answer, answered by client. A nil client means one made with the
// websearch defaults; nil opts means the defaults of Options.
func New(client *websearch.Client, opts *Options) *mcp.Server {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Version == "" {
		o.Version = "dev"
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if client == nil {
		var err error
		if client, err = websearch.NewClient(nil); err != nil {
			panic("mcpserver: the websearch defaults are invalid: " + err.Error())
		}
	}
	h := &handlers{client: client, search: o.Search, log: o.Logger}
	h.search.OnPage = nil
	s := mcp.NewServer(&mcp.Implementation{Name: Name, Version: o.Version}, nil)
	s.AddTool(webSearchTool(), h.webSearch)
	s.AddTool(instantAnswerTool(), h.instantAnswer)
	s.AddReceivingMiddleware(specOrder)
	return s
}

type handlers struct {
	client *websearch.Client
	search websearch.SearchOptions
	log    *slog.Logger
}

func (h *handlers) webSearch(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	args, err := parseArgs(req.Params.Arguments, true)
	call := h.begin(ctx, req, args.query)
	if err != nil {
		return call.failed(outcomeInvalidInput, err.Error()), nil
	}
	opts := h.search
	opts.MaxResults = args.maxResults
	if token := req.Params.GetProgressToken(); token != nil && req.Session != nil {
		opts.OnPage = func(page, results int) {
			req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
				ProgressToken: token,
				Progress:      float64(page),
				Message:       fmt.Sprintf("fetched page %d (%d results so far)", page, results),
			})
		}
	}
	results, err := h.client.Search(ctx, args.query, &opts)
	if err != nil {
		return call.failed(outcomeOf(err), ErrorText(err)), nil
	}
	return call.succeeded(len(results), SearchMarkdown(args.query, results), newSearchOutput(args.query, results)), nil
}

func (h *handlers) instantAnswer(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	args, err := parseArgs(req.Params.Arguments, false)
	call := h.begin(ctx, req, args.query)
	if err != nil {
		return call.failed(outcomeInvalidInput, err.Error()), nil
	}
	a, err := h.client.InstantAnswer(ctx, args.query)
	if err != nil {
		return call.failed(outcomeOf(err), ErrorText(err)), nil
	}
	n := len(a.RelatedTopics) + len(a.Results)
	if !a.Empty() && n == 0 {
		n = 1
	}
	return call.succeeded(n, AnswerMarkdown(args.query, a), newAnswerOutput(args.query, a)), nil
}

// Content annotations (MCP 2025-06-18): the Markdown is for the user and the
// assistant alike, at high priority; an error, at the highest.
var (
	resultAnnotations = &mcp.Annotations{Audience: []mcp.Role{"user", "assistant"}, Priority: 0.9}
	errorAnnotations  = &mcp.Annotations{Audience: []mcp.Role{"user", "assistant"}, Priority: 1}
)

func textResult(text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text, Annotations: resultAnnotations}}}
}

func errorResult(text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{
		Content: []mcp.Content{&mcp.TextContent{Text: text, Annotations: errorAnnotations}},
		IsError: true,
	}
}

// toolOrder is the order of tools/list in the tool specification: by
// importance, where the SDK would sort by name.
var toolOrder = map[string]int{"web_search": 0, "instant_answer": 1}

// specOrder lists the tools in the specification's order.
func specOrder(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if list, ok := res.(*mcp.ListToolsResult); ok && err == nil {
			slices.SortStableFunc(list.Tools, func(a, b *mcp.Tool) int {
				return cmp.Compare(rank(a.Name), rank(b.Name))
			})
		}
		return res, err
	}
}

// rank is a tool's place in toolOrder; tools it does not name come last.
func rank(name string) int {
	if r, ok := toolOrder[name]; ok {
		return r
	}
	return len(toolOrder)
}
