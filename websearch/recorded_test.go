package websearch_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/websearch-mcp/websearch-mcp/internal/replay"
	"github.com/websearch-mcp/websearch-mcp/websearch"
)

// recordedClient is a Client whose requests are answered from the cassette
// recordings/<name>.yaml (or, with WEBSEARCH_RECORD=1, recorded into it).
func recordedClient(t *testing.T, name string) *websearch.Client {
	t.Helper()
	c, err := websearch.NewClient(&websearch.ClientOptions{HTTPClient: replay.Client(t, name), MinInterval: pacing()})
	require.NoError(t, err)
	return c
}

// pacing is the interval between requests: none when replaying, the
// default when recording, so as not to hammer DuckDuckGo.
func pacing() time.Duration {
	if replay.Recording() {
		return 0
	}
	return -1
}

// checkResults holds what every search must give: no DuckDuckGo redirect,
// no ad, no URL twice, and text without markup.
func checkResults(t *testing.T, results []websearch.Result) {
	t.Helper()
	seen := map[string]bool{}
	for i, r := range results {
		assert.False(t, seen[r.URL], "result %d repeats %s", i+1, r.URL)
		seen[r.URL] = true
		assert.Regexp(t, `^https?://`, r.URL, "result %d", i+1)
		assert.NotContains(t, r.URL, "duckduckgo.com/l/", "result %d keeps the redirect", i+1)
		assert.NotContains(t, r.URL, "y.js", "result %d is an ad", i+1)
		assert.NotEmpty(t, r.Title, "result %d", i+1)
		for _, s := range []string{r.Title, r.Snippet} {
			assert.NotContains(t, s, "<b>", "result %d keeps markup", i+1)
			assert.NotContains(t, s, "&amp;", "result %d keeps an entity", i+1)
			assert.Equal(t, strings.Join(strings.Fields(s), " "), s, "result %d: white space not folded", i+1)
		}
	}
}

// TestRecorded replays the recorded searches and answers. Re-record them
// from a machine that reaches DuckDuckGo with:
//
//	WEBSEARCH_RECORD=1 go test ./websearch -run TestRecorded
func TestRecorded(t *testing.T) {
	t.Parallel()
	ctx := context.Background()

	t.Run("search over three pages", func(t *testing.T) {
		t.Parallel()
		c := recordedClient(t, "search-paginated")
		results, err := c.Search(ctx, "golang concurrency", &websearch.SearchOptions{MaxResults: 30})
		require.NoError(t, err)
		assert.Len(t, results, 30)
		checkResults(t, results)
	})
	t.Run("region, time range and safe search", func(t *testing.T) {
		t.Parallel()
		c := recordedClient(t, "search-region")
		results, err := c.Search(ctx, "onsen ryokan", &websearch.SearchOptions{
			Region: "jp-jp", TimeRange: websearch.PastWeek, SafeSearch: websearch.SafeSearchStrict,
		})
		require.NoError(t, err)
		assert.NotEmpty(t, results)
		assert.LessOrEqual(t, len(results), websearch.DefaultMaxResults)
		checkResults(t, results)
	})
	t.Run("no results", func(t *testing.T) {
		t.Parallel()
		c := recordedClient(t, "search-no-results")
		results, err := c.Search(ctx, "xyzzy12345noresult", nil)
		require.NoError(t, err)
		assert.NotNil(t, results)
		assert.Empty(t, results)
	})
	t.Run("blocked", func(t *testing.T) {
		t.Parallel()
		c := recordedClient(t, "search-blocked")
		results, err := c.Search(ctx, "golang generics", nil)
		require.ErrorIs(t, err, websearch.ErrBlocked)
		assert.Nil(t, results)
		var be *websearch.BlockedError
		require.True(t, errors.As(err, &be), "a blocked search carries its status")
		assert.Equal(t, http.StatusAccepted, be.StatusCode)
		assert.Positive(t, be.Wait, "a cool-down starts")
	})
	t.Run("lite fallback", func(t *testing.T) {
		t.Parallel()
		c := recordedClient(t, "search-lite-fallback")
		results, err := c.Search(ctx, "golang generics tutorial", nil)
		require.NoError(t, err, "the lite endpoint answers when the HTML one blocks")
		assert.NotEmpty(t, results)
		checkResults(t, results)
	})

	answers := []struct {
		query string
		check func(t *testing.T, a *websearch.Answer)
	}{
		{"Rust programming language", func(t *testing.T, a *websearch.Answer) {
			assert.Equal(t, "A", a.Type)
			assert.NotEmpty(t, a.Abstract.Text)
			assert.NotEmpty(t, a.RelatedTopics)
		}},
		{"DuckDuckGo", func(t *testing.T, a *websearch.Answer) {
			assert.Equal(t, "A", a.Type)
			assert.NotEmpty(t, a.Results)
		}},
		{"mercury", func(t *testing.T, a *websearch.Answer) {
			assert.Equal(t, "D", a.Type)
			grouped := 0
			for _, topic := range a.RelatedTopics {
				if topic.Group != "" {
					grouped++
				}
			}
			assert.Positive(t, grouped, "a disambiguation answer keeps its groups' topics")
		}},
		{"Go web frameworks", func(t *testing.T, a *websearch.Answer) {
			assert.Equal(t, "C", a.Type)
			assert.NotEmpty(t, a.RelatedTopics)
		}},
		{"2+2", func(t *testing.T, a *websearch.Answer) {
			assert.Equal(t, "E", a.Type)
			assert.NotEmpty(t, a.Answer)
		}},
		{"!w golang", func(t *testing.T, a *websearch.Answer) {
			assert.Regexp(t, `^https://`, a.Redirect)
		}},
		{"xyzzy12345noresult", func(t *testing.T, a *websearch.Answer) {
			assert.True(t, a.Empty(), "%+v", a)
		}},
	}
	t.Run("instant answers", func(t *testing.T) {
		c := recordedClient(t, "instant-answers")
		for _, tc := range answers {
			t.Run(tc.query, func(t *testing.T) {
				a, err := c.InstantAnswer(ctx, tc.query)
				require.NoError(t, err)
				tc.check(t, a)
			})
		}
	})
}
