package websearch

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/net/html"
)

// Answer is DuckDuckGo's instant answer for a query. A query with no instant
// answer yields an Answer for which Empty reports true.
type Answer struct {
	// Heading is the answer's title, such as "Rust (programming language)".
	Heading string `json:"heading,omitempty"`
	// Type is DuckDuckGo's answer type: "A" (article), "D" (disambiguation),
	// "C" (category), "N" (name), "E" (exclusive, such as a calculation) or
	// "" (nothing).
	Type string `json:"type,omitempty"`
	// Entity is what the heading names, such as "programming language".
	Entity string `json:"entity,omitempty"`
	// Abstract is the topic summary, usually from Wikipedia.
	Abstract Summary `json:"abstract,omitzero"`
	// Answer is a direct answer (type E), such as a calculation, as plain text.
	Answer string `json:"answer,omitempty"`
	// AnswerType names the kind of Answer, such as "calc" or "ip".
	AnswerType string `json:"answer_type,omitempty"`
	// Definition is a dictionary definition.
	Definition Summary `json:"definition,omitzero"`
	// Redirect is where a !bang query leads, such as
	// "https://en.wikipedia.org/wiki/Special:Search?search=rust".
	Redirect string `json:"redirect,omitempty"`
	// Image is the topic's image; nil when there is none.
	Image *Image `json:"image,omitempty"`
	// Infobox holds the facts of the topic's infobox, in DuckDuckGo's order.
	Infobox []InfoboxEntry `json:"infobox,omitempty"`
	// Results are primary links such as the official site.
	Results []Link `json:"results,omitempty"`
	// RelatedTopics are related topics in DuckDuckGo's order, the topics of
	// groups (as in disambiguation answers) included in place.
	RelatedTopics []Topic `json:"related_topics,omitempty"`
}

// Empty reports whether the answer has nothing to show: no abstract text,
// answer, definition, redirect, results or related topics.
func (a *Answer) Empty() bool {
	return a.Abstract.Text == "" && a.Answer == "" && a.Definition.Text == "" &&
		a.Redirect == "" && len(a.Results) == 0 && len(a.RelatedTopics) == 0
}

// Summary is a text with where it comes from.
type Summary struct {
	// Text is the summary as plain text.
	Text string `json:"text,omitempty"`
	// Source names where it comes from, such as "Wikipedia".
	Source string `json:"source,omitempty"`
	// URL is the page it comes from.
	URL string `json:"url,omitempty"`
}

// Image is a picture DuckDuckGo shows with an answer.
type Image struct {
	// URL is absolute (DuckDuckGo's relative paths are resolved against
	// https://duckduckgo.com).
	URL string `json:"url"`
	// Width and Height are in pixels; zero when DuckDuckGo does not say.
	Width  int `json:"width,omitempty"`
	Height int `json:"height,omitempty"`
	// IsLogo reports whether the image is a logo.
	IsLogo bool `json:"is_logo,omitempty"`
}

// InfoboxEntry is one fact of an infobox, such as "Designed by": "Graydon Hoare".
type InfoboxEntry struct {
	// Label names the fact, such as "Designed by".
	Label string `json:"label"`
	// Value is the fact as text, such as "Graydon Hoare".
	Value string `json:"value"`
}

// Link is one of an answer's primary links, such as "Official site".
type Link struct {
	// Text is the link's text.
	Text string `json:"text"`
	// URL is where it leads.
	URL string `json:"url"`
	// Icon is the absolute URL of the link's icon, or "".
	Icon string `json:"icon,omitempty"`
}

// Topic is a related topic.
type Topic struct {
	// Name is the text of the topic's link, such as "Cargo".
	Name string `json:"name"`
	// Description is the rest of the topic's text, such as "The Rust package
	// manager"; it may be empty.
	Description string `json:"description,omitempty"`
	// Text is DuckDuckGo's whole text of the topic, as it gives it.
	Text string `json:"text"`
	// URL is the topic's page on DuckDuckGo.
	URL string `json:"url,omitempty"`
	// Group is the name of the group the topic sits in, such as "Companies";
	// empty for a topic outside any group.
	Group string `json:"group,omitempty"`
	// Icon is the absolute URL of the topic's icon, or "".
	Icon string `json:"icon,omitempty"`
}

