package websearch

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// BenchmarkParse parses each real page and API body of the corpus.
//
//	go test -run '^$' -bench Parse -benchmem ./websearch
func BenchmarkParse(b *testing.B) {
	dir := corpusDir(b)
	for _, e := range loadExpectations(b, dir) {
		body, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(e.File)))
		if err != nil {
			b.Fatal(err)
		}
		parse := func() error { _, err := parseHTMLPage(bytes.NewReader(body)); return err }
		switch {
		case e.Kind == "instant_answer":
			parse = func() error { _, err := parseAnswer(body); return err }
		case strings.HasPrefix(e.File, "lite/"):
			parse = func() error { _, err := parseLitePage(bytes.NewReader(body)); return err }
		}
		b.Run(e.File, func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				if err := parse(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSearch runs a whole one-page Search against a loopback server
// serving a real page of the corpus: request, read, parse, unwrap, with the
// cache and pacing off. client-ns/op leaves out the server's own time.
//
//	go test -run '^$' -bench Search -benchmem ./websearch
func BenchmarkSearch(b *testing.B) {
	body, err := os.ReadFile(filepath.Join(corpusDir(b), "html", "golang-programming-language-2025-08.html"))
	if err != nil {
		b.Fatal(err)
	}
	var serverTime atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		io.Copy(io.Discard, r.Body)
		w.Write(body)
		serverTime.Add(int64(time.Since(start)))
	}))
	defer srv.Close()
	c, err := NewClient(&ClientOptions{HTMLURL: srv.URL + "/html/", MinInterval: -1, CacheSize: -1})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ReportAllocs()
	start := time.Now()
	for b.Loop() {
		results, err := c.Search(ctx, "golang programming language", nil)
		if err != nil || len(results) != 10 {
			b.Fatalf("got %d results, %v", len(results), err)
		}
	}
	b.ReportMetric(float64(time.Since(start).Nanoseconds()-serverTime.Load())/float64(b.N), "client-ns/op")
}

// BenchmarkSearchCacheHit measures a Search answered from the cache.
//
//	go test -run '^$' -bench CacheHit -benchmem ./websearch
func BenchmarkSearchCacheHit(b *testing.B) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `<html><body><div class="result"><a class="result__a" href="https://example.com/">Example</a>`+
			`<a class="result__snippet">An example.</a></div></body></html>`)
	}))
	defer srv.Close()
	c, err := NewClient(&ClientOptions{HTMLURL: srv.URL + "/html/", MinInterval: -1})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	if _, err := c.Search(ctx, "golang generics", nil); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if results, err := c.Search(ctx, "golang generics", nil); err != nil || len(results) != 1 {
			b.Fatalf("got %d results, %v", len(results), err)
		}
	}
}
