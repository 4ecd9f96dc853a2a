// Package replay serves the go-vcr cassettes in recordings/ to the tests of
// the websearch library, the MCP server and the binary, so that no test
// touches the network.
//
// Requests match an interaction by method, path, query and, for POST, by the
// decoded form body: go-vcr's default matcher ignores bodies, and every page
// of a search is a POST to the same URL.
//
// With WEBSEARCH_RECORD=1 in the environment, [Client] records instead: it
// sends the requests to DuckDuckGo and rewrites the cassette, scrubbed of
// cookies and volatile headers. Only a maintainer on a machine that reaches
// DuckDuckGo does that (see CONTRIBUTING.md).
package replay

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"

	"gopkg.in/dnaeon/go-vcr.v3/cassette"
	"gopkg.in/dnaeon/go-vcr.v3/recorder"

	"github.com/websearch-mcp/websearch-mcp/websearch"
)

// RecordEnv is the environment variable that switches Client to recording.
const RecordEnv = "WEBSEARCH_RECORD"

// Dir is the recordings directory of the repository.
func Dir() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		panic("replay: cannot locate the recordings directory")
	}
	return filepath.Join(filepath.Dir(file), "..", "..", "recordings")
}

// Recording reports whether WEBSEARCH_RECORD=1 asks to re-record.
func Recording() bool { return os.Getenv(RecordEnv) == "1" }

// Client returns an *http.Client that replays the cassette called name (a
// file recordings/<name>.yaml), as often as asked, and fails any request it
// does not hold. When
// Recording is true it records the cassette instead, saving it when the test
// ends.
func Client(t testing.TB, name string) *http.Client {
	t.Helper()
	opts := &recorder.Options{
		CassetteName:       filepath.Join(Dir(), name),
		Mode:               recorder.ModeReplayOnly,
		SkipRequestLatency: true,
	}
	if Recording() {
		// Record with the transport users get: Chrome's TLS handshake.
		real, err := websearch.NewTransport(nil)
		if err != nil {
			t.Fatalf("replay: %v", err)
		}
		opts.Mode = recorder.ModeRecordOnly
		opts.RealTransport = real
	}
	rec, err := recorder.NewWithOptions(opts)
	if err != nil {
		t.Fatalf("replay: opening cassette %s: %v", name, err)
	}
	rec.SetMatcher(Match)
	rec.SetReplayableInteractions(true) // the same request may be asked twice
	rec.AddHook(scrub, recorder.BeforeSaveHook)
	t.Cleanup(func() {
		if err := rec.Stop(); err != nil {
			t.Errorf("replay: closing cassette %s: %v", name, err)
		}
	})
	return &http.Client{Transport: rec}
}

// Match reports whether r is the request i recorded: the same method, path
// and query and, for a form POST, the same form fields with the same values.
// The host is not compared, so that a replica server can stand in for
// DuckDuckGo.
func Match(r *http.Request, i cassette.Request) bool {
	if r.Method != i.Method {
		return false
	}
	want, err := url.Parse(i.URL)
	if err != nil {
		return false
	}
	if r.URL.Path != want.Path || !reflect.DeepEqual(r.URL.Query(), want.Query()) {
		return false
	}
	if r.Method != http.MethodPost {
		return true
	}
	got, err := formOf(r)
	if err != nil {
		return false
	}
	recorded, err := url.ParseQuery(i.Body)
	if err != nil {
		return false
	}
	return reflect.DeepEqual(normalize(got), normalize(recorded))
}

// formOf reads r's urlencoded body and puts it back for the next reader.
func formOf(r *http.Request) (url.Values, error) {
	if r.Body == nil {
		return url.Values{}, nil
	}
	b, err := io.ReadAll(r.Body)
	if err != nil {
		return nil, err
	}
	r.Body = io.NopCloser(strings.NewReader(string(b)))
	return url.ParseQuery(string(b))
}

// normalize treats a missing field and an empty list alike.
func normalize(v url.Values) url.Values {
	out := url.Values{}
	for k, vs := range v {
		if len(vs) > 0 {
			out[k] = vs
		}
	}
	return out
}

// volatileHeaders change on every response and say nothing about the page.
var volatileHeaders = []string{
	"Set-Cookie", "Date", "Expires", "Server-Timing", "Strict-Transport-Security",
	"Content-Security-Policy", "Permissions-Policy", "Expect-Ct", "X-Duckduckgo-Locale",
	"Cf-Ray", "Age", "Etag", "Last-Modified", "Report-To", "Nel",
}

// scrub removes cookies and volatile headers before a cassette is saved.
func scrub(i *cassette.Interaction) error {
	i.Request.Headers.Del("Cookie")
	i.Request.Headers.Del("Authorization")
	for _, h := range volatileHeaders {
		i.Response.Headers.Del(h)
	}
	i.Response.Duration = 0
	return nil
}

// Server starts an httptest server that answers, at DuckDuckGo's paths,
// every request held by the named cassettes, as often as it is asked. A
// request no cassette holds gets 599 and fails the test. Point a client's
// HTML, lite and API endpoints at URL+"/html/", URL+"/lite/" and URL+"/".
func Server(t testing.TB, names ...string) *httptest.Server {
	t.Helper()
	var interactions []*cassette.Interaction
	for _, name := range names {
		c, err := cassette.Load(filepath.Join(Dir(), name))
		if err != nil {
			t.Fatalf("replay: loading cassette %s: %v", name, err)
		}
		interactions = append(interactions, c.Interactions...)
	}
	var mu sync.Mutex
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		for _, i := range interactions {
			if Match(r, i.Request) {
				for k, vs := range i.Response.Headers {
					if k == "Content-Length" || k == "Content-Encoding" {
						continue
					}
					w.Header()[k] = vs
				}
				w.WriteHeader(i.Response.Code)
				io.WriteString(w, i.Response.Body)
				return
			}
		}
		t.Errorf("replay: no recorded interaction for %s %s", r.Method, r.URL)
		http.Error(w, "no recorded interaction", 599)
	}))
	t.Cleanup(srv.Close)
	return srv
}
