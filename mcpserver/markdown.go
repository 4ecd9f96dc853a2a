package mcpserver

import (
	"fmt"
	"strings"

	"github.com/websearch-mcp/websearch-mcp/websearch"
)

// SearchMarkdown renders search results as the web_search tool returns them:
// a heading echoing the query, one numbered block per result, and a footer
// with the count. It has no trailing newline.
func SearchMarkdown(query string, results []websearch.Result) string {
	var b strings.Builder
	b.WriteString("## Web Search Results for \"" + query + "\"\n\n")
	if len(results) == 0 {
		b.WriteString("No results found.\n\n_Source: DuckDuckGo_")
		return b.String()
	}
	for i, r := range results {
		fmt.Fprintf(&b, "### %d. %s\n**URL:** %s\n", i+1, r.Title, r.URL)
		if r.Snippet != "" {
			b.WriteString(r.Snippet + "\n")
		}
		b.WriteString("\n---\n\n")
	}
	noun := "results"
	if len(results) == 1 {
		noun = "result"
	}
	fmt.Fprintf(&b, "_Source: DuckDuckGo (%d %s)_", len(results), noun)
	return b.String()
}

// AnswerMarkdown renders an instant answer as the instant_answer tool
// returns it: the sections that have something to show (Answer, Abstract,
// Definition, Results, Redirect, Related Topics, in that order), or a line
// saying there is no instant answer. It has no trailing newline.
func AnswerMarkdown(query string, a *websearch.Answer) string {
	var sections []string
	if a != nil {
		if a.Answer != "" {
			sections = append(sections, "### Answer\n"+a.Answer)
		}
		if s := summary("Abstract", a.Abstract); s != "" {
			sections = append(sections, s)
		}
		if s := summary("Definition", a.Definition); s != "" {
			sections = append(sections, s)
		}
		if len(a.Results) > 0 {
			lines := make([]string, len(a.Results))
			for i, r := range a.Results {
				lines[i] = "- " + link(r.Text, r.URL)
			}
			sections = append(sections, "### Results\n"+strings.Join(lines, "\n"))
		}
		if a.Redirect != "" {
			sections = append(sections, "### Redirect\n"+a.Redirect)
		}
		if len(a.RelatedTopics) > 0 {
			lines := make([]string, len(a.RelatedTopics))
			for i, t := range a.RelatedTopics {
				lines[i] = "- **" + t.Name + "**"
				if t.Description != "" {
					lines[i] += " - " + t.Description
				}
			}
			sections = append(sections, "### Related Topics\n"+strings.Join(lines, "\n"))
		}
	}
	if len(sections) == 0 {
		sections = append(sections, "No instant answer available for this query.")
	}
	return "## Instant Answer for \"" + query + "\"\n\n" +
		strings.Join(sections, "\n\n") +
		"\n\n_Source: DuckDuckGo Instant Answer API_"
}

// summary renders an abstract or a definition: its text, then its Source and
// URL lines when they are known. It is empty when there is no text.
func summary(title string, s websearch.Summary) string {
	if s.Text == "" {
		return ""
	}
	out := "### " + title + "\n" + s.Text
	var meta []string
	if s.Source != "" {
		meta = append(meta, "**Source:** "+s.Source)
	}
	if s.URL != "" {
		meta = append(meta, "**URL:** "+s.URL)
	}
	if len(meta) > 0 {
		out += "\n\n" + strings.Join(meta, "\n")
	}
	return out
}

// link renders a Markdown link, or the text or URL alone when the other is
// missing.
func link(text, url string) string {
	switch {
	case url == "":
		return text
	case text == "":
		return "[" + url + "](" + url + ")"
	}
	return "[" + text + "](" + url + ")"
}
