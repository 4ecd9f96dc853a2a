package websearch

import (
	"net/url"
	"strings"
)

// link is what a result's href turns out to be.
type link struct {
	url string // the destination, unwrapped; "" when the href is unusable
	ad  bool   // the href leads to DuckDuckGo's ad click counter (y.js)
}

// resolveLink unwraps DuckDuckGo's click redirect in all its forms:
//
//	//duckduckgo.com/l/?uddg=https%3A%2F%2Fexample.com%2F&rut=…
//	/l/?uddg=…
//	https://duckduckgo.com/l/?kh=-1&uddg=…
//
// The uddg parameter is decoded exactly once, as a browser would. Direct links
// are kept as they are. Ads, whose links go through https://duckduckgo.com/y.js
// (directly or inside a redirect), are marked. A href that is malformed, that
// has no destination, or whose destination is not http or https, yields "".
func resolveLink(href string) link {
	raw := strings.TrimSpace(href)
	u, err := url.Parse(raw)
	if err != nil {
		return link{}
	}
	if isDDG(u) && (u.Path == "/l/" || u.Path == "/l") {
		raw = u.Query().Get("uddg")
		if raw == "" {
			return link{}
		}
		if u, err = url.Parse(raw); err != nil {
			return link{}
		}
	}
	if isDDG(u) && u.Path == "/y.js" {
		return link{ad: true}
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return link{}
	}
	// The scheme is case-insensitive; give it in lower case, as browsers do.
	return link{url: u.Scheme + raw[len(u.Scheme):]}
}

// isDDG reports whether u points at DuckDuckGo itself: a relative link on
// its page, or one to duckduckgo.com or a subdomain of it.
func isDDG(u *url.URL) bool {
	if u.Host == "" {
		return u.Scheme == ""
	}
	h := strings.ToLower(u.Hostname())
	return h == "duckduckgo.com" || strings.HasSuffix(h, ".duckduckgo.com")
}
