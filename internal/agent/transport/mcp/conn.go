package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/axiomcore/acore/internal/agent/protocol"
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
//
// Each call's answer carries the id exactly as the client wrote it, and
// every call is answered, even one sent while another with the same id
// runs (see lineConn.calls). A call with id null, which MCP forbids and
// the SDK would take for a notification, is answered invalid request.
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

	// calls holds the calls read and not answered yet, by the id this
	// connection gave each: the client's id as it was sent. The SDK's
	// JSON-RPC layer reads an id into an int64 or a string (1.5 became 1,
	// 2^70 a negative number) and drops a second call while one with the
	// same id is in flight, so every call gets an id of ours, unique in the
	// session, and its answer gets the client's id back byte for byte.
	//
	// The JSON-RPC layer answers every call exactly once. At the end of
	// input the reader waits for the answers, at most drainTimeout, before
	// it reports io.EOF: the JSON-RPC layer cancels calls in flight when
	// reading stops, so a client that writes its requests and closes its
	// end (printf ... | acore-semantic mcp) would otherwise lose answers.
	mu      sync.Mutex
	nextID  int64
	calls   map[string]json.RawMessage
	drained chan struct{} // closed when calls becomes empty
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
	resp, isResp := msg.(*jsonrpc.Response)
	if isResp {
		if clientID := c.clientID(resp.ID); clientID != nil {
			if data, err = withID(data, clientID); err != nil {
				return err
			}
		}
	}
	err = c.writeLine(data)
	if isResp {
		// Only once written: the reader may end the session when the last
		// call is answered.
		c.answered(resp.ID)
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
	msgs := []jsonrpc.Message{msg}
	if req, ok := msg.(*jsonrpc.Request); ok {
		var top map[string]json.RawMessage
		_ = json.Unmarshal(line, &top) // valid: DecodeMessage read it
		id, hasID := top["id"]
		switch {
		case hasID && bytes.Equal(bytes.TrimSpace(id), []byte("null")):
			// The SDK would take it for a notification and never answer.
			c.writeError(nil, jsonrpc.CodeInvalidRequest, "Invalid Request: the id of a request must be a string or a number, not null")
			return true
		case req.IsCall():
			req.ID = c.track(id)
		case req.Method == methodCancelled:
			if msgs = c.retarget(req); len(msgs) == 0 {
				return true // no call of ours in flight has that id
			}
		}
	}
	for _, m := range msgs {
		select {
		case c.incoming <- m:
		case <-c.closed:
			return false
		}
	}
	return true
}

const methodCancelled = "notifications/cancelled"

// track records a call in flight with the client's id and returns the id
// the JSON-RPC layer sees instead.
func (c *lineConn) track(clientID json.RawMessage) jsonrpc.ID {
	var compact bytes.Buffer
	if json.Compact(&compact, clientID) != nil {
		compact.Write(clientID)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.nextID++
	if c.calls == nil {
		c.calls = map[string]json.RawMessage{}
	}
	ours := strconv.FormatInt(c.nextID, 10)
	c.calls[ours] = compact.Bytes()
	id, _ := jsonrpc.MakeID(ours) // a string is always an id
	return id
}

// retarget turns a client's cancellation of its id into one for each call
// in flight with that id, under the ids of this connection.
func (c *lineConn) retarget(req *jsonrpc.Request) []jsonrpc.Message {
	var params map[string]json.RawMessage
	if json.Unmarshal(req.Params, &params) != nil || params == nil {
		return []jsonrpc.Message{req} // the SDK reports what is wrong with it
	}
	var want bytes.Buffer
	if json.Compact(&want, params["requestId"]) != nil {
		return nil
	}
	c.mu.Lock()
	var ours []string
	for id, raw := range c.calls {
		if bytes.Equal(raw, want.Bytes()) {
			ours = append(ours, id)
		}
	}
	c.mu.Unlock()
	var out []jsonrpc.Message
	for _, id := range ours {
		params["requestId"], _ = json.Marshal(id)
		p, err := json.Marshal(params)
		if err != nil {
			continue
		}
		out = append(out, &jsonrpc.Request{Method: req.Method, Params: p})
	}
	return out
}

// clientID returns the id the client gave the call a response answers, or
// nil when the response answers no call the client made.
func (c *lineConn) clientID(id jsonrpc.ID) json.RawMessage {
	ours, _ := id.Raw().(string)
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.calls[ours]
}

// answered ends the call a response answers.
func (c *lineConn) answered(id jsonrpc.ID) {
	ours, ok := id.Raw().(string)
	if !ok {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.calls[ours]; !ok {
		return
	}
	delete(c.calls, ours)
	if len(c.calls) == 0 && c.drained != nil {
		close(c.drained)
		c.drained = nil
	}
}

// withID returns an encoded response with its id replaced by id, as the
// client wrote it.
func withID(data []byte, id json.RawMessage) ([]byte, error) {
	var wire struct {
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(data, &wire); err != nil {
		return nil, err
	}
	out := append([]byte(`{"jsonrpc":"2.0","id":`), id...)
	if wire.Error != nil {
		out = append(append(out, `,"error":`...), wire.Error...)
	} else {
		out = append(append(out, `,"result":`...), wire.Result...)
	}
	return append(out, '}'), nil
}

// drainTimeout bounds the wait for answers at the end of input.
const drainTimeout = 2 * protocol.TimeoutMS * time.Millisecond

// waitAnswered waits until every call read has been answered, the
// connection is closed or drainTimeout has passed.
func (c *lineConn) waitAnswered() {
	c.mu.Lock()
	if len(c.calls) == 0 {
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
