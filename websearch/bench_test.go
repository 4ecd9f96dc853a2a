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
	"testing"
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
// serving a real page of the corpus: request, read, parse, unwrap.
//
//	go test -run '^$' -bench Search -benchmem ./websearch
func BenchmarkSearch(b *testing.B) {
	body, err := os.ReadFile(filepath.Join(corpusDir(b), "html", "golang-programming-language-2025-08.html"))
	if err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Write(body)
	}))
	defer srv.Close()
	c, err := NewClient(&ClientOptions{HTMLURL: srv.URL + "/html/"})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		results, err := c.Search(ctx, "golang programming language", nil)
		if err != nil || len(results) != 10 {
			b.Fatalf("got %d results, %v", len(results), err)
		}
	}
}
