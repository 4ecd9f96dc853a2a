package websearch

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestResolveLink(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, href string
		want       link
	}{
		{"scheme-relative redirect", "//duckduckgo.com/l/?uddg=https%3A%2F%2Fgo.dev%2Fdoc%2F&rut=abc123", link{url: "https://go.dev/doc/"}},
		{"relative redirect", "/l/?kh=-1&uddg=https%3A%2F%2Fexample.com%2Fa%3Fb%3Dc", link{url: "https://example.com/a?b=c"}},
		{"absolute redirect", "https://duckduckgo.com/l/?kh=-1&uddg=http%3A%2F%2Fexample.org%2F", link{url: "http://example.org/"}},
		{"redirect without trailing slash", "https://duckduckgo.com/l?uddg=https%3A%2F%2Fexample.org%2F", link{url: "https://example.org/"}},
		{"subdomain redirect", "https://html.duckduckgo.com/l/?uddg=https%3A%2F%2Fexample.org%2F", link{url: "https://example.org/"}},
		{"decoded exactly once", "//duckduckgo.com/l/?uddg=https%3A%2F%2Fexample.com%2Fsearch%3Fq%3Dgo%2520channels", link{url: "https://example.com/search?q=go%20channels"}},
		{"double-encoded destination is not a URL", "//duckduckgo.com/l/?uddg=https%253A%252F%252Fexample.com%252F", link{}},
		{"uddg missing", "//duckduckgo.com/l/?rut=abc", link{}},
		{"uddg empty", "/l/?uddg=&rut=abc", link{}},
		{"direct link kept as it is", "https://en.wikipedia.org/wiki/Rust_(programming_language)", link{url: "https://en.wikipedia.org/wiki/Rust_(programming_language)"}},
		{"direct link with query kept", "https://example.com/a?x=1&y=%20", link{url: "https://example.com/a?x=1&y=%20"}},
		{"surrounding space trimmed", "  https://example.com/  ", link{url: "https://example.com/"}},
		{"link to duckduckgo.com itself is a result", "https://duckduckgo.com/", link{url: "https://duckduckgo.com/"}},
		{"direct ad", "https://duckduckgo.com/y.js?ad_provider=bingv7aa&u3=x", link{ad: true}},
		{"wrapped ad", "//duckduckgo.com/l/?uddg=https%3A%2F%2Fduckduckgo.com%2Fy.js%3Fad_domain%3Dexample.com", link{ad: true}},
		{"relative ad", "/y.js?ad_provider=x", link{ad: true}},
		{"not y.js elsewhere", "https://example.com/y.js", link{url: "https://example.com/y.js"}},
		{"malformed URL", "http://[::1", link{}},
		{"malformed destination", "/l/?uddg=http%3A%2F%2F%5B%3A%3A1", link{}},
		{"javascript scheme dropped", "javascript:alert(1)", link{}},
		{"ftp scheme dropped", "/l/?uddg=ftp%3A%2F%2Fexample.com%2Ffile", link{}},
		{"mailto dropped", "mailto:someone@example.com", link{}},
		{"relative non-redirect dropped", "/html/?q=go", link{}},
		{"scheme in upper case", "HTTPS://Example.com/A", link{url: "https://Example.com/A"}},
		{"wrapped scheme in mixed case", "/l/?uddg=hTtP%3A%2F%2Fexample.com%2F", link{url: "http://example.com/"}},
		{"empty", "", link{}},
		{"no host", "https:///path", link{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, resolveLink(tc.href))
		})
	}
}
