// Command protodoc generates docs/protocol.md and docs/support-matrix.md
// from the published JSON Schemas and the capability manifest, so the
// tables the reference marks as generated never drift from the code. Run
// it with `go generate ./...` from the repository root; a test fails when
// the committed files are stale.
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/axiomcore/acore/internal/agent/protocol"
	"github.com/axiomcore/acore/internal/agent/schema"
	"github.com/axiomcore/acore/internal/agent/service"
)

//go:generate go run . -root ../../..

func main() {
	root := "."
	if len(os.Args) == 3 && os.Args[1] == "-root" {
		root = os.Args[2]
	}
	for name, gen := range map[string]func() (string, error){"docs/protocol.md": protocolDoc, "docs/support-matrix.md": supportMatrix} {
		text, err := gen()
		if err != nil {
			fmt.Fprintf(os.Stderr, "protodoc: %v\n", err)
			os.Exit(1)
		}
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			fmt.Fprintf(os.Stderr, "protodoc: %v\n", err)
			os.Exit(1)
		}
	}
}

type doc = map[string]any

// resolve follows a $ref to its definition, returning the target and the
// name of the definition it came from.
func resolve(from string, s doc) (doc, string, string) {
	ref, ok := s["$ref"].(string)
	if !ok {
		return s, "", from
	}
	file, frag, _ := strings.Cut(ref, "#")
	target := from
	if file != "" {
		target = filepath.ToSlash(filepath.Clean(filepath.Join(filepath.Dir(from), file)))
	}
	d, err := schema.Document(target)
	if err != nil {
		return s, "", from
	}
	cur, _ := d.(doc)
	name := ""
	for _, part := range strings.Split(strings.TrimPrefix(frag, "/"), "/") {
		if part == "" {
			continue
		}
		name = part
		next, _ := cur[part].(doc)
		cur = next
	}
	if cur == nil {
		return s, "", from
	}
	// Keep the referring schema's own keywords (its description).
	merged := doc{}
	for k, v := range cur {
		merged[k] = v
	}
	for k, v := range s {
		if k != "$ref" {
			merged[k] = v
		}
	}
	r, inner, file2 := resolve(target, merged)
	if inner != "" {
		name = inner
	}
	return r, name, file2
}

func num(v any) string {
	switch v := v.(type) {
	case float64:
		return fmt.Sprintf("%g", v)
	case json.Number:
		return v.String()
	}
	return fmt.Sprint(v)
}

// describe renders a schema's type as the reference's tables do.
func describe(file string, s doc) string {
	s, name, file := resolve(file, s)
	if c, ok := s["const"]; ok {
		b, _ := json.Marshal(c)
		return string(b)
	}
	if e, ok := s["enum"].([]any); ok {
		parts := make([]string, len(e))
		for i, v := range e {
			parts[i] = fmt.Sprint(v)
		}
		return strings.Join(parts, ", ")
	}
	for _, k := range []string{"oneOf", "anyOf"} {
		if alts, ok := s[k].([]any); ok {
			parts := make([]string, 0, len(alts))
			for _, a := range alts {
				if ad, ok := a.(doc); ok {
					parts = append(parts, describe(file, ad))
				}
			}
			return strings.Join(parts, " or ")
		}
	}
	typ := fmt.Sprint(s["type"])
	if ts, ok := s["type"].([]any); ok {
		parts := make([]string, len(ts))
		for i, t := range ts {
			parts[i] = fmt.Sprint(t)
		}
		typ = strings.Join(parts, " or ")
	}
	switch typ {
	case "string":
		if m, ok := s["maxLength"]; ok {
			return "string (at most " + num(m) + " characters)"
		}
		return "string"
	case "integer", "number":
		lo, hasLo := s["minimum"]
		hi, hasHi := s["maximum"]
		switch {
		case hasLo && hasHi:
			return typ + " (" + num(lo) + ".." + num(hi) + ")"
		case hasLo:
			return typ + " (" + num(lo) + "..)"
		}
		return typ
	case "array":
		items, _ := s["items"].(doc)
		out := "array"
		if items != nil {
			out += " of " + describe(file, items)
		}
		lo, hasLo := s["minItems"]
		hi, hasHi := s["maxItems"]
		switch {
		case hasLo && hasHi:
			out += ", " + num(lo) + " to " + num(hi) + " items"
		case hasLo:
			out += ", " + num(lo) + " to any items"
		case hasHi:
			out += ", 0 to " + num(hi) + " items"
		}
		return out
	case "object":
		if name != "" {
			return "object (" + name + ")"
		}
		return "object"
	case "<nil>":
		if name != "" {
			return name
		}
		return "any JSON value"
	}
	return typ
}

