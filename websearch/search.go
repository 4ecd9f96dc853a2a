package websearch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html/charset"
)

// Limits of a search.
const (
	// MaxQueryLength is the longest query, in characters after trimming, that
	// DuckDuckGo accepts.
	MaxQueryLength = 500
	// DefaultMaxResults is the number of results a search returns when
	// SearchOptions.MaxResults is zero.
	DefaultMaxResults = 10
	// MaxMaxResults is the largest SearchOptions.MaxResults: DuckDuckGo's
	// pages are followed until that many distinct results are found.
	MaxMaxResults = 100
)

// Result is one organic search result. Ads are never returned.
type Result struct {
	// Title is the result's title, as plain text.
	Title string `json:"title"`
	// URL is the destination, with DuckDuckGo's click redirect removed.
	URL string `json:"url"`
	// Snippet is the text DuckDuckGo shows under the title; it may be empty.
	Snippet string `json:"snippet,omitempty"`
	// DisplayURL is the URL as DuckDuckGo shows it, such as
	// "en.wikipedia.org/wiki/Go_(programming_language)"; it may be empty.
	DisplayURL string `json:"display_url,omitempty"`
	// Favicon is the absolute URL of the site's icon on DuckDuckGo's icon
	// proxy; empty when the page shows none (the lite page never does).
	Favicon string `json:"favicon,omitempty"`
	// Date is the publication date DuckDuckGo shows for some results; the
	// zero time when it shows none.
	Date time.Time `json:"date,omitzero"`
}

// SafeSearch is DuckDuckGo's adult-content filter.
type SafeSearch int

// SafeSearch levels. The zero value is DuckDuckGo's own default, moderate.
const (
	SafeSearchModerate SafeSearch = iota
	SafeSearchStrict
	SafeSearchOff
)

// String returns "moderate", "strict" or "off".
func (s SafeSearch) String() string {
	switch s {
	case SafeSearchModerate:
		return "moderate"
	case SafeSearchStrict:
		return "strict"
	case SafeSearchOff:
		return "off"
	}
	return fmt.Sprintf("SafeSearch(%d)", int(s))
}

// kp is the value of DuckDuckGo's kp parameter for s.
func (s SafeSearch) kp() string {
	switch s {
	case SafeSearchStrict:
		return "1"
	case SafeSearchOff:
		return "-2"
	}
	return "-1"
}

// ParseSafeSearch reads "strict", "moderate" or "off" (in any case).
func ParseSafeSearch(s string) (SafeSearch, error) {
	for _, v := range []SafeSearch{SafeSearchModerate, SafeSearchStrict, SafeSearchOff} {
		if strings.EqualFold(s, v.String()) {
			return v, nil
		}
	}
	return 0, invalidf("safe search must be strict, moderate or off (got %q)", s)
}

// TimeRange limits results to those DuckDuckGo dates within the past day,
// week, month or year.
type TimeRange string

// TimeRange values. The zero value, AnyTime, sets no limit.
const (
	AnyTime   TimeRange = ""
	PastDay   TimeRange = "d"
	PastWeek  TimeRange = "w"
	PastMonth TimeRange = "m"
	PastYear  TimeRange = "y"
)

var timeRangeNames = map[string]TimeRange{
	"": AnyTime, "any": AnyTime,
	"day": PastDay, "d": PastDay,
	"week": PastWeek, "w": PastWeek,
	"month": PastMonth, "m": PastMonth,
	"year": PastYear, "y": PastYear,
}

// ParseTimeRange reads "day", "week", "month", "year" (or d, w, m, y), and
// "any" or "" for no limit.
func ParseTimeRange(s string) (TimeRange, error) {
	if t, ok := timeRangeNames[strings.ToLower(s)]; ok {
		return t, nil
	}
	return "", invalidf("time range must be day, week, month, year or any (got %q)", s)
}

// SearchOptions tunes a search. A nil *SearchOptions means the defaults
// documented on each field.
type SearchOptions struct {
	// MaxResults is how many results to return at most, from 1 to
	// MaxMaxResults; fewer come back only when DuckDuckGo has no more.
	// Zero means DefaultMaxResults.
	MaxResults int

	// Region is DuckDuckGo's region code (its kl parameter), such as
	// "us-en", "jp-jp" or "wt-wt". Empty means all regions.
	Region string

	// SafeSearch filters adult content. The zero value is moderate.
	SafeSearch SafeSearch

	// TimeRange limits results by date. The zero value, AnyTime, sets no limit.
	TimeRange TimeRange

	// OnPage, when not nil, is called after each page DuckDuckGo serves for
	// the search, with the page's number (from 1) and the count of results
	// gathered so far, for progress reports. It is not called for an answer
	// from the cache, nor for a search that shares the request of an
	// identical one in flight.
	OnPage func(page, results int)
}

var regionCode = regexp.MustCompile(`^[a-z]{2}-[a-z]{2,3}$`)

// Validate reports an ErrInvalidInput error, in words meant for an end
// user, when a field is out of its range. Search calls it; callers that take
// options from users, such as a command line, can call it up front.
func (o *SearchOptions) Validate() error {
	_, err := o.withDefaults()
	return err
}

// withDefaults checks o and fills in its defaults.
func (o *SearchOptions) withDefaults() (SearchOptions, error) {
	var v SearchOptions
	if o != nil {
		v = *o
	}
	switch {
	case v.MaxResults == 0:
		v.MaxResults = DefaultMaxResults
	case v.MaxResults < 0 || v.MaxResults > MaxMaxResults:
		return v, invalidf("max results must be from 1 to %d (got %d)", MaxMaxResults, v.MaxResults)
	}
	v.Region = strings.ToLower(strings.TrimSpace(v.Region))
	if v.Region != "" && !regionCode.MatchString(v.Region) {
		return v, invalidf("region must be a DuckDuckGo region code such as us-en or jp-jp (got %q)", v.Region)
	}
	if v.SafeSearch < SafeSearchModerate || v.SafeSearch > SafeSearchOff {
		return v, invalidf("safe search must be strict, moderate or off (got %d)", int(v.SafeSearch))
	}
	if _, err := ParseTimeRange(string(v.TimeRange)); err != nil {
		return v, err
	}
	return v, nil
}

