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
// A Client treats DuckDuckGo as a patient browser would: it speaks TLS and
// HTTP/2 like Chrome (see [NewTransport]), keeps a minimum interval between
// its requests, retries transient failures, falls back to the lite endpoint
// when the HTML one serves its bot challenge, pauses after a block, and
// caches answers. [ClientOptions] sets each of these.
//
// Failures are reported with sentinel errors to be checked with [errors.Is]
// ([ErrBlocked] when DuckDuckGo serves its bot challenge, [ErrUnexpectedMarkup]
// when a page cannot be read, [ErrInvalidInput] for a bad query or option),
// and with types to read with [errors.As]: [*BlockedError] says how long
// searches stay paused, [*StatusError] carries other HTTP statuses.
package websearch
