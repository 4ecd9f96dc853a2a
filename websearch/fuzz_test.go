package websearch

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

// Seeds of the fuzz targets: the bodies of the recordings, and the real
// pages of the corpus when it is beside the repository.

// recordedBodies returns the response bodies of every cassette whose
// request URL contains host.
func recordedBodies(f *testing.F, host string) [][]byte {
	f.Helper()
	names, err := filepath.Glob(filepath.Join("..", "recordings", "*.yaml"))
	if err != nil {
		f.Fatal(err)
	}
	var out [][]byte
	for _, name := range names {
		c, err := cassette.Load(strings.TrimSuffix(name, ".yaml"))
		if err != nil {
			f.Fatalf("loading %s: %v", name, err)
		}
		for _, i := range c.Interactions {
			if strings.Contains(i.Request.URL, host) {
				out = append(out, []byte(i.Response.Body))
			}
		}
	}
	return out
}

// corpusBodies returns the corpus files matching pattern (such as
// "html/*.html"), or none when the corpus is absent.
func corpusBodies(f *testing.F, pattern string) [][]byte {
	f.Helper()
	dir := os.Getenv("WEBSEARCH_CORPUS")
	if dir == "" {
		dir = filepath.Join("..", "..", "shared", "ddg-corpus")
	}
	names, _ := filepath.Glob(filepath.Join(dir, pattern))
	var out [][]byte
	for _, name := range names {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

// checkParsedPage holds what any parsed page must satisfy, whatever its input.
func checkParsedPage(t *testing.T, p *page, err error) {
	if err != nil {
		return
	}
	for _, r := range p.results {
		if !strings.HasPrefix(r.URL, "http://") && !strings.HasPrefix(r.URL, "https://") {
			t.Fatalf("result URL %q is not http(s)", r.URL)
		}
		if l := resolveLink(r.URL); l.ad {
			t.Fatalf("an ad came out as a result: %q", r.URL)
		}
	}
	if p.kind != kindResults && len(p.results) > 0 {
		t.Fatalf("a page of kind %d has %d results", p.kind, len(p.results))
	}
}

func FuzzParseHTMLPage(f *testing.F) {
	for _, b := range append(recordedBodies(f, "html.duckduckgo.com"), corpusBodies(f, "html/*.html")...) {
		f.Add(b)
	}
	for _, b := range corpusBodies(f, "blocked/*.html") {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		p, err := parseHTMLPage(bytes.NewReader(body))
		checkParsedPage(t, p, err)
	})
}

func FuzzParseLitePage(f *testing.F) {
	for _, b := range append(recordedBodies(f, "lite.duckduckgo.com"), corpusBodies(f, "lite/*.html")...) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		p, err := parseLitePage(bytes.NewReader(body))
		checkParsedPage(t, p, err)
	})
}

func FuzzParseAnswer(f *testing.F) {
	for _, b := range append(recordedBodies(f, "api.duckduckgo.com"), corpusBodies(f, "api/*.json")...) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		a, err := parseAnswer(body)
		if err != nil {
			return
		}
		for _, topic := range a.RelatedTopics {
			if topic.Name == "" {
				t.Fatalf("a topic without a name: %+v", topic)
			}
		}
		if a.Image != nil && a.Image.URL == "" {
			t.Fatal("an image without a URL")
		}
	})
}

func FuzzResolveLink(f *testing.F) {
	for _, s := range []string{
		"//duckduckgo.com/l/?uddg=https%3A%2F%2Fgo.dev%2F&rut=abc",
		"/l/?kh=-1&uddg=https%3A%2F%2Fexample.com%2Fa%3Fb%3Dc",
		"https://duckduckgo.com/l/?kh=-1&uddg=http%3A%2F%2Fexample.org%2F",
		"https://duckduckgo.com/y.js?ad_provider=x",
		"//duckduckgo.com/l/?uddg=https%3A%2F%2Fduckduckgo.com%2Fy.js%3Fad_domain%3Dx",
		"https://en.wikipedia.org/wiki/Rust_(programming_language)",
		"javascript:alert(1)", "http://[::1", "",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, href string) {
		l := resolveLink(href)
		if l.ad && l.url != "" {
			t.Fatalf("%q is both an ad and a result", href)
		}
		if l.url == "" {
			return
		}
		if !strings.HasPrefix(l.url, "http://") && !strings.HasPrefix(l.url, "https://") {
			t.Fatalf("%q gave a URL that is not http(s): %q", href, l.url)
		}
		if again := resolveLink(l.url); again.url != l.url && !again.ad {
			// A destination is itself a direct link: resolving it again keeps it,
			// unless it is itself a DuckDuckGo redirect (then it is unwrapped
			// once more, which a browser would do too).
			if !strings.Contains(l.url, "duckduckgo.com") {
				t.Fatalf("%q resolved to %q, which resolves to %q", href, l.url, again.url)
			}
		}
	})
}
