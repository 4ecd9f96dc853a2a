// Command websearch-mcp gives MCP clients (Claude Desktop, VS Code, Cursor,
// any agent) web search through DuckDuckGo, with no API key.
//
// With no arguments it serves the MCP tools web_search and instant_answer
// on stdin and stdout. For people, "websearch-mcp search QUERY" and
// "websearch-mcp answer QUERY" print the Markdown those tools return.
// "websearch-mcp -h" lists every setting with its environment variable.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/websearch-mcp/websearch-mcp/mcpserver"
	"github.com/websearch-mcp/websearch-mcp/websearch"
)

// Exit statuses.
const (
	exitOK    = 0
	exitError = 1 // the search or the server failed
	exitUsage = 2 // bad flags, settings or arguments; nothing was done
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv)
	stop()
	os.Exit(code)
}

// run is the whole program, with its surroundings passed in.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	fail := func(code int, err error) int {
		fmt.Fprintf(stderr, "websearch-mcp: %s\n", oneLine(err))
		return code
	}
	cfg, rest, err := parseConfig(args, getenv)
	switch {
	case errors.Is(err, errHelp):
		usage(stdout)
		return exitOK
	case err != nil:
		return fail(exitUsage, fmt.Errorf("%w (see websearch-mcp -h)", err))
	case cfg.version:
		fmt.Fprintln(stdout, "websearch-mcp", version())
		return exitOK
	}
	client, opts, err := cfg.client(stderr)
	if err != nil {
		return fail(exitUsage, err)
	}

	if cfg.httpAddr != "" {
		if len(rest) > 0 {
			return fail(exitUsage, fmt.Errorf("-http serves MCP; it takes no command (got %q)", rest[0]))
		}
		httpOpts, err := cfg.httpOptions()
		if err != nil {
			return fail(exitUsage, err)
		}
		return serveHTTP(ctx, cfg.httpAddr, cfg.shutdownTimeout, mcpserver.New(client, opts), httpOpts, opts.Logger)
	}
	if len(rest) == 0 {
		return serve(ctx, client, opts, stdin, stdout)
	}
	switch cmd := rest[0]; cmd {
	case "search", "answer":
		return command(ctx, cmd, rest[1:], client, opts, stdout, stderr)
	default:
		return fail(exitUsage, fmt.Errorf("unknown command %q: use search, answer, or no command to serve MCP (see websearch-mcp -h)", cmd))
	}
}

// serve runs the MCP server on stdin and stdout until the client hangs up
// or a signal arrives. Its log lines go to opts.Logger (stderr).
func serve(ctx context.Context, client *websearch.Client, opts *mcpserver.Options, stdin io.Reader, stdout io.Writer) int {
	server := mcpserver.New(client, opts)
	transport := &mcp.IOTransport{Reader: io.NopCloser(stdin), Writer: nopWriteCloser{stdout}}
	err := server.Run(ctx, transport)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, context.Canceled) && !errors.Is(err, mcp.ErrConnectionClosed) {
		opts.Logger.Error("server stopped", "err", err)
		return exitError
	}
	return exitOK
}

// serveHTTP serves MCP over streamable HTTP at addr until ctx ends (a
// signal), then lets the tool calls in flight finish for up to grace.
func serveHTTP(ctx context.Context, addr string, grace time.Duration, server *mcp.Server, opts *mcpserver.HTTPOptions, logger *slog.Logger) int {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		logger.Error("cannot listen", "addr", addr, "err", err)
		return exitError
	}
	// Count the requests in flight, but the standing GET event streams:
	// a call is done when its POST has carried the answer back.
	var busy atomic.Int64
	mcpHandler := mcpserver.HTTPHandler(server, opts)
	srv := &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method != http.MethodGet {
				busy.Add(1)
				defer busy.Add(-1)
			}
			mcpHandler.ServeHTTP(w, r)
		}),
		ReadHeaderTimeout: 10 * time.Second,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
	logger.Info("serving MCP over HTTP", "url", "http://"+ln.Addr().String()+"/mcp", "stateless", opts.Stateless, "auth", opts.AuthToken != "")
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		logger.Error("server stopped", "err", err)
		return exitError
	case <-ctx.Done():
	}

	// Stop taking connections, let the calls in flight finish, then end the
	// sessions, whose open event streams would otherwise hold Shutdown.
	logger.Info("shutting down: waiting for calls in flight", "requests", busy.Load(), "timeout", grace)
	shutdownCtx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	shut := make(chan error, 1)
	go func() { shut <- srv.Shutdown(shutdownCtx) }()
	for busy.Load() > 0 && shutdownCtx.Err() == nil {
		time.Sleep(10 * time.Millisecond)
	}
	for ss := range server.Sessions() {
		ss.Close()
	}
	if err := <-shut; err != nil {
		logger.Warn("calls still in flight were cut off", "err", err)
		srv.Close()
		return exitError
	}
	logger.Info("stopped")
	return exitOK
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// command runs "search [-n N] QUERY" or "answer QUERY", printing the tools'
// Markdown to stdout, or a message to stderr and exit status 1.
func command(ctx context.Context, name string, args []string, client *websearch.Client, opts *mcpserver.Options, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	n := websearch.DefaultMaxResults
	if name == "search" {
		fs.IntVar(&n, "n", websearch.DefaultMaxResults, "")
	}
	if err := fs.Parse(args); err != nil {
		fmt.Fprintf(stderr, "websearch-mcp %s: %s (see websearch-mcp -h)\n", name, oneLine(err))
		return exitUsage
	}
	query := strings.Join(fs.Args(), " ")
	if strings.TrimSpace(query) == "" {
		fmt.Fprintf(stderr, "websearch-mcp %s: give the query to look up, such as: websearch-mcp %s \"golang generics\"\n", name, name)
		return exitUsage
	}

	var out string
	if name == "search" {
		search := opts.Search
		search.MaxResults = n
		results, err := client.Search(ctx, query, &search)
		if err != nil {
			fmt.Fprintf(stderr, "websearch-mcp search: %s\n", mcpserver.ErrorText(err))
			return exitError
		}
		out = mcpserver.SearchMarkdown(strings.TrimSpace(query), results)
	} else {
		a, err := client.InstantAnswer(ctx, query)
		if err != nil {
			fmt.Fprintf(stderr, "websearch-mcp answer: %s\n", mcpserver.ErrorText(err))
			return exitError
		}
		out = mcpserver.AnswerMarkdown(strings.TrimSpace(query), a)
	}
	fmt.Fprintln(stdout, out)
	return exitOK
}

// version is the module version the binary was built from: the tag for a
// "go install …@v1.2.3", or "dev" for a build from a work tree.
func version() string {
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" && info.Main.Version != "(devel)" {
		return info.Main.Version
	}
	return "dev"
}
