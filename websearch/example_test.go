package websearch_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/websearch-mcp/websearch-mcp/websearch"
)

// This is the whole program most callers need. (It reaches DuckDuckGo, so
// it has no output to check here.)
func Example() {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	results, err := websearch.Search(ctx, "golang concurrency", &websearch.SearchOptions{MaxResults: 5})
	if errors.Is(err, websearch.ErrBlocked) {
		log.Fatal("DuckDuckGo wants a break; try again in a few minutes")
	}
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range results {
		fmt.Println(r.Title, r.URL)
	}
}

// A stand-in for html.duckduckgo.com, so that the examples run offline.
const examplePage = `<html><body><div id="links" class="results">
<div class="result results_links web-result"><div class="links_main result__body">
  <h2 class="result__title"><a rel="nofollow" class="result__a" href="//duckduckgo.com/l/?uddg=https%3A%2F%2Fgo.dev%2F&amp;rut=0">The Go Programming Language</a></h2>
  <a class="result__snippet" href="#">Go is an open source <b>programming language</b>.</a>
</div></div>
<div class="result results_links result--ad"><div class="links_main result__body">
  <h2 class="result__title"><a rel="nofollow" class="result__a" href="https://duckduckgo.com/y.js?ad_provider=x">Buy Go books</a></h2>
</div></div>
</div></body></html>`

func ExampleClient_Search() {
	ddg := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, examplePage)
	}))
	defer ddg.Close()

	client, err := websearch.NewClient(&websearch.ClientOptions{HTMLURL: ddg.URL + "/html/"})
	if err != nil {
		log.Fatal(err)
	}
	results, err := client.Search(context.Background(), "go", &websearch.SearchOptions{
		MaxResults: 10,
		Region:     "us-en",
		TimeRange:  websearch.PastYear,
	})
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range results {
		fmt.Printf("%s\n  %s\n  %s\n", r.Title, r.URL, r.Snippet)
	}
	// Output:
	// The Go Programming Language
	//   https://go.dev/
	//   Go is an open source programming language.
}

func ExampleClient_InstantAnswer() {
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `{"Heading":"Go (programming language)","Type":"A",
			"AbstractText":"Go is a statically typed, compiled high-level programming language.",
			"AbstractSource":"Wikipedia","AbstractURL":"https://en.wikipedia.org/wiki/Go_(programming_language)",
			"ImageWidth":"","Infobox":"",
			"RelatedTopics":[{"Name":"Tools","Topics":[{"FirstURL":"https://duckduckgo.com/Gofmt",
				"Result":"<a href=\"https://duckduckgo.com/Gofmt\">gofmt</a> - The Go formatter","Text":"gofmt - The Go formatter"}]}]}`)
	}))
	defer api.Close()

	client, err := websearch.NewClient(&websearch.ClientOptions{APIURL: api.URL + "/"})
	if err != nil {
		log.Fatal(err)
	}
	a, err := client.InstantAnswer(context.Background(), "golang")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(a.Heading, "-", a.Abstract.Source)
	fmt.Println(a.Abstract.Text)
	for _, t := range a.RelatedTopics {
		fmt.Printf("[%s] %s: %s\n", t.Group, t.Name, t.Description)
	}
	// Output:
	// Go (programming language) - Wikipedia
	// Go is a statically typed, compiled high-level programming language.
	// [Tools] gofmt: The Go formatter
}

func ExampleErrBlocked() {
	ddg := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusAccepted)
		io.WriteString(w, `<html><body><form id="challenge-form" action="//duckduckgo.com/anomaly.js"></form></body></html>`)
	}))
	defer ddg.Close()

	client, err := websearch.NewClient(&websearch.ClientOptions{HTMLURL: ddg.URL + "/html/", LiteURL: ddg.URL + "/lite/"})
	if err != nil {
		log.Fatal(err)
	}
	_, err = client.Search(context.Background(), "go", nil)
	var blocked *websearch.BlockedError
	if errors.As(err, &blocked) {
		fmt.Println(errors.Is(err, websearch.ErrBlocked), blocked.StatusCode, blocked.Wait)
	}
	// The cool-down refuses the next search at once.
	_, err = client.Search(context.Background(), "go", nil)
	fmt.Println(err)
	// Output:
	// true 202 1m0s
	// blocked by DuckDuckGo's bot challenge: searches are paused after DuckDuckGo's last challenge; searching again is possible in 1m0s
}

func ExampleCheckQuery() {
	q, err := websearch.CheckQuery("  rust programming  ")
	fmt.Printf("%q %v\n", q, err)
	_, err = websearch.CheckQuery("rust\tprogramming")
	fmt.Println(err, errors.Is(err, websearch.ErrInvalidInput))
	// Output:
	// "rust programming" <nil>
	// query must not contain control characters such as tabs or line breaks (found U+0009 at character 5) true
}
