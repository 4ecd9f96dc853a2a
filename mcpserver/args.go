package mcpserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"

	"github.com/websearch-mcp/websearch-mcp/websearch"
)

// Limits of the web_search tool's max_results, from the tool specification.
const (
	defaultMaxResults = 10
	maxMaxResults     = 30
)

// args are a tool call's arguments, checked.
type args struct {
	query      string // trimmed
	maxResults int
}

// parseArgs reads and checks a tool call's raw arguments. Its errors are
// plain sentences naming the parameter, the rule and the value received, for
// the caller to show as they are. Unknown arguments are ignored.
func parseArgs(raw json.RawMessage, withMaxResults bool) (args, error) {
	var fields map[string]json.RawMessage
	if len(bytes.TrimSpace(raw)) > 0 {
		if err := json.Unmarshal(raw, &fields); err != nil {
			return args{}, errors.New("arguments must be an object such as {\"query\": \"golang\"}")
		}
	}
	a := args{maxResults: defaultMaxResults}

	rawQuery, ok := fields["query"]
	if !ok {
		return args{}, errors.New("query is required: give the words to search for")
	}
	var query string
	if err := json.Unmarshal(rawQuery, &query); err != nil || bytes.Equal(bytes.TrimSpace(rawQuery), []byte("null")) {
		return args{}, fmt.Errorf("query must be a string (got %s)", shown(rawQuery))
	}
	q, err := websearch.CheckQuery(query)
	if err != nil {
		return args{}, err
	}
	a.query = q

	if rawMax, ok := fields["max_results"]; ok && withMaxResults {
		n, ok := wholeNumber(rawMax)
		if !ok || n < 1 || n > maxMaxResults {
			return args{}, fmt.Errorf("max_results must be an integer from 1 to %d (got %s)", maxMaxResults, shown(rawMax))
		}
		a.maxResults = n
	}
	return a, nil
}

// wholeNumber reads a JSON number with no fractional part, such as 10 or
// 10.0, as an int; strings, null, fractions and huge numbers are not.
func wholeNumber(raw json.RawMessage) (int, bool) {
	var num json.Number
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&num); err != nil || num == "" {
		return 0, false
	}
	f, _, err := big.ParseFloat(num.String(), 10, 128, big.ToNearestEven)
	if err != nil || !f.IsInt() {
		return 0, false
	}
	n, acc := f.Int64()
	if acc != big.Exact || n < -1<<31 || n > 1<<31-1 {
		return 0, false
	}
	return int(n), true
}

// shown is a raw JSON value as the error messages quote it: compact, and
// cut short when long.
func shown(raw json.RawMessage) string {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		b.Reset()
		b.Write(raw)
	}
	s := []rune(b.String())
	if len(s) > 40 {
		return string(s[:40]) + "…"
	}
	return string(s)
}