// InstantAnswer asks DuckDuckGo's Instant Answer API about query. A query
// with no instant answer yields an empty Answer (see Answer.Empty) and a nil
// error. Answers are cached, and identical calls in flight share their
// request, as for Search (see ClientOptions).
//
// Errors: ErrInvalidInput for a bad query; a *BlockedError (ErrBlocked)
// when DuckDuckGo answers with its bot challenge; ErrUnexpectedMarkup when
// the body is not the API's JSON; a *StatusError for any other non-2xx status; ErrResponseTooLarge; and
// the context's error (or context.DeadlineExceeded for the per-request
// timeout) when time runs out.
func (c *Client) InstantAnswer(ctx context.Context, query string) (*Answer, error) {
	q, err := CheckQuery(query)
	if err != nil {
		return nil, err
	}
	a, err := cached(ctx, c.cache, &c.flight, "answer\x00"+q, func(ctx context.Context) (*Answer, error) {
		return c.instantAnswer(ctx, q)
	})
	if err != nil {
		return nil, err
	}
	return a.clone(), nil
}

// instantAnswer is InstantAnswer without the cache.
func (c *Client) instantAnswer(ctx context.Context, q string) (*Answer, error) {
	u := *c.apiURL
	params := u.Query()
	params.Set("q", q)
	params.Set("format", "json")
	params.Set("no_html", "1")
	params.Set("no_redirect", "1") // a !bang query answers with JSON, not a redirect
	params.Set("t", "websearch-mcp")
	u.RawQuery = params.Encode()
	resp, err := c.fetch(ctx, &u, nil, addressBar)
	if err != nil {
		return nil, err
	}
	if err := checkStatus(c.apiURL, resp); err != nil {
		return nil, err
	}
	return parseAnswer(resp.body)
}

// clone copies a so that callers may change it without touching the cache.
func (a *Answer) clone() *Answer {
	b := *a
	if a.Image != nil {
		img := *a.Image
		b.Image = &img
	}
	b.Infobox = slices.Clone(a.Infobox)
	b.Results = slices.Clone(a.Results)
	b.RelatedTopics = slices.Clone(a.RelatedTopics)
	return &b
}

// parseAnswer decodes a body of the Instant Answer API.
func parseAnswer(body []byte) (*Answer, error) {
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		if isChallengeBody(body) {
			return nil, &BlockedError{Endpoint: "the Instant Answer API"}
		}
		return nil, markupError("Instant Answer API", "answered with something other than a JSON object")
	}
	var raw apiAnswer
	if err := json.Unmarshal(trimmed, &raw); err != nil {
		return nil, markupError("Instant Answer API", "answered with JSON that could not be decoded: "+err.Error())
	}
	a := &Answer{
		Heading:    raw.Heading.String(),
		Type:       raw.Type.String(),
		Entity:     raw.Entity.String(),
		Abstract:   Summary{Text: fold(raw.AbstractText.String()), Source: raw.AbstractSource.String(), URL: raw.AbstractURL.String()},
		Answer:     fold(stripTags(raw.Answer.String())),
		AnswerType: raw.AnswerType.String(),
		Definition: Summary{Text: fold(raw.Definition.String()), Source: raw.DefinitionSource.String(), URL: raw.DefinitionURL.String()},
		Redirect:   raw.Redirect.String(),
		Infobox:    raw.Infobox.entries(),
	}
	if img := raw.Image.String(); img != "" {
		a.Image = &Image{URL: absolute(img), Width: raw.ImageWidth.Int(), Height: raw.ImageHeight.Int(), IsLogo: raw.ImageIsLogo.Int() == 1}
	}
	for _, r := range raw.Results {
		text := fold(r.Text.String())
		if text == "" {
			text = fold(stripTags(r.Result.String()))
		}
		if text == "" && r.FirstURL.String() == "" {
			continue
		}
		a.Results = append(a.Results, Link{Text: text, URL: r.FirstURL.String(), Icon: absolute(r.Icon.URL.String())})
	}
	var add func(ts []apiTopic, group string)
	add = func(ts []apiTopic, group string) {
		for _, t := range ts {
			if t.Topics != nil {
				add(t.Topics, fold(t.Name.String()))
				continue
			}
			if topic, ok := t.topic(group); ok {
				a.RelatedTopics = append(a.RelatedTopics, topic)
			}
		}
	}
	add(raw.RelatedTopics, "")
	return a, nil
}

// apiAnswer is the Instant Answer API's body. Its scalars are looseStrings
// and looseInts because DuckDuckGo types them loosely ("" for a missing
// number, numbers as strings, null).
type apiAnswer struct {
	Abstract         looseString
	AbstractText     looseString
	AbstractSource   looseString
	AbstractURL      looseString
	Answer           looseString
	AnswerType       looseString
	Definition       looseString
	DefinitionSource looseString
	DefinitionURL    looseString
	Entity           looseString
	Heading          looseString
	Image            looseString
	ImageHeight      looseInt
	ImageWidth       looseInt
	ImageIsLogo      looseInt
	Infobox          apiInfobox
	Redirect         looseString
	RelatedTopics    []apiTopic
	Results          []apiTopic
	Type             looseString
}

