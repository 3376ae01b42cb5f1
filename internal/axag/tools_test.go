package axag

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"reflect"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestToolsMCP: every tool definition is one the official MCP SDK's Tool
// type accepts field for field (no field of ours unknown to it, none lost
// on the way back), that its server registers without complaint, and that
// a client lists unchanged.
func TestToolsMCP(t *testing.T) {
	web, _ := scanCorpus(t)
	contract, _ := ManifestFor(openCase(t, "contract"), Options{})
	for name, m := range map[string]*Manifest{"web": web, "contract": contract} {
		reg := Tools(m)
		if len(reg.Tools) == 0 {
			t.Fatalf("%s: no tools", name)
		}
		var logs bytes.Buffer
		server := mcp.NewServer(&mcp.Implementation{Name: "axag-test", Version: "1"},
			&mcp.ServerOptions{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
		want := map[string]any{}
		for _, tool := range reg.Tools {
			ours, err := json.Marshal(tool)
			if err != nil {
				t.Fatal(err)
			}
			dec := json.NewDecoder(bytes.NewReader(ours))
			dec.DisallowUnknownFields()
			var st mcp.Tool
			if err := dec.Decode(&st); err != nil {
				t.Fatalf("%s: mcp.Tool does not accept %s: %v", name, ours, err)
			}
			back, err := json.Marshal(&st)
			if err != nil {
				t.Fatal(err)
			}
			if !sameJSON(t, ours, back) {
				t.Errorf("%s: %s changed through mcp.Tool:\n%s\n%s", name, tool.Name, ours, back)
			}
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Errorf("%s: AddTool %s: %v", name, tool.Name, r)
					}
				}()
				server.AddTool(&st, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
					return &mcp.CallToolResult{}, nil
				})
			}()
			var v any
			_ = json.Unmarshal(ours, &v)
			want[tool.Name] = v
		}
		if logs.Len() > 0 {
			t.Errorf("%s: the server logged:\n%s", name, logs.String())
		}
		ctx := context.Background()
		st, ct := mcp.NewInMemoryTransports()
		ss, err := server.Connect(ctx, st, nil)
		if err != nil {
			t.Fatal(err)
		}
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "1"}, nil).Connect(ctx, ct, nil)
		if err != nil {
			t.Fatal(err)
		}
		res, err := cs.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Tools) != len(reg.Tools) {
			t.Errorf("%s: listed %d tools, want %d", name, len(res.Tools), len(reg.Tools))
		}
		for _, lt := range res.Tools {
			got, _ := json.Marshal(lt)
			var v any
			_ = json.Unmarshal(got, &v)
			if !reflect.DeepEqual(v, want[lt.Name]) {
				t.Errorf("%s: listed %s differs:\n%s", name, lt.Name, got)
			}
		}
		cs.Close()
		ss.Wait()
	}
}

// TestToolsSafetyFacts: every safety fact of the manifest reaches the
// tool, undeclared booleans are false, and the facts an agent must not
// miss are in the description.
func TestToolsSafetyFacts(t *testing.T) {
	m, _ := ManifestFor(openCase(t, "contract"), Options{})
	reg := Tools(m)
	tools := map[string]Tool{}
	for _, tool := range reg.Tools {
		tools[tool.Name] = tool
	}
	refund := tools["order_refund"]
	md := refund.Metadata
	if md.ActionType != "write" || md.RiskLevel != "critical" || !*md.ConfirmationRequired || !*md.ApprovalRequired || *md.Idempotent ||
		md.ApprovalRoles == nil || strings.Join(*md.ApprovalRoles, ",") != "finance_manager" ||
		md.RequiredRoles == nil || strings.Join(*md.RequiredRoles, ",") != "support" ||
		md.Scope != "tenant" || md.TenantBoundary != "strict" || md.SideEffects == nil || len(*md.SideEffects) != 1 {
		t.Errorf("order_refund metadata %+v", md)
	}
	for _, w := range []string{"Refunds an order", "risk critical", "the user must confirm before it runs", "it needs approval by finance_manager", "only for the roles support", "do not retry"} {
		if !strings.Contains(refund.Description, w) {
			t.Errorf("order_refund description %q lacks %q", refund.Description, w)
		}
	}
	if a := refund.Annotations; a.ReadOnlyHint || a.DestructiveHint == nil || !*a.DestructiveHint || a.IdempotentHint {
		t.Errorf("order_refund annotations %+v", a)
	}
	list := tools["order_list"]
	if a := list.Annotations; !a.ReadOnlyHint || a.DestructiveHint != nil || !a.IdempotentHint {
		t.Errorf("order_list annotations %+v", a)
	}
	if *list.Metadata.ConfirmationRequired || *list.Metadata.ApprovalRequired || !strings.HasSuffix(list.Description, " Safety: only for the roles support, lead.") {
		t.Errorf("order_list %+v", list)
	}
	// The JSON carries the undeclared booleans as false, and an MCP
	// tools/list result's shape.
	data, err := json.Marshal(reg)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{`{"_meta":{"axag/version":"1.1.0"},"tools":[`, `"axag/confirmation_required":false`, `"axag/approval_required":false`, `"inputSchema":`} {
		if !bytes.Contains(data, []byte(w)) {
			t.Errorf("registry lacks %s:\n%s", w, data)
		}
	}
	var back ToolRegistry
	if err := json.Unmarshal(data, &back); err != nil || back.Version != Version110 || len(back.Tools) != len(reg.Tools) {
		t.Errorf("round trip %v %+v", err, back)
	}
	var res mcp.ListToolsResult
	if err := json.Unmarshal(data, &res); err != nil || len(res.Tools) != len(reg.Tools) || res.Meta["axag/version"] != Version110 {
		t.Errorf("as mcp.ListToolsResult: %v %+v", err, res)
	}
}

func sameJSON(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatal(err)
	}
	return reflect.DeepEqual(x, y)
}
