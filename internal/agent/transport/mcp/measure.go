package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// ToolsListSize is what a tools/list answer costs a client: the bytes of
// its result as the server wrote them, in all and per tool. A client sends
// this list to the model with every request.
type ToolsListSize struct {
	Total int            `json:"total"`
	Tools map[string]int `json:"tools"` // by tool name
}

// MeasureToolsList connects the SDK's client over t, lists every tool
// (every page) and measures the results as they came over the wire.
func MeasureToolsList(ctx context.Context, t sdk.Transport) (ToolsListSize, error) {
	rec := &recorder{Transport: t}
	client := sdk.NewClient(&sdk.Implementation{Name: "acore-tools-list-size", Version: "1"}, nil)
	cs, err := client.Connect(ctx, rec, nil)
	if err != nil {
		return ToolsListSize{}, err
	}
	defer cs.Close()
	rec.start()
	var cursor string
	for {
		res, err := cs.ListTools(ctx, &sdk.ListToolsParams{Cursor: cursor})
		if err != nil {
			return ToolsListSize{}, err
		}
		if cursor = res.NextCursor; cursor == "" {
			break
		}
	}
	size := ToolsListSize{Tools: map[string]int{}}
	for _, raw := range rec.results() {
		var page struct {
			Tools []json.RawMessage `json:"tools"`
		}
		if err := json.Unmarshal(raw, &page); err != nil {
			return ToolsListSize{}, fmt.Errorf("tools/list result: %v", err)
		}
		size.Total += len(raw)
		for _, tool := range page.Tools {
			var named struct {
				Name string `json:"name"`
			}
			if err := json.Unmarshal(tool, &named); err != nil || named.Name == "" {
				return ToolsListSize{}, fmt.Errorf("tools/list: a tool without a name: %.80s", tool)
			}
			size.Tools[named.Name] += len(tool)
		}
	}
	return size, nil
}

// recorder is a transport that keeps the raw result of every response it
// reads once started: the client sends nothing else meanwhile.
type recorder struct {
	sdk.Transport
	mu  sync.Mutex
	on  bool
	raw []json.RawMessage
}

func (r *recorder) Connect(ctx context.Context) (sdk.Connection, error) {
	c, err := r.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &recordingConn{Connection: c, r: r}, nil
}

func (r *recorder) start() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.on = true
}

func (r *recorder) results() []json.RawMessage {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.raw
}

type recordingConn struct {
	sdk.Connection
	r *recorder
}

func (c *recordingConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if resp, ok := msg.(*jsonrpc.Response); ok && resp.Error == nil {
		c.r.mu.Lock()
		if c.r.on {
			c.r.raw = append(c.r.raw, append(json.RawMessage(nil), resp.Result...))
		}
		c.r.mu.Unlock()
	}
	return msg, err
}
