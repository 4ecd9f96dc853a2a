package mcpserver

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"log/slog"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/websearch-mcp/websearch-mcp/websearch"
)

// Outcomes of a tool call, as logged.
const (
	outcomeOK           = "ok"
	outcomeEmpty        = "empty"
	outcomeInvalidInput = "invalid_input"
	outcomeBlocked      = "blocked"
	outcomeCancelled    = "cancelled"
	outcomeTimeout      = "timeout"
	outcomeError        = "error"
)

// outcomeOf names the outcome of a failed call.
func outcomeOf(err error) string {
	switch {
	case errors.Is(err, websearch.ErrInvalidInput):
		return outcomeInvalidInput
	case errors.Is(err, websearch.ErrBlocked):
		return outcomeBlocked
	case errors.Is(err, context.Canceled):
		return outcomeCancelled
	case errors.Is(err, context.DeadlineExceeded):
		return outcomeTimeout
	}
	return outcomeError
}

// toolCall logs one tool call, from begin to its result.
type toolCall struct {
	ctx     context.Context
	tool    string
	start   time.Time
	query   []slog.Attr
	loggers []*slog.Logger // the server's, and the session's MCP log
}

// begin logs the start of a call. query is the checked query, or "" when
// the arguments were refused.
func (h *handlers) begin(ctx context.Context, req *mcp.CallToolRequest, query string) *toolCall {
	sum := sha256.Sum256([]byte(query))
	c := &toolCall{
		ctx:   ctx,
		tool:  req.Params.Name,
		start: time.Now(),
		query: []slog.Attr{
			slog.String("query_sha256", hex.EncodeToString(sum[:6])),
			slog.Int("query_len", utf8.RuneCountInString(query)),
		},
		loggers: []*slog.Logger{h.log},
	}
	if req.Session != nil {
		//lint:ignore SA1019 MCP log notifications serve clients of protocols before 2026-07-28, which deprecates them (issue: Speak full MCP)
		c.loggers = append(c.loggers, slog.New(mcp.NewLoggingHandler(req.Session, &mcp.LoggingHandlerOptions{LoggerName: Name})))
	}
	c.log(slog.LevelInfo, "tool call started", c.query...)
	c.log(slog.LevelDebug, "tool call query", slog.String("query", query))
	return c
}

func (c *toolCall) log(level slog.Level, msg string, attrs ...slog.Attr) {
	attrs = append([]slog.Attr{slog.String("tool", c.tool)}, attrs...)
	for _, l := range c.loggers {
		l.LogAttrs(c.ctx, level, msg, attrs...)
	}
}

func (c *toolCall) end(outcome string, results int) {
	level := slog.LevelInfo
	if outcome != outcomeOK && outcome != outcomeEmpty && outcome != outcomeInvalidInput {
		level = slog.LevelWarn
	}
	c.log(level, "tool call finished", append(c.query,
		slog.String("outcome", outcome),
		slog.Int("results", results),
		slog.Int64("duration_ms", time.Since(c.start).Milliseconds()),
	)...)
}

// succeeded logs the end of a call and returns its result: the Markdown,
// then the same content structured.
func (c *toolCall) succeeded(results int, markdown string, structured any) *mcp.CallToolResult {
	outcome := outcomeOK
	if results == 0 {
		outcome = outcomeEmpty
	}
	c.end(outcome, results)
	r := textResult(markdown)
	r.StructuredContent = structured
	return r
}

// failed logs the end of a failed call and returns its error result.
func (c *toolCall) failed(outcome, text string) *mcp.CallToolResult {
	c.end(outcome, 0)
	return errorResult(text)
}
