package websearch

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// expectation is one line of the corpus's expected.jsonl: the facts an
// independent parser took from one captured page or API body.
type expectation struct {
	File    string            `json:"file"`
	Kind    string            `json:"kind"`
	Count   int               `json:"count"`
	Ads     int               `json:"ads"`
	Results []expectedResult  `json:"results"`
	Next    map[string]string `json:"next"`

	Type           string          `json:"type"`
	Heading        string          `json:"heading"`
	AbstractText   string          `json:"abstract_text"`
	AbstractSource string          `json:"abstract_source"`
	AbstractURL    string          `json:"abstract_url"`
	Answer         string          `json:"answer"`
	Definition     string          `json:"definition"`
	RelatedCount   int             `json:"related_count"`
	Related        []expectedTopic `json:"related"`
	ResultsCount   int             `json:"results_count"`
}

type expectedResult struct {
	Title   string `json:"title"`
	URL     string `json:"url"`
	Snippet string `json:"snippet"`
}

type expectedTopic struct {
	Text string `json:"text"`
	URL  string `json:"url"`
}

// corpusDir finds the shared DuckDuckGo corpus: $WEBSEARCH_CORPUS, or
// ../shared/ddg-corpus beside the repository. It skips the test, saying so,
// when there is none.
func corpusDir(t testing.TB) string {
	t.Helper()
	if dir := os.Getenv("WEBSEARCH_CORPUS"); dir != "" {
		if _, err := os.Stat(filepath.Join(dir, "expected.jsonl")); err != nil {
			t.Fatalf("WEBSEARCH_CORPUS=%s holds no expected.jsonl: %v", dir, err)
		}
		return dir
	}
	dir := filepath.Join("..", "..", "shared", "ddg-corpus") // from websearch/ to beside the repository
	if _, err := os.Stat(filepath.Join(dir, "expected.jsonl")); err != nil {
		t.Skipf("the DuckDuckGo corpus is absent (looked for %s, and WEBSEARCH_CORPUS is unset): conformance not checked", dir)
	}
	return dir
}

func loadExpectations(t testing.TB, dir string) []expectation {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, "expected.jsonl"))
	require.NoError(t, err)
	defer f.Close()
	var out []expectation
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var e expectation
		require.NoError(t, json.Unmarshal(sc.Bytes(), &e), "expected.jsonl line %d", len(out)+1)
		out = append(out, e)
	}
	require.NoError(t, sc.Err())
	require.NotEmpty(t, out, "expected.jsonl is empty")
	return out
}

// TestCorpusConformance holds the parsers against every page and API body in
// the corpus: kind, results in order, ads left out, the Next form's fields
// and the instant-answer facts must match expected.jsonl.
func TestCorpusConformance(t *testing.T) {
	t.Parallel()
	dir := corpusDir(t)
	exps := loadExpectations(t, dir)

	described := map[string]bool{}
	for _, e := range exps {
		described[e.File] = true
	}
	// Every page or body in the corpus must be described, so none is skipped.
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		rel = filepath.ToSlash(rel)
		if strings.Contains(rel, "/") && (strings.HasSuffix(rel, ".html") || strings.HasSuffix(rel, ".json")) {
			assert.True(t, described[rel], "%s has no line in expected.jsonl", rel)
		}
		return nil
	})
	require.NoError(t, err)

	for _, e := range exps {
		t.Run(e.File, func(t *testing.T) {
			t.Parallel()
			body, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(e.File)))
			require.NoError(t, err)
			switch {
			case e.Kind == "instant_answer":
				checkAnswer(t, e, body)
			case strings.HasPrefix(e.File, "lite/"):
				checkPage(t, e, body, parseLitePage)
			default:
				checkPage(t, e, body, parseHTMLPage)
			}
		})
	}
}

func checkPage(t *testing.T, e expectation, body []byte, parse func(io.Reader) (*page, error)) {
	p, err := parse(bytes.NewReader(body))
	require.NoError(t, err)
	kinds := map[pageKind]string{kindResults: "results", kindNoResults: "no_results", kindBlocked: "blocked"}
	require.Equal(t, e.Kind, kinds[p.kind], "kind")
	if e.Kind == "blocked" {
		return
	}
	got := make([]expectedResult, len(p.results))
	for i, r := range p.results {
		got[i] = expectedResult{Title: r.Title, URL: r.URL, Snippet: r.Snippet}
	}
	want := e.Results
	if want == nil {
		want = []expectedResult{}
	}
	assert.Equal(t, want, got, "results")
	assert.Len(t, p.results, e.Count, "count")
	assert.Equal(t, e.Ads, p.ads, "ads left out")
	if e.Next == nil {
		assert.Nil(t, p.next, "next form")
		return
	}
	gotNext := map[string]string{}
	for _, f := range p.next {
		gotNext[f.name] = f.value
	}
	assert.Equal(t, e.Next, gotNext, "next form")
}

func checkAnswer(t *testing.T, e expectation, body []byte) {
	a, err := parseAnswer(body)
	require.NoError(t, err)
	assert.Equal(t, e.Type, a.Type, "type")
	assert.Equal(t, e.Heading, a.Heading, "heading")
	assert.Equal(t, e.AbstractText, a.Abstract.Text, "abstract text")
	assert.Equal(t, e.AbstractSource, a.Abstract.Source, "abstract source")
	assert.Equal(t, e.AbstractURL, a.Abstract.URL, "abstract URL")
	assert.Equal(t, e.Answer, a.Answer, "answer")
	assert.Equal(t, e.Definition, a.Definition.Text, "definition")
	assert.Equal(t, e.ResultsCount, len(a.Results), "results count")
	require.Len(t, a.RelatedTopics, e.RelatedCount, "related count")
	got := make([]expectedTopic, len(a.RelatedTopics))
	for i, r := range a.RelatedTopics {
		got[i] = expectedTopic{Text: r.Text, URL: r.URL}
	}
	want := e.Related
	if want == nil {
		want = []expectedTopic{}
	}
	assert.Equal(t, want, got, "related topics")
	for _, r := range a.RelatedTopics {
		assert.NotEmpty(t, r.Name, "every topic has a name: %+v", r)
	}
}
