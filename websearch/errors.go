package websearch

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// Sentinel errors, to be checked with [errors.Is].
var (
	// ErrInvalidInput reports a query or an option that cannot be sent to
	// DuckDuckGo: an empty query, one over MaxQueryLength characters or
	// holding control characters, or an option out of its range. The error's
	// text says which rule was broken, in words meant for an end user.
	ErrInvalidInput = errors.New("invalid input")

	// ErrBlocked reports that DuckDuckGo answered with its bot challenge (an
	// "anomaly" page, or the one-line error-lite body) instead of results,
	// usually with HTTP 202, 403, 418 or 429. It is distinct from a search
	// that has no results. Waiting before the next search is the only cure.
	ErrBlocked = errors.New("blocked by DuckDuckGo's bot challenge")

	// ErrUnexpectedMarkup reports a page (or an API body) that is neither
	// results, nor a no-results page, nor a challenge: DuckDuckGo has most
	// likely changed its markup, and the parser and the recordings need a
	// refresh (see CONTRIBUTING.md).
	ErrUnexpectedMarkup = errors.New("unexpected markup from DuckDuckGo")

	// ErrResponseTooLarge reports a response body larger than
	// ClientOptions.MaxBodyBytes.
	ErrResponseTooLarge = errors.New("response body too large")
)

// StatusError is returned, possibly wrapped, when DuckDuckGo answers with an
// HTTP status other than 2xx. Use [errors.As] to read it.
type StatusError struct {
	// Endpoint is the URL that was requested, without its query.
	Endpoint string
	// StatusCode is the HTTP status code, such as 503.
	StatusCode int
	// Body is the beginning of the response body (at most 512 bytes), to help
	// tell what went wrong.
	Body string
}

// Error implements error.
func (e *StatusError) Error() string {
	return fmt.Sprintf("%s answered HTTP %d %s", e.Endpoint, e.StatusCode, http.StatusText(e.StatusCode))
}

// BlockedError is the ErrBlocked a Client returns: [errors.Is](err,
// ErrBlocked) holds for it. Use [errors.As] to read how long searches stay
// paused.
type BlockedError struct {
	// Endpoint is the endpoint that served the challenge; empty when the
	// search was refused without a request because of an earlier one.
	Endpoint string
	// StatusCode is the HTTP status the challenge came with (202, 403, 418,
	// 429), or 0 for a challenge served with 200 or none at all.
	StatusCode int
	// Wait is how long the client refuses to search after this block (its
	// cool-down); 0 when the client keeps no cool-down.
	Wait time.Duration
}

// Error implements error.
func (e *BlockedError) Error() string {
	var b strings.Builder
	b.WriteString(ErrBlocked.Error())
	switch {
	case e.Endpoint == "":
		b.WriteString(": searches are paused after DuckDuckGo's last challenge")
	case e.StatusCode != 0:
		fmt.Fprintf(&b, ": %s answered HTTP %d %s with its challenge", e.Endpoint, e.StatusCode, http.StatusText(e.StatusCode))
	default:
		fmt.Fprintf(&b, ": %s served its challenge page", e.Endpoint)
	}
	if e.Wait > 0 {
		fmt.Fprintf(&b, "; searching again is possible in %s", e.Wait.Round(time.Second))
	}
	return b.String()
}

// Is makes errors.Is(err, ErrBlocked) hold.
func (e *BlockedError) Is(target error) bool { return target == ErrBlocked }

// inputError is an ErrInvalidInput whose text is the broken rule alone, so
// that callers such as the MCP server can show it as it is.
type inputError struct{ msg string }

func (e *inputError) Error() string { return e.msg }
func (e *inputError) Unwrap() error { return ErrInvalidInput }

func invalidf(format string, args ...any) error {
	return &inputError{msg: fmt.Sprintf(format, args...)}
}

// markupError builds an ErrUnexpectedMarkup for the page kind that could not
// be read, saying what was looked for.
func markupError(kind, what string) error {
	return fmt.Errorf("%w: the %s %s; DuckDuckGo may have changed its markup (see CONTRIBUTING.md to refresh the parser and recordings)",
		ErrUnexpectedMarkup, kind, what)
}