func fieldTable(b *bytes.Buffer, file string, s doc) {
	s, _, file = resolve(file, s)
	props, _ := s["properties"].(doc)
	req := map[string]bool{}
	if r, ok := s["required"].([]any); ok {
		for _, x := range r {
			req[fmt.Sprint(x)] = true
		}
	}
	names := orderedKeys(file, s, props)
	b.WriteString("| Field | Required | Type | Meaning |\n|---|---|---|---|\n")
	for _, n := range names {
		p, _ := props[n].(doc)
		r := "no"
		if req[n] {
			r = "yes"
		}
		desc := ""
		if d, ok := p["description"].(string); ok {
			desc = d
		} else if rp, _, _ := resolve(file, p); rp != nil {
			desc, _ = rp["description"].(string)
		}
		fmt.Fprintf(b, "| `%s` | %s | %s | %s |\n", n, r, escape(describe(file, p)), escape(desc))
	}
}

// orderedKeys keeps the schema file's own order of properties.
func orderedKeys(file string, s doc, props doc) []string {
	names := make([]string, 0, len(props))
	for n := range props {
		names = append(names, n)
	}
	raw, err := rawFile(file)
	if err != nil {
		sort.Strings(names)
		return names
	}
	sort.SliceStable(names, func(i, j int) bool {
		return bytes.Index(raw, []byte(`"`+names[i]+`"`)) < bytes.Index(raw, []byte(`"`+names[j]+`"`))
	})
	return names
}

func rawFile(file string) ([]byte, error) {
	d, err := schema.Document(file)
	if err != nil {
		return nil, err
	}
	return json.Marshal(d)
}

func escape(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "|", `\|`), "\n", " ")
}

func protocolDoc() (string, error) {
	var b bytes.Buffer
	b.WriteString("# Protocol tables\n\n<!-- Generated by internal/tools/protodoc from schemas/ and the capability manifest; do not edit. Run `go generate ./internal/tools/protodoc`. -->\n\n")
	env, err := schema.Document("envelope.request.json")
	if err != nil {
		return "", err
	}
	rules, _ := env.(doc)["x-envelope-fields"].(doc)
	b.WriteString("## Envelope fields per operation\n\n| Operation | workspace | snapshot | base_snapshot | request_id |\n|---|---|---|---|---|\n")
	for _, op := range schema.Operations() {
		r, _ := rules[op].(doc)
		fmt.Fprintf(&b, "| `%s` |", op)
		for _, f := range []string{"workspace", "snapshot", "base_snapshot", "request_id"} {
			fmt.Fprintf(&b, " %s |", strings.ReplaceAll(fmt.Sprint(r[f]), "_", " "))
		}
		b.WriteString("\n")
	}
	b.WriteString("\n## Operations\n")
	codeOps := map[string][]string{}
	for _, op := range schema.Operations() {
		fmt.Fprintf(&b, "\n### %s\n\n", op)
		rf, qf := schema.ResultFile(op), schema.RequestFile(op)
		req, err := schema.Document(qf)
		if err != nil {
			return "", err
		}
		res, err := schema.Document(rf)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "Params (`schemas/%s`):\n\n", qf)
		fieldTable(&b, qf, req.(doc))
		fmt.Fprintf(&b, "\nResult (`schemas/%s`):\n\n", rf)
		fieldTable(&b, rf, res.(doc))
		props, _ := res.(doc)["properties"].(doc)
		for _, n := range orderedKeys(rf, res.(doc), props) {
			p, _ := props[n].(doc)
			rp, _, pf := resolve(rf, p)
			if sub, ok := rp["properties"].(doc); ok && len(sub) > 0 {
				fmt.Fprintf(&b, "\n`%s` fields:\n\n", n)
				fieldTable(&b, pf, rp)
			}
		}
		codes, err := schema.Errors(op)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "\nError codes: %s.\n", strings.Join(codes, ", "))
		for _, c := range codes {
			codeOps[c] = append(codeOps[c], op)
		}
	}
	if err := editOperations(&b); err != nil {
		return "", err
	}
	b.WriteString("\n## Which operations can return each code\n\n| Code | Operations |\n|---|---|\n")
	for _, c := range protocol.ErrorCodes {
		ops := codeOps[c]
		list := strings.Join(ops, ", ")
		if len(ops) == len(schema.Operations()) {
			list = "every operation"
		}
		fmt.Fprintf(&b, "| `%s` | %s |\n", c, list)
	}
	m := service.Manifest()
	lim, _ := json.Marshal(m["limits"])
	var limits struct {
		Defaults protocol.Applied `json:"defaults"`
		Maximums protocol.Applied `json:"maximums"`
		Bounds   map[string]int64 `json:"bounds"`
	}
	if err := json.Unmarshal(lim, &limits); err != nil {
		return "", err
	}
	b.WriteString("\n## Limits\n\n| Request limit | Default | Maximum |\n|---|---|---|\n")
	for _, r := range []struct {
		n    string
		d, x int
	}{{"max_bytes", limits.Defaults.MaxBytes, limits.Maximums.MaxBytes}, {"max_depth", limits.Defaults.MaxDepth, limits.Maximums.MaxDepth},
		{"max_items", limits.Defaults.MaxItems, limits.Maximums.MaxItems}, {"max_nodes", limits.Defaults.MaxNodes, limits.Maximums.MaxNodes}} {
		fmt.Fprintf(&b, "| `%s` | %d | %d |\n", r.n, r.d, r.x)
	}
	b.WriteString("\n| Service bound | Value |\n|---|---|\n")
	boundRows(&b, limits.Bounds)
	return b.String(), nil
}

