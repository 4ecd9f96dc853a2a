package mcpserver

import (
	"encoding/json"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/websearch-mcp/websearch-mcp/websearch"
)

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

// Both tools only read the web, which is open-ended; asking twice gives the
// same kind of answer.
func annotations(title string) *mcp.ToolAnnotations {
	open := true
	return &mcp.ToolAnnotations{Title: title, ReadOnlyHint: true, OpenWorldHint: &open, IdempotentHint: true}
}

func webSearchTool() *mcp.Tool {
	return &mcp.Tool{
		Name:         "web_search",
		Title:        "Web Search",
		Description:  webSearchDescription,
		InputSchema:  json.RawMessage(webSearchSchema),
		OutputSchema: outputSchema[searchOutput](),
		Annotations:  annotations("Web Search"),
	}
}

func instantAnswerTool() *mcp.Tool {
	return &mcp.Tool{
		Name:         "instant_answer",
		Title:        "Instant Answer",
		Description:  instantAnswerDescription,
		InputSchema:  json.RawMessage(instantAnswerSchema),
		OutputSchema: outputSchema[answerOutput](),
		Annotations:  annotations("Instant Answer"),
	}
}

// searchOutput is web_search's structured content.
type searchOutput struct {
	// Query is the query as searched, trimmed.
	Query string `json:"query"`
	// Results are the results in DuckDuckGo's order.
	Results []searchResult `json:"results"`
}

// searchResult is one result, with its position from 1.
type searchResult struct {
	Position int `json:"position"`
	websearch.Result
}

func newSearchOutput(query string, results []websearch.Result) searchOutput {
	out := searchOutput{Query: query, Results: make([]searchResult, len(results))}
	for i, r := range results {
		out.Results[i] = searchResult{Position: i + 1, Result: r}
	}
	return out
}

// answerOutput is instant_answer's structured content: the typed answer
// with the query. (It spells the fields out: embedding websearch.Answer
// would hide its Answer field from the schema.)
type answerOutput struct {
	Query         string                   `json:"query"`
	Heading       string                   `json:"heading,omitempty"`
	Type          string                   `json:"type,omitempty"`
	Entity        string                   `json:"entity,omitempty"`
	Abstract      websearch.Summary        `json:"abstract,omitzero"`
	Answer        string                   `json:"answer,omitempty"`
	AnswerType    string                   `json:"answer_type,omitempty"`
	Definition    websearch.Summary        `json:"definition,omitzero"`
	Redirect      string                   `json:"redirect,omitempty"`
	Image         *websearch.Image         `json:"image,omitempty"`
	Infobox       []websearch.InfoboxEntry `json:"infobox,omitempty"`
	Results       []websearch.Link         `json:"results,omitempty"`
	RelatedTopics []websearch.Topic        `json:"related_topics,omitempty"`
}

func newAnswerOutput(query string, a *websearch.Answer) answerOutput {
	return answerOutput{
		Query: query, Heading: a.Heading, Type: a.Type, Entity: a.Entity,
		Abstract: a.Abstract, Answer: a.Answer, AnswerType: a.AnswerType, Definition: a.Definition,
		Redirect: a.Redirect, Image: a.Image, Infobox: a.Infobox, Results: a.Results, RelatedTopics: a.RelatedTopics,
	}
}

// outputSchema is the JSON Schema of T, which must be describable.
func outputSchema[T any]() *jsonschema.Schema {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		panic("mcpserver: output schema: " + err.Error())
	}
	return s
}
