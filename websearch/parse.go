package websearch

import (
	"bytes"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/andybalholm/cascadia"
)

// pageKind says what a DuckDuckGo search page turned out to be.
type pageKind int

const (
	kindResults pageKind = iota + 1
	kindNoResults
	kindBlocked
)

// page is what a parser reads from one search page.
type page struct {
	kind    pageKind
	results []Result // organic results in page order, ads left out
	ads     int      // ads that were left out
	next    form     // the Next form's fields; nil on the last page
}

// Markers shared by the HTML and lite pages. Each page kind keeps its own
// selectors in its own file (html.go, lite.go); these are the ones both share.
var (
	// challenge finds DuckDuckGo's bot challenge ("anomaly") page.
	challenge = cascadia.MustCompile(`#challenge-form, form[action*="anomaly"], [class*="anomaly-modal"]`)
	// formTag, submitTag and namedInput find the Next form and its fields.
	formTag    = cascadia.MustCompile("form")
	submitTag  = cascadia.MustCompile(`input[type="submit"], button[type="submit"]`)
	namedInput = cascadia.MustCompile("input[name]")
	bodyTag    = cascadia.MustCompile("body")
)

// Words of the block pages, for when their markup changes: the address the
// one-line block page names, and the challenge's own title.
const (
	errorLiteMarker = "error-lite@duckduckgo.com"
	challengeWords  = "bots use DuckDuckGo too"
)

// noResultsText matches DuckDuckGo's notices of an empty page: "No results."
// and "No more results found for …".
var noResultsText = regexp.MustCompile(`(?i)\bno (more )?results\b`)

// isChallenge reports whether a document is DuckDuckGo's bot challenge or its
// one-line block body.
func isChallenge(doc *goquery.Document) bool {
	if doc.FindMatcher(challenge).Length() > 0 {
		return true
	}
	text := doc.Text()
	return strings.Contains(text, errorLiteMarker) || strings.Contains(text, challengeWords)
}

// isChallengeBody is isChallenge for a body that may not be a page at all,
// such as a 403's or the API's. It parses the body, so it is for error paths.
func isChallengeBody(body []byte) bool {
	doc, err := goquery.NewDocumentFromReader(bytes.NewReader(body))
	return err == nil && isChallenge(doc)
}

// classify finishes a parsed page: results if any, else a challenge, else a
// no-results notice found by sel or by its wording, else unexpected markup.
// unreadable counts result blocks whose title link could not be found.
func classify(doc *goquery.Document, p *page, noResults goquery.Matcher, unreadable int, pageName string) (*page, error) {
	switch {
	case len(p.results) > 0 || p.ads > 0:
		p.kind = kindResults
	case isChallenge(doc):
		p.kind = kindBlocked
	case unreadable > 0:
		return nil, markupError(pageName, "has result blocks without the title link the parser looks for")
	case doc.FindMatcher(noResults).Length() > 0 || noResultsText.MatchString(doc.FindMatcher(bodyTag).Text()):
		p.kind = kindNoResults
	default:
		return nil, markupError(pageName, "has no results, no 'no results' notice and no challenge")
	}
	return p, nil
}

// fold returns s with tags' text joined, white space (including no-break
// spaces) folded to single spaces and trimmed.
func fold(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// text is the folded text of a selection.
func text(s *goquery.Selection) string {
	return fold(s.Text())
}

// form is an HTML form's fields in document order, as a browser posts them.
type form []field

type field struct{ name, value string }

// set replaces the value of name, or appends the field when it is missing.
// An empty value removes the field.
func (f form) set(name, value string) form {
	out := f[:0:0]
	found := false
	for _, x := range f {
		if x.name == name {
			if found || value == "" {
				continue
			}
			x.value, found = value, true
		}
		out = append(out, x)
	}
	if !found && value != "" {
		out = append(out, field{name, value})
	}
	return out
}

// encode is the application/x-www-form-urlencoded body, in field order.
func (f form) encode() string {
	var b strings.Builder
	for i, x := range f {
		if i > 0 {
			b.WriteByte('&')
		}
		b.WriteString(url.QueryEscape(x.name))
		b.WriteByte('=')
		b.WriteString(url.QueryEscape(x.value))
	}
	return b.String()
}

// nextForm returns the fields of the form whose submit button reads "Next"
// (the HTML page's "Next", the lite page's "Next Page >"), or nil when the
// page has none. A "Previous" form beside it is ignored.
func nextForm(doc *goquery.Document) form {
	var next form
	doc.FindMatcher(formTag).EachWithBreak(func(_ int, f *goquery.Selection) bool {
		isNext := false
		f.FindMatcher(submitTag).Each(func(_ int, b *goquery.Selection) {
			label, _ := b.Attr("value")
			if label == "" {
				label = b.Text()
			}
			if strings.HasPrefix(strings.ToLower(strings.TrimSpace(label)), "next") {
				isNext = true
			}
		})
		if !isNext {
			return true
		}
		next = form{}
		f.FindMatcher(namedInput).Each(func(_ int, in *goquery.Selection) {
			if typ, _ := in.Attr("type"); strings.EqualFold(typ, "submit") {
				return
			}
			name, _ := in.Attr("name")
			value, _ := in.Attr("value")
			next = append(next, field{name, value})
		})
		return false
	})
	return next
}

// ddgBase resolves the protocol-relative and relative links of DuckDuckGo's
// pages (favicons, images).
var ddgBase = &url.URL{Scheme: "https", Host: "duckduckgo.com", Path: "/"}

// absolute resolves ref against https://duckduckgo.com/; "" stays "".
func absolute(ref string) string {
	ref = strings.TrimSpace(ref)
	if ref == "" {
		return ""
	}
	u, err := ddgBase.Parse(ref)
	if err != nil {
		return ""
	}
	return u.String()
}

// dateLayouts are the forms a result's date takes on DuckDuckGo's pages,
// such as "2026-02-10T06:46:00.0000000".
var dateLayouts = []string{
	"2006-01-02T15:04:05.9999999",
	time.RFC3339Nano,
	"2006-01-02",
}

// parseDate reads a result's date; the zero time when s is not a date.
func parseDate(s string) time.Time {
	s = fold(s)
	for _, layout := range dateLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t
		}
	}
	return time.Time{}
}
