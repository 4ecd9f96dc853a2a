package websearch

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// htmlResult is one result block in the HTML endpoint's markup.
func htmlResult(class, href, title, extras, snippet string) string {
	s := `<div class="result results_links results_links_deep ` + class + `"><div class="links_main links_deep result__body">
<h2 class="result__title"><a rel="nofollow" class="result__a" href="` + href + `">` + title + `</a></h2>
<div class="result__extras"><div class="result__extras__url">` + extras + `</div></div>`
	if snippet != "" {
		s += `<a class="result__snippet" href="` + href + `">` + snippet + `</a>`
	}
	return s + `<div class="clear"></div></div></div>`
}

func htmlPage(body string) string {
	return `<!DOCTYPE html><html><head><title>q at DuckDuckGo</title></head><body class="body--html">
<form name="x" class="header__form" action="/html/" method="post"><input name="q" type="text" value="q" /><input name="b" type="submit" value="" /></form>
<div class="serp__results"><div id="links" class="results">` + body + `</div></div></body></html>`
}

func navForm(label string, fields ...string) string {
	s := `<div class="nav-link"><form action="/html/" method="post"><input type="submit" class='btn btn--alt' value="` + label + `" />`
	for i := 0; i < len(fields); i += 2 {
		s += `<input type="hidden" name="` + fields[i] + `" value="` + fields[i+1] + `" />`
	}
	return s + `</form></div>`
}

func TestParseHTMLPage(t *testing.T) {
	t.Parallel()
	extras := `<span class="result__icon"><a href="#"><img class="result__icon__img" src="//external-content.duckduckgo.com/ip3/example.com.ico" /></a></span>
<a class="result__url" href="#"> example.com/a </a><span>&nbsp; &nbsp; 2026-03-04T05:06:00.0000000</span>`
	page := htmlPage(
		htmlResult("result--ad", "https://duckduckgo.com/y.js?ad_provider=x", "Buy things", "", "An ad") +
			htmlResult("", "//duckduckgo.com/l/?uddg=https%3A%2F%2Fduckduckgo.com%2Fy.js%3Fad_domain%3Dx", "Wrapped ad, no ad class", "", "ad") +
			htmlResult("", "https://ads.example.com/", `Badge ad <button class="badge--ad">Ad</button>`, "", "ad") +
			htmlResult("web-result", "//duckduckgo.com/l/?uddg=https%3A%2F%2Fexample.com%2Fa&amp;rut=00", "Example &amp; <b>A</b>\n  page", extras, "First  <b>snippet</b>\n line") +
			htmlResult("web-result", "https://example.org/", "No snippet", "", "") +
			htmlResult("web-result", "javascript:void(0)", "Unusable link", "", "dropped") +
			navForm("Previous", "q", "q", "s", "0") +
			navForm("Next", "q", "q", "s", "10", "nextParams", "", "vqd", "4-1", "kl", "wt-wt"))

	p, err := parseHTMLPage(strings.NewReader(page))
	require.NoError(t, err)
	assert.Equal(t, kindResults, p.kind)
	assert.Equal(t, 3, p.ads)
	require.Len(t, p.results, 2)
	assert.Equal(t, Result{
		Title:      "Example & A page",
		URL:        "https://example.com/a",
		Snippet:    "First snippet line",
		DisplayURL: "example.com/a",
		Favicon:    "https://external-content.duckduckgo.com/ip3/example.com.ico",
		Date:       time.Date(2026, 3, 4, 5, 6, 0, 0, time.UTC),
	}, p.results[0])
	assert.Equal(t, Result{Title: "No snippet", URL: "https://example.org/"}, p.results[1])
	assert.Equal(t, form{{"q", "q"}, {"s", "10"}, {"nextParams", ""}, {"vqd", "4-1"}, {"kl", "wt-wt"}}, p.next, "the Next form, not the Previous one")
}

