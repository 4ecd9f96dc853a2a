package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"time"

	"github.com/websearch-mcp/websearch-mcp/websearch"
)

// ErrorText turns an error of the websearch package into the one short text
// a tool result shows: what happened, and what to do about it.
func ErrorText(err error) string {
	var status *websearch.StatusError
	var blocked *websearch.BlockedError
	switch {
	case errors.Is(err, websearch.ErrInvalidInput):
		return err.Error()
	case errors.As(err, &blocked) && blocked.Endpoint == "":
		return fmt.Sprintf("Searches are paused because DuckDuckGo took the last one for a bot; try again in %s.", humanDuration(blocked.Wait))
	case errors.As(err, &blocked) && blocked.Wait > 0:
		return fmt.Sprintf("DuckDuckGo refused the request with its bot challenge, so there are no results to show; wait %s before searching again.", humanDuration(blocked.Wait))
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

// humanDuration says d in whole minutes, or whole seconds under a minute,
// rounded up: "1 minute", "15 minutes", "45 seconds".
func humanDuration(d time.Duration) string {
	n, unit := int(math.Ceil(d.Seconds())), "second"
	if d >= time.Minute {
		n, unit = int(math.Ceil(d.Minutes())), "minute"
	}
	if n != 1 {
		unit += "s"
	}
	return fmt.Sprintf("%d %s", n, unit)
}
