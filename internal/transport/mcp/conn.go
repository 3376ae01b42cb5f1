package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/axiomcore/acore/internal/protocol"
)

// lineTransport is an sdk.Transport over newline-delimited JSON-RPC on a
// reader and a writer, like the SDK's IOTransport, except that a bad line
// does not end the session. The SDK's stdio connection hands a line that is
// not JSON to the JSON-RPC layer as a read error, and a read error closes
// the connection. Here a line that is not valid JSON is answered with the
// JSON-RPC parse error (-32700, id null), a line that is JSON but not a
// JSON-RPC message with invalid request (-32600), and reading goes on.
//
// One message per line; JSON-RPC batches (arrays) are answered invalid
// request: MCP dropped them in protocol version 2025-06-18.
type lineTransport struct {
	in      io.Reader
	out     io.Writer
	maxLine int
	// stop, when closed, ends the session after the response being
	// written (the service's Stopping: after a timed-out change.apply).
	stop <-chan struct{}
}

// Connect implements sdk.Transport.
func (t *lineTransport) Connect(context.Context) (sdk.Connection, error) {
	c := &lineConn{
		out:      t.out,
		maxLine:  t.maxLine,
		stop:     t.stop,
		incoming: make(chan jsonrpc.Message),
		closed:   make(chan struct{}),
	}
	go c.readLoop(t.in)
	return c, nil
}

// lineConn is one session's connection. A goroutine reads lines so that
// Read can return as soon as the connection is closed; like the SDK's, it
// may stay blocked in the reader's Read after Close.
type lineConn struct {
	out     io.Writer
	writeMu sync.Mutex
	maxLine int
	stop    <-chan struct{}

	incoming chan jsonrpc.Message // closed after readErr is set
	readErr  error
	closed   chan struct{}
	once     sync.Once

	// pending counts the calls read and not answered yet (the JSON-RPC
	// layer answers every call exactly once, and only calls get
	// responses). At the end of input the reader waits for their answers,
	// at most drainTimeout, before it reports io.EOF: the JSON-RPC layer
	// cancels calls in flight when reading stops, so a client that writes
	// its requests and closes its end (printf ... | acore-semantic mcp)
	// would otherwise lose answers.
	mu      sync.Mutex
	pending int
	drained chan struct{} // closed when pending drops to zero
}

var _ sdk.Connection = (*lineConn)(nil)

// Read implements sdk.Connection.
func (c *lineConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case msg, ok := <-c.incoming:
		if !ok {
			return nil, c.readErr
		}
		return msg, nil
	case <-c.closed:
		return nil, io.EOF
	}
}

// Write implements sdk.Connection. It may be called concurrently.
func (c *lineConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return err
	}
	err = c.writeLine(data)
	if _, ok := msg.(*jsonrpc.Response); ok {
		c.answered()
		select {
		case <-c.stop: // the service must exit: end the session
			c.Close()
		default:
		}
	}
	return err
}

// Close implements sdk.Connection. It does not close the reader or the
// writer, which belong to the caller.
func (c *lineConn) Close() error {
	c.once.Do(func() { close(c.closed) })
	return nil
}

// SessionID implements sdk.Connection: stdio has no session id.
func (c *lineConn) SessionID() string { return "" }

func (c *lineConn) writeLine(data []byte) error {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	buf := make([]byte, 0, len(data)+1)
	buf = append(append(buf, data...), '\n')
	_, err := c.out.Write(buf)
	return err
}

func (c *lineConn) readLoop(in io.Reader) {
	defer close(c.incoming)
	r := bufio.NewReaderSize(in, 64<<10)
	for {
		line, err := readLine(r, c.maxLine)
		if errors.Is(err, errLineTooLong) {
			c.writeError(nil, jsonrpc.CodeInvalidRequest,
				fmt.Sprintf("Invalid Request: the message is longer than %d bytes", c.maxLine))
			continue
		}
		if line = bytes.TrimSpace(line); len(line) > 0 {
			if !c.handleLine(line) {
				c.readErr = io.EOF
				return
			}
		}
		if err != nil {
			if err == io.EOF {
				c.waitAnswered()
			}
			c.readErr = err
			return
		}
	}
}

// handleLine answers a line that is not a JSON-RPC message, or passes the
// message on. It reports false when the connection is closed.
func (c *lineConn) handleLine(line []byte) bool {
	if !json.Valid(line) {
		var v any
		err := json.Unmarshal(line, &v) // for the message
		c.writeError(nil, jsonrpc.CodeParseError, "Parse error: "+err.Error())
		return true
	}
	if line[0] == '[' {
		c.writeError(nil, jsonrpc.CodeInvalidRequest, "Invalid Request: JSON-RPC batches are not supported; send one message per line")
		return true
	}
	msg, err := jsonrpc.DecodeMessage(line)
	if err != nil {
		c.writeError(requestID(line), jsonrpc.CodeInvalidRequest, "Invalid Request: "+err.Error())
		return true
	}
	if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() {
		c.mu.Lock()
		c.pending++
		c.mu.Unlock()
	}
	select {
	case c.incoming <- msg:
		return true
	case <-c.closed:
		return false
	}
}

func (c *lineConn) answered() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.pending > 0 {
		c.pending--
	}
	if c.pending == 0 && c.drained != nil {
		close(c.drained)
		c.drained = nil
	}
}

// drainTimeout bounds the wait for answers at the end of input.
const drainTimeout = 2 * protocol.TimeoutMS * time.Millisecond

// waitAnswered waits until every call read has been answered, the
// connection is closed or drainTimeout has passed.
func (c *lineConn) waitAnswered() {
	c.mu.Lock()
	if c.pending == 0 {
		c.mu.Unlock()
		return
	}
	ch := make(chan struct{})
	c.drained = ch
	c.mu.Unlock()
	t := time.NewTimer(drainTimeout)
	defer t.Stop()
	select {
	case <-ch:
	case <-c.closed:
	case <-t.C:
	}
}

// writeError writes a JSON-RPC error response the JSON-RPC layer never
// saw. id is nil (written as null) when the message's id is unknown.
func (c *lineConn) writeError(id any, code int64, message string) {
	data, err := json.Marshal(struct {
		JSONRPC string `json:"jsonrpc"`
		ID      any    `json:"id"`
		Error   struct {
			Code    int64  `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: "2.0", ID: id, Error: struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	}{code, message}})
	if err != nil {
		return
	}
	_ = c.writeLine(data)
}

// requestID returns the id of a JSON object that is not a valid JSON-RPC
// message, when it has a string or number id, or nil.
func requestID(line []byte) any {
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(line, &m) != nil || len(m.ID) == 0 {
		return nil
	}
	var s string
	if json.Unmarshal(m.ID, &s) == nil {
		return s
	}
	var n json.Number
	if json.Unmarshal(m.ID, &n) == nil {
		return n
	}
	return nil
}

var errLineTooLong = errors.New("line too long")

// readLine reads one line without its newline, discarding the rest of a
// line longer than max bytes (errLineTooLong).
func readLine(r *bufio.Reader, max int) ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if len(line)+len(chunk) > max+1 {
			for err == bufio.ErrBufferFull {
				_, err = r.ReadSlice('\n')
			}
			if err == nil || err == io.EOF {
				return nil, errLineTooLong
			}
			return nil, err
		}
		line = append(line, chunk...)
		if err == bufio.ErrBufferFull {
			continue
		}
		return line, err
	}
}