func TestParseHTMLPageKinds(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		page    string
		want    pageKind
		wantErr error
	}{
		{"old no-results notice", htmlPage(`<div class="no-results">No results.</div>`), kindNoResults, nil},
		{"no more results", htmlPage(`<div class="result result--no-result"><h1>No more results found for <strong>q</strong></h1></div>`), kindNoResults, nil},
		{"notice by wording alone", htmlPage(`<p>No results found for <strong>q</strong>.</p>`), kindNoResults, nil},
		{"challenge", `<html><body><form id="challenge-form" action="//duckduckgo.com/anomaly.js?sv=html"></form></body></html>`, kindBlocked, nil},
		{"anomaly modal", `<html><body><div class="anomaly-modal__modal">Unfortunately, bots use DuckDuckGo too.</div></body></html>`, kindBlocked, nil},
		{"error-lite line", "If this error persists, please let us know: error-lite@duckduckgo.com\n", kindBlocked, nil},
		{"challenge by its words", `<html><body><div class="captcha-box"><h2>Unfortunately, bots use DuckDuckGo too.</h2></div></body></html>`, kindBlocked, nil},
		{"renamed title link", htmlPage(`<div class="result web-result"><h2><a class="result__link" href="https://example.com/">Title</a></h2></div>`), 0, ErrUnexpectedMarkup},
		{"empty body", "", 0, ErrUnexpectedMarkup},
		{"some other page", `<html><body><h1>Welcome to nginx!</h1></body></html>`, 0, ErrUnexpectedMarkup},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p, err := parseHTMLPage(strings.NewReader(tc.page))
			if tc.wantErr != nil {
				require.ErrorIs(t, err, tc.wantErr)
				assert.Contains(t, err.Error(), "CONTRIBUTING.md")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, p.kind)
			assert.Empty(t, p.results)
		})
	}
}

func TestParseLitePage(t *testing.T) {
	t.Parallel()
	row := func(n, class, href, title, snippet, display string) string {
		s := `<tr class="` + class + `"><td valign="top">` + n + `.&nbsp;</td><td><a rel="nofollow" href="` + href + `" class='result-link'>` + title + `</a></td></tr>`
		if snippet != "" {
			s += `<tr class="` + class + `"><td>&nbsp;</td><td class='result-snippet'>` + snippet + `</td></tr>`
		}
		return s + `<tr class="` + class + `"><td>&nbsp;</td><td><span class='link-text'>` + display + `</span>` +
			`<span class='timestamp'>2026-01-02</span></td></tr><tr><td>&nbsp;</td><td>&nbsp;</td></tr>`
	}
	page := `<html><body><form action="/lite/" method="post"><input name="q" value="q"><input class='submit' type="submit" value="Search"></form>
<table border="0">` +
		row("", "result-sponsored", "https://duckduckgo.com/y.js?ad_provider=x", "Sponsored", "buy", "ads.example.com") +
		`<tr><td>&nbsp;</td><td class="result-sponsored"><a class="result-link" href="https://ads.example.net/">Cell-marked ad</a></td></tr>` +
		row("1", "", "//duckduckgo.com/l/?uddg=https%3A%2F%2Fexample.com%2F&amp;rut=1", "Example <b>one</b>", "First\n snippet", "example.com") +
		row("2", "", "https://example.org/two", "Two", "", "example.org/two") +
		`<tr><td colspan=2><form class="next_form" action="/lite/" method="post"><input type="submit" class='navbutton' value="Next Page &gt;">
<input type="hidden" name="q" value="q"><input type="hidden" name="s" value="10"><input name="kl" value="wt-wt" type="hidden"></form></td></tr>
</table></body></html>`

	p, err := parseLitePage(strings.NewReader(page))
	require.NoError(t, err)
	assert.Equal(t, kindResults, p.kind)
	assert.Equal(t, 2, p.ads, "a sponsored row, and a row with a sponsored cell")
	day := time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)
	assert.Equal(t, []Result{
		{Title: "Example one", URL: "https://example.com/", Snippet: "First snippet", DisplayURL: "example.com", Date: day},
		{Title: "Two", URL: "https://example.org/two", DisplayURL: "example.org/two", Date: day},
	}, p.results)
	assert.Equal(t, form{{"q", "q"}, {"s", "10"}, {"kl", "wt-wt"}}, p.next)

	p, err = parseLitePage(strings.NewReader(`<html><body><table><tr><td>No results.</td></tr></table></body></html>`))
	require.NoError(t, err)
	assert.Equal(t, kindNoResults, p.kind)

	_, err = parseLitePage(strings.NewReader(`<html><body><table><tr><td>Something else</td></tr></table></body></html>`))
	require.ErrorIs(t, err, ErrUnexpectedMarkup)
}

func TestForm(t *testing.T) {
	t.Parallel()
	f := form{{"q", "a b&c"}, {"b", ""}, {"df", "w"}}
	assert.Equal(t, "q=a+b%26c&b=&df=w", f.encode())
	assert.Equal(t, form{{"q", "a b&c"}, {"b", ""}, {"kp", "-1"}}, f.set("df", "").set("kp", "-1"))
	assert.Equal(t, form{{"q", "a b&c"}, {"b", ""}, {"df", "m"}}, f.set("df", "m"))
	assert.Equal(t, form{{"q", "a b&c"}, {"b", ""}, {"df", "w"}}, f, "set leaves the original form alone")
}