// apiTopic is a topic, or a group of topics ({Name, Topics}).
type apiTopic struct {
	FirstURL looseString
	Icon     apiIcon
	Result   looseString
	Text     looseString
	Name     looseString
	Topics   []apiTopic
}

// topic turns t into a Topic: its name is the text of the first link of its
// Result HTML, its description the rest of its text.
func (t apiTopic) topic(group string) (Topic, bool) {
	name, whole := splitResult(t.Result.String())
	raw := t.Text.String()
	txt := fold(raw)
	if txt == "" {
		raw, txt = whole, whole
	}
	if txt == "" && name == "" {
		return Topic{}, false
	}
	if name == "" {
		name = txt
	}
	desc := txt
	if rest, ok := strings.CutPrefix(txt, name); ok {
		desc = strings.TrimLeft(rest, " -–—,:;")
	}
	return Topic{
		Name:        name,
		Description: desc,
		Text:        raw,
		URL:         t.FirstURL.String(),
		Group:       group,
		Icon:        absolute(t.Icon.URL.String()),
	}, true
}

// splitResult returns the folded text of the first link of an HTML fragment,
// and the folded text of the whole fragment.
func splitResult(fragment string) (link, whole string) {
	var linkB, wholeB strings.Builder
	z := html.NewTokenizer(strings.NewReader(fragment))
	inLink, linkDone := false, false
	for {
		switch z.Next() {
		case html.ErrorToken:
			return fold(linkB.String()), fold(wholeB.String())
		case html.StartTagToken:
			if name, _ := z.TagName(); string(name) == "a" && !linkDone {
				inLink = true
			}
		case html.EndTagToken:
			if name, _ := z.TagName(); string(name) == "a" && inLink {
				inLink, linkDone = false, true
			}
		case html.TextToken:
			t := z.Text()
			wholeB.Write(t)
			if inLink {
				linkB.Write(t)
			}
		}
	}
}

// stripTags returns the text of an HTML fragment.
func stripTags(fragment string) string {
	if !strings.ContainsAny(fragment, "<&") {
		return fragment
	}
	_, whole := splitResult(fragment)
	return whole
}

// apiIcon is a topic's icon: an object with a URL, or "" when there is none.
type apiIcon struct{ URL looseString }

func (ic *apiIcon) UnmarshalJSON(b []byte) error {
	if len(b) == 0 || b[0] != '{' {
		return nil
	}
	var p struct{ URL looseString }
	if err := json.Unmarshal(b, &p); err != nil {
		return nil // an icon we cannot read is left out, not fatal
	}
	ic.URL = p.URL
	return nil
}

// apiInfobox is the Infobox field: "" or {"content": [{label, value}, …]}.
type apiInfobox struct {
	Content []struct {
		Label looseString
		Value json.RawMessage
	}
}

func (ib *apiInfobox) UnmarshalJSON(b []byte) error {
	if len(b) == 0 || b[0] != '{' {
		return nil // "" or null: no infobox
	}
	type plain apiInfobox
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return nil // an infobox we cannot read is left out, not fatal
	}
	*ib = apiInfobox(p)
	return nil
}

// entries keeps the infobox facts with a text or number value; values that
// are objects (Wikidata references) are left out.
func (ib apiInfobox) entries() []InfoboxEntry {
	var out []InfoboxEntry
	for _, c := range ib.Content {
		var v looseString
		if len(c.Value) == 0 || c.Value[0] == '{' || c.Value[0] == '[' || json.Unmarshal(c.Value, &v) != nil {
			continue
		}
		label, value := fold(c.Label.String()), fold(v.String())
		if label != "" && value != "" {
			out = append(out, InfoboxEntry{Label: label, Value: value})
		}
	}
	return out
}

// looseString decodes a JSON string, number or boolean as text, and null, an
// object or an array as "".
type looseString string

func (s *looseString) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case len(b) == 0:
	case b[0] == '"':
		var v string
		if err := json.Unmarshal(b, &v); err != nil {
			return err
		}
		*s = looseString(v)
	case b[0] == '{' || b[0] == '[' || string(b) == "null":
		*s = ""
	default: // a number or a boolean
		*s = looseString(b)
	}
	return nil
}

func (s looseString) String() string { return string(s) }

// looseInt decodes a JSON number, or a string holding one, as an int; "",
// null and anything else as 0.
type looseInt int

func (n *looseInt) UnmarshalJSON(b []byte) error {
	var s looseString
	if err := s.UnmarshalJSON(b); err != nil {
		return nil
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(string(s)), 64)
	if err != nil {
		*n = 0
		return nil
	}
	*n = looseInt(f)
	return nil
}

// Int returns n as an int.
func (n looseInt) Int() int { return int(n) }
