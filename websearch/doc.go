// Package websearch searches the web through DuckDuckGo, with no API key.
//
// [Client.Search] reads DuckDuckGo's HTML result pages
// (https://html.duckduckgo.com/html/) into typed results, following the
// Next pages as needed, with DuckDuckGo's click redirects removed and its ads
// left out. [Client.InstantAnswer] asks DuckDuckGo's Instant Answer API
// (https://api.duckduckgo.com/) and decodes its loosely typed JSON into an
// [Answer]. The package-level [Search] and [InstantAnswer] use a Client with
// the default options.
//
// Failures are reported with sentinel errors to be checked with [errors.Is]
// ([ErrBlocked] when DuckDuckGo serves its bot challenge, [ErrUnexpectedMarkup]
// when a page cannot be read, [ErrInvalidInput] for a bad query or option) and
// with [*StatusError] for other HTTP statuses.
package websearch
