package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func errorOf(resp map[string]any) (code, reason, retryable string) {
	e, _ := resp["error"].(map[string]any)
	code, _ = e["code"].(string)
	reason, _ = e["reason"].(string)
	retryable, _ = e["retryable"].(string)
	return
}

func snapshotID(resp map[string]any) string {
	s, _ := resp["snapshot"].(map[string]any)
	id, _ := s["id"].(string)
	return id
}

// TestOverBoundSnapshot: a project over a load bound opens on a snapshot of
// its own, which a later process recognises: every read naming it answers
// resource_limit with the bound's reason and retryable none, never
// snapshot_expired (which sent clients to latest and back for ever). Once
// the project is back within the bound, the id is snapshot_expired and
// latest is a real capture.
func TestOverBoundSnapshot(t *testing.T) {
	padding := func(n int) string { return "module pad\n//" + strings.Repeat("x", n) + "\n" }
	cases := []struct {
		reason string
		over   map[string]string
	}{
		{"too_many_modules", func() map[string]string {
			m := map[string]string{}
			for i := range 65 {
				m[fmt.Sprintf("m%02d.acore", i)] = fmt.Sprintf("module m%02d\n", i)
			}
			return m
		}()},
		{"file_too_large", map[string]string{"big.acore": padding(2 << 20)}},
		{"sources_too_large", map[string]string{"a.acore": padding(1500 << 10), "b.acore": padding(1500 << 10), "c.acore": padding(1500 << 10)}},
		{"file_too_large", map[string]string{".axiom/ui.lock": "{" + strings.Repeat(" ", 3<<20) + "}"}},
	}
	for _, c := range cases {
		t.Run(c.reason, func(t *testing.T) {
			root := taskApp(t)
			for name, text := range c.over {
				p := filepath.Join(root, name)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			open := oneShot(t, root, `{"protocol": "axiom-agent-semantic/v1", "operation": "workspace.open", "params": {"roots": [{"path": "`+root+`"}]}}`)
			snap := snapshotID(open)
			if !strings.HasPrefix(snap, "snap-") || len(snap) != 37 {
				t.Fatalf("workspace.open names snapshot %q: %v", snap, open)
			}
			for _, req := range []string{
				`"operation": "project.overview", "snapshot": "` + snap + `", "params": {}`,
				`"operation": "node.find", "snapshot": "` + snap + `", "params": {"query": "Add", "limit": 5}`,
				`"operation": "node.get", "snapshot": "latest", "params": {"nodes": ["page:Home"]}`,
				`"operation": "changes.since", "snapshot": "` + snap + `", "params": {"since": "` + snap + `"}`,
			} {
				resp := oneShot(t, root, `{"protocol": "axiom-agent-semantic/v1", `+req+`}`)
				if code, reason, retry := errorOf(resp); code != "resource_limit" || reason != c.reason || retry != "none" || snapshotID(resp) != snap {
					t.Errorf("%s: %s %s %s on %s, want resource_limit %s none on %s", req, code, reason, retry, snapshotID(resp), c.reason, snap)
				}
			}
			for name := range c.over {
				if err := os.Remove(filepath.Join(root, name)); err != nil {
					t.Fatal(err)
				}
			}
			resp := oneShot(t, root, `{"protocol": "axiom-agent-semantic/v1", "operation": "project.overview", "snapshot": "`+snap+`", "params": {}}`)
			if code, _, retry := errorOf(resp); code != "snapshot_expired" || retry != "after_refresh" {
				t.Errorf("within the bound again: %s %s", code, retry)
			}
			resp = oneShot(t, root, `{"protocol": "axiom-agent-semantic/v1", "operation": "project.overview", "snapshot": "latest", "params": {}}`)
			if code, _, _ := errorOf(resp); code != "" || snapshotID(resp) == snap {
				t.Errorf("latest within the bound: %s on %s", code, snapshotID(resp))
			}
		})
	}
}

// TestRequestTooLargeSize: a request over request_max_bytes is reported as
// more than the bound, not as the bound plus one byte that was read.
func TestRequestTooLargeSize(t *testing.T) {
	root := taskApp(t)
	req := `{"protocol": "axiom-agent-semantic/v1", "operation": "capabilities", "params": {"x": "` + strings.Repeat("x", 10<<20) + `"}}`
	check := func(how string, resp map[string]any) {
		t.Helper()
		e, _ := resp["error"].(map[string]any)
		msg, _ := e["message"].(string)
		if code, reason, _ := errorOf(resp); code != "resource_limit" || reason != "request_too_large" ||
			strings.Contains(msg, "4194305") || !strings.Contains(msg, "more than request_max_bytes (4194304") {
			t.Errorf("%s: %s %s: %s", how, code, reason, msg)
		}
	}
	check("one-shot", oneShot(t, root, req))
	p := startLines(t, "serve", "--root", root)
	p.send(req)
	var resp map[string]any
	if err := json.Unmarshal(p.recv(), &resp); err != nil {
		t.Fatal(err)
	}
	check("serve", resp)
	p.close()
}
