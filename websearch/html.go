package websearch

import (
	"io"

	"github.com/PuerkitoBio/goquery"
	"github.com/andybalholm/cascadia"
)

// Selectors of the result page of https://html.duckduckgo.com/html/, the
// same from the 2020 template to the 2026 one. When DuckDuckGo changes this
// page, this block is what changes.
var (
	// htmlTitle is a result's title link; every result has one.
	htmlTitle = cascadia.MustCompile("a.result__a")
	// htmlBlock is the block around one result (or one ad).
	htmlBlock = cascadia.MustCompile("div.result")
	// htmlBody is the inner block, used when the outer one is missing.
	htmlBody = cascadia.MustCompile(".result__body")
	// htmlAd marks an ad block, or the "Ad" badge inside one.
	htmlAd = cascadia.MustCompile(".result--ad, .badge--ad")
	// htmlSnippet is the snippet, a link or a div.
	htmlSnippet = cascadia.MustCompile(".result__snippet")
	// htmlDisplayURL is the URL as DuckDuckGo displays it.
	htmlDisplayURL = cascadia.MustCompile(".result__url")
	// htmlIcon is the site's favicon.
	htmlIcon = cascadia.MustCompile("img.result__icon__img")
	// htmlDate is the date beside the displayed URL, when there is one.
	htmlDate = cascadia.MustCompile(".result__extras__url > span:not(.result__icon)")
	// htmlNoResult marks the "No results." and "No more results found" notices.
	htmlNoResult = cascadia.MustCompile(".no-results, .result--no-result")
	// htmlNotResult marks blocks that are not results at all.
	htmlNotResult = cascadia.MustCompile(".result--no-result, .result--more")
)

// parseHTMLPage reads a result page of the HTML endpoint.
func parseHTMLPage(r io.Reader) (*page, error) {
	doc, err := goquery.NewDocumentFromReader(r)
	if err != nil {
		return nil, markupError("HTML result page", "could not be parsed as HTML: "+err.Error())
	}
	p := &page{}
	titles := 0
	doc.FindMatcher(htmlTitle).Each(func(_ int, a *goquery.Selection) {
		titles++
		block := a.ClosestMatcher(htmlBlock)
		if block.Length() == 0 {
			block = a.ClosestMatcher(htmlBody)
		}
		if block.Length() == 0 {
			block = a.Parent().Parent()
		}
		href, _ := a.Attr("href")
		l := resolveLink(href)
		if l.ad || block.IsMatcher(htmlAd) || block.FindMatcher(htmlAd).Length() > 0 {
			p.ads++
			return
		}
		if l.url == "" {
			return
		}
		res := Result{
			Title:      text(a),
			URL:        l.url,
			Snippet:    text(block.FindMatcher(htmlSnippet).First()),
			DisplayURL: text(block.FindMatcher(htmlDisplayURL).First()),
			Date:       parseDate(block.FindMatcher(htmlDate).First().Text()),
		}
		if src, ok := block.FindMatcher(htmlIcon).First().Attr("src"); ok {
			res.Favicon = absolute(src)
		}
		p.results = append(p.results, res)
	})
	p.next = nextForm(doc)
	unreadable := 0
	if titles == 0 {
		unreadable = doc.FindMatcher(htmlBlock).NotMatcher(htmlNotResult).Length()
	}
	return classify(doc, p, htmlNoResult, unreadable, "HTML result page")
}
