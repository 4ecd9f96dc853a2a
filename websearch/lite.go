package websearch

import (
	"io"

	"github.com/PuerkitoBio/goquery"
	"github.com/andybalholm/cascadia"
)

// Selectors of the result page of https://lite.duckduckgo.com/lite/: a table
// whose rows carry, for each result, its link, its snippet and its displayed
// URL. When DuckDuckGo changes this page, this block is what changes.
var (
	// liteRow is a table row; results are read row by row.
	liteRow = cascadia.MustCompile("tr")
	// liteLink is a result's title link; its row starts a result.
	liteLink = cascadia.MustCompile("a.result-link")
	// liteSnippet is the snippet cell, in a row after the link's.
	liteSnippet = cascadia.MustCompile("td.result-snippet")
	// liteDisplayURL is the URL as DuckDuckGo displays it.
	liteDisplayURL = cascadia.MustCompile("span.link-text")
	// liteDate is the date shown beside the displayed URL, when there is one.
	liteDate = cascadia.MustCompile("span.timestamp")
	// liteAdRow marks the rows of a sponsored result.
	liteAdRow = cascadia.MustCompile(".result-sponsored")
	// liteNoResult marks the "No results." notice.
	liteNoResult = cascadia.MustCompile(".no-results")
)

// sponsored reports whether a row, or a cell of it, is marked sponsored.
func sponsored(row *goquery.Selection) bool {
	return row.IsMatcher(liteAdRow) || row.FindMatcher(liteAdRow).Length() > 0
}

// parseLitePage reads a result page of the lite endpoint.
func parseLitePage(r io.Reader) (*page, error) {
	doc, err := goquery.NewDocumentFromReader(r)
	if err != nil {
		return nil, markupError("lite result page", "could not be parsed as HTML: "+err.Error())
	}
	p := &page{}
	var cur *Result
	curAd := false
	flush := func() {
		switch {
		case cur == nil:
		case curAd:
			p.ads++
		case cur.URL != "":
			p.results = append(p.results, *cur)
		}
		cur, curAd = nil, false
	}
	doc.FindMatcher(liteRow).Each(func(_ int, row *goquery.Selection) {
		if row.FindMatcher(liteRow).Length() > 0 {
			return // a layout row around a nested table: its own rows come next
		}
		if a := row.FindMatcher(liteLink).First(); a.Length() > 0 {
			flush()
			href, _ := a.Attr("href")
			l := resolveLink(href)
			cur = &Result{Title: text(a), URL: l.url}
			curAd = l.ad || sponsored(row)
			return
		}
		if cur == nil {
			return
		}
		if sponsored(row) {
			curAd = true
		}
		if s := row.FindMatcher(liteSnippet); s.Length() > 0 && cur.Snippet == "" {
			cur.Snippet = text(s.First())
		}
		if s := row.FindMatcher(liteDisplayURL); s.Length() > 0 && cur.DisplayURL == "" {
			cur.DisplayURL = text(s.First())
		}
		if s := row.FindMatcher(liteDate); s.Length() > 0 && cur.Date.IsZero() {
			cur.Date = parseDate(s.First().Text())
		}
	})
	flush()
	p.next = nextForm(doc)
	return classify(doc, p, liteNoResult, 0, "lite result page")
}
