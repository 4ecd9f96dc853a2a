package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/websearch-mcp/websearch-mcp/websearch"
)

// ErrorText turns an error of the websearch package into the one short text
// a tool result shows: what happened, and what to do about it.
func ErrorText(err error) string {
	var status *websearch.StatusError
	switch {
	case errors.Is(err, websearch.ErrInvalidInput):
		return err.Error()
	case errors.Is(err, websearch.ErrBlocked):
		return "DuckDuckGo refused the request with its bot challenge, so there are no results to show; wait a few minutes before searching again."
	case errors.Is(err, websearch.ErrUnexpectedMarkup):
		return "DuckDuckGo sent a page this version of websearch-mcp cannot read (it may have changed its markup); update websearch-mcp, or see CONTRIBUTING.md to refresh the parser and recordings."
	case errors.Is(err, context.Canceled):
		return "The request was cancelled before DuckDuckGo answered."
	case errors.Is(err, context.DeadlineExceeded):
		return "DuckDuckGo did not answer in time; check the network connection and try again, or raise the timeout (-timeout)."
	case errors.Is(err, websearch.ErrResponseTooLarge):
		return "DuckDuckGo sent a response larger than the size limit; try again later."
	case errors.As(err, &status):
		return fmt.Sprintf("DuckDuckGo answered with HTTP %d %s; try again in a few minutes.", status.StatusCode, http.StatusText(status.StatusCode))
	}
	return fmt.Sprintf("Could not reach DuckDuckGo (%v); check the network connection and proxy settings, then try again.", err)
}