// CheckQuery returns query trimmed of surrounding white space, or an
// ErrInvalidInput error when it is empty, longer than MaxQueryLength
// characters, or holds a control character (a tab or a line break included).
// Search and InstantAnswer check their query this way.
func CheckQuery(query string) (string, error) {
	q := strings.TrimSpace(query)
	if q == "" {
		return "", invalidf("query must not be empty")
	}
	if !utf8.ValidString(q) {
		return "", invalidf("query must be valid UTF-8 text")
	}
	if n := utf8.RuneCountInString(q); n > MaxQueryLength {
		return "", invalidf("query must be at most %d characters (got %d)", MaxQueryLength, n)
	}
	for i, r := range []rune(q) {
		if unicode.IsControl(r) {
			return "", invalidf("query must not contain control characters such as tabs or line breaks (found %U at character %d)", r, i+1)
		}
	}
	return q, nil
}

// maxPages bounds the pages one search follows, whatever DuckDuckGo offers.
const maxPages = 12

// Search returns up to opts.MaxResults organic results for query from
// DuckDuckGo's HTML endpoint, following its Next pages as needed. A URL
// never appears twice, and ads are left out. When the HTML endpoint answers
// with its bot challenge, the search goes on once on the lite endpoint.
// Answers are cached for a while, and identical searches in flight at the
// same time share their requests (see ClientOptions).
//
// A query with no results yields an empty slice and a nil error. Errors:
// ErrInvalidInput for a bad query or option; a *BlockedError (ErrBlocked)
// when DuckDuckGo answers with its bot challenge on both endpoints, or
// while the cool-down after such a block lasts; ErrUnexpectedMarkup when a
// page cannot be read; a *StatusError for any other non-2xx status that
// retries did not cure; ErrResponseTooLarge; and the context's error (or
// context.DeadlineExceeded for the per-request timeout) when time runs out.
func (c *Client) Search(ctx context.Context, query string, opts *SearchOptions) ([]Result, error) {
	q, err := CheckQuery(query)
	if err != nil {
		return nil, err
	}
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	key := fmt.Sprintf("search\x00%s\x00%d\x00%s\x00%d\x00%s", q, o.MaxResults, o.Region, o.SafeSearch, o.TimeRange)
	results, err := cached(ctx, c.cache, &c.flight, key, func(ctx context.Context) ([]Result, error) {
		return c.search(ctx, q, o)
	})
	return slices.Clone(results), err
}

// search is Search without the cache.
func (c *Client) search(ctx context.Context, q string, o SearchOptions) ([]Result, error) {
	if wait := c.cool.remaining(); wait > 0 {
		return nil, &BlockedError{Wait: wait}
	}
	f := form{{"q", q}, {"b", ""}, {"kl", o.Region}, {"df", string(o.TimeRange)}, {"kp", o.SafeSearch.kp()}}
	endpoint, parse, onLite := c.htmlURL, parseHTMLPage, false

	results := []Result{}
	seen := make(map[string]bool)
	for n := 1; n <= maxPages; n++ {
		p, err := c.searchPage(ctx, endpoint, f, parse)
		if errors.Is(err, ErrBlocked) && !onLite {
			// The lite endpoint takes the same fields, the Next form's too.
			endpoint, parse, onLite = c.liteURL, parseLitePage, true
			p, err = c.searchPage(ctx, endpoint, f, parse)
		}
		var blocked *BlockedError
		if errors.As(err, &blocked) {
			blocked.Wait = c.cool.trip()
		}
		if err != nil {
			if n > 1 {
				return nil, fmt.Errorf("page %d: %w", n, err)
			}
			return nil, err
		}
		c.cool.reset()
		added := 0
		for _, r := range p.results {
			if seen[r.URL] || len(results) == o.MaxResults {
				continue
			}
			seen[r.URL] = true
			results = append(results, r)
			added++
		}
		if o.OnPage != nil {
			o.OnPage(n, len(results))
		}
		if len(results) >= o.MaxResults || p.next == nil || added == 0 {
			break
		}
		// Post the Next form as DuckDuckGo wrote it, with our filters added
		// back: the form carries the region but not the time range or kp.
		f = p.next.set("df", string(o.TimeRange)).set("kp", o.SafeSearch.kp())
	}
	return results, nil
}

// searchPage posts f to a search endpoint and reads the page with parse,
// decoded to UTF-8 from the charset it declares.
func (c *Client) searchPage(ctx context.Context, endpoint *url.URL, f form, parse func(io.Reader) (*page, error)) (*page, error) {
	resp, err := c.fetch(ctx, endpoint, f, formPost)
	if err != nil {
		return nil, err
	}
	if err := checkStatus(endpoint, resp); err != nil {
		return nil, err
	}
	body, err := charset.NewReader(bytes.NewReader(resp.body), resp.header.Get("Content-Type"))
	if err != nil {
		return nil, markupError("page of "+endpointName(endpoint), "is in a charset that cannot be decoded: "+err.Error())
	}
	p, err := parse(body)
	if err != nil {
		return nil, err
	}
	if p.kind == kindBlocked {
		return nil, &BlockedError{Endpoint: endpointName(endpoint)}
	}
	return p, nil
}
