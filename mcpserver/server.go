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
	"encoding/json"
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
	// web_search call. Its MaxResults is ignored: the tool's max_results
	// argument decides. The zero value means all regions, moderate safe
	// search and any time.
	Search websearch.SearchOptions

	// Version is the version the server reports in the MCP handshake.
	// Empty means "dev".
	Version string
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
	if client == nil {
		var err error
		if client, err = websearch.NewClient(nil); err != nil {
			panic("mcpserver: the websearch defaults are invalid: " + err.Error())
		}
	}
	h := &handlers{client: client, search: o.Search}
	s := mcp.NewServer(&mcp.Implementation{Name: Name, Version: o.Version}, nil)
	s.AddTool(webSearchTool(), h.webSearch)
	s.AddTool(instantAnswerTool(), h.instantAnswer)
	s.AddReceivingMiddleware(specOrder)
	return s
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

type handlers struct {
	client *websearch.Client
	search websearch.SearchOptions
}

func (h *handlers) webSearch(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	args, err := parseArgs(req.Params.Arguments, true)
	if err != nil {
		return errorResult(err.Error()), nil
	}
	opts := h.search
	opts.MaxResults = args.maxResults
	results, err := h.client.Search(ctx, args.query, &opts)
	if err != nil {
		return errorResult(ErrorText(err)), nil
	}
	return textResult(SearchMarkdown(args.query, results)), nil
}

func (h *handlers) instantAnswer(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	args, err := parseArgs(req.Params.Arguments, false)
	if err != nil {
		return errorResult(err.Error()), nil
	}
	a, err := h.client.InstantAnswer(ctx, args.query)
	if err != nil {
		return errorResult(ErrorText(err)), nil
	}
	return textResult(AnswerMarkdown(args.query, a)), nil
}

func textResult(text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}
}

func errorResult(text string) *mcp.CallToolResult {
	r := textResult(text)
	r.IsError = true
	return r
}

// The tools as tools-spec.ja.md defines them. The input schemas are the
// spec's JSON, kept verbatim so that tools/list shows exactly them.
const (
	webSearchDescription     = "Search the web using DuckDuckGo and return a list of results with titles, URLs, and snippets."
	instantAnswerDescription = "Get an instant answer from DuckDuckGo, including abstracts, definitions, and related topics."

	webSearchSchema = `{
  "type": "object",
  "properties": {
    "query": {
      "type": "string",
      "description": "検索キーワード"
    },
    "max_results": {
      "type": "integer",
      "description": "返却する検索結果の最大数（デフォルト: 10）",
      "default": 10,
      "minimum": 1,
      "maximum": 30
    }
  },
  "required": ["query"]
}`

	instantAnswerSchema = `{
  "type": "object",
  "properties": {
    "query": {
      "type": "string",
      "description": "検索キーワード"
    }
  },
  "required": ["query"]
}`
)

func webSearchTool() *mcp.Tool {
	return &mcp.Tool{
		Name:        "web_search",
		Description: webSearchDescription,
		InputSchema: json.RawMessage(webSearchSchema),
	}
}

func instantAnswerTool() *mcp.Tool {
	return &mcp.Tool{
		Name:        "instant_answer",
		Description: instantAnswerDescription,
		InputSchema: json.RawMessage(instantAnswerSchema),
	}
}