func supportMatrix() (string, error) {
	m := service.Manifest()
	var b bytes.Buffer
	b.WriteString("# Support matrix\n\n<!-- Generated by internal/tools/protodoc from the capability manifest; do not edit. -->\n\n")
	b.WriteString("## Operations\n\n| Operation | Status | Since | Param bounds |\n|---|---|---|---|\n")
	for _, o := range m["operations"].([]any) {
		o := o.(map[string]any)
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", o["name"], o["status"], o["since"], paramBounds(fmt.Sprint(o["name"])))
	}
	b.WriteString("\n## Edit families\n\n| Family | Status |\n|---|---|\n")
	for _, k := range m["edit_kinds"].([]any) {
		k := k.(map[string]any)
		fmt.Fprintf(&b, "| `%s` | %s |\n", k["kind"], k["status"])
	}
	b.WriteString("\n## Checks\n\n| Check | Status |\n|---|---|\n")
	for _, c := range m["checks"].([]any) {
		c := c.(map[string]any)
		fmt.Fprintf(&b, "| `%s` | %s |\n", c["name"], c["status"])
	}
	b.WriteString("\n## Publication\n")
	for _, p := range m["publication"].([]any) {
		p := p.(map[string]any)
		fmt.Fprintf(&b, "\n`%s`: %s. Guarantees and their limits:\n\n", p["profile"], p["status"])
		gs, _ := p["guarantees"].([]string)
		if gs == nil {
			for _, g := range p["guarantees"].([]any) {
				gs = append(gs, fmt.Sprint(g))
			}
		}
		for _, g := range gs {
			fmt.Fprintf(&b, "- %s\n", g)
		}
	}
	lim, _ := json.Marshal(m["limits"])
	var limits struct {
		Bounds map[string]int64 `json:"bounds"`
	}
	if err := json.Unmarshal(lim, &limits); err != nil {
		return "", err
	}
	b.WriteString("\n## Service bounds\n\n| Bound | Value |\n|---|---|\n")
	boundRows(&b, limits.Bounds)
	b.WriteString("\n## Language profiles\n\n| Profile | Status | Targets |\n|---|---|---|\n")
	for _, p := range m["profiles"].([]any) {
		p := p.(map[string]any)
		fmt.Fprintf(&b, "| `%s` | %s | %v |\n", p["name"], p["status"], p["targets"])
	}
	return b.String(), nil
}

// paramBounds lists the numeric and size bounds of an operation's params.
func paramBounds(op string) string {
	d, err := schema.Document(schema.RequestFile(op))
	if err != nil {
		return ""
	}
	props, _ := d.(doc)["properties"].(doc)
	var out []string
	for _, n := range orderedKeys(schema.RequestFile(op), d.(doc), props) {
		p, _ := props[n].(doc)
		p, _, _ = resolve(schema.RequestFile(op), p)
		lo, hasLo := p["minimum"]
		hi, hasHi := p["maximum"]
		ilo, hasILo := p["minItems"]
		ihi, hasIHi := p["maxItems"]
		switch {
		case hasLo && hasHi:
			out = append(out, fmt.Sprintf("`%s` %s..%s", n, num(lo), num(hi)))
		case hasIHi:
			l := "0"
			if hasILo {
				l = num(ilo)
			}
			out = append(out, fmt.Sprintf("`%s` %s to %s items", n, l, num(ihi)))
		}
	}
	return strings.Join(out, "; ")
}

// boundRows writes a table row for each service bound, by name.
func boundRows(b *bytes.Buffer, bounds map[string]int64) {
	for _, n := range slices.Sorted(maps.Keys(bounds)) {
		fmt.Fprintf(b, "| `%s` | %d |\n", n, bounds[n])
	}
}

// editOperations writes the shapes of change.propose's edit operations
// (edits.json's x-variants, each with its title) and the fields of a
// node.edits option, the two an agent builds edits from.
func editOperations(b *bytes.Buffer) error {
	d, err := schema.Document("edits.json")
	if err != nil {
		return err
	}
	defs, _ := d.(doc)["$defs"].(doc)
	op, _ := defs["editOperation"].(doc)
	variants, _ := op["x-variants"].([]any)
	b.WriteString("\n## Edit operations\n\nThe shapes of `operations` in change.propose and edit.plan (`schemas/edits.json`).\n")
	for _, v := range variants {
		rv, _, file := resolve("edits.json", v.(doc))
		fmt.Fprintf(b, "\n### %s\n\n", rv["title"])
		fieldTable(b, file, rv)
	}
	b.WriteString("\n### node.edits option\n\n")
	fieldTable(b, "edits.json", defs["editOption"].(doc))
	return nil
}
