package service

import (
	"slices"

	"github.com/axiomcore/acore/internal/lang/catalog"
	"github.com/axiomcore/acore/internal/lang/graph"
)

// Language is what an agent needs to write the sources of one profile
// without docs/language.md: its element catalog, and the node kinds and
// edge kinds its graph answers name. capabilities returns it (languages)
// and MCP offers it as a resource.
type Language struct {
	Profile        string            `json:"profile"`
	CatalogVersion string            `json:"catalog_version"`
	Elements       []LanguageElement `json:"elements"`
	NodeKinds      []string          `json:"node_kinds"`
	EdgeKinds      []LanguageEdge    `json:"edge_kinds"`
}

// LanguageElement is one built-in element of the catalog.
type LanguageElement struct {
	Name string `json:"name"`
	Doc  string `json:"doc"`
	// Primary is the property an unnamed first argument sets.
	Primary string `json:"primary,omitempty"`
	// Children is what its { } block holds: none, elements (elements and
	// conditionals), item_template ({ item => ... }, required) or runs
	// (inline runs of a Text: Text, Strong, Emphasis).
	Children   string             `json:"children"`
	Properties []LanguageProperty `json:"properties"`
}

// LanguageProperty is one property of an element.
type LanguageProperty struct {
	Name     string `json:"name"`
	Type     string `json:"type"`
	Required bool   `json:"required,omitempty"`
	// Values are the values a String allows (any when absent); Min is
	// the smallest Int allowed.
	Values []string `json:"values,omitempty"`
	Min    *int64   `json:"min,omitempty"`
	Doc    string   `json:"doc"`
}

// LanguageEdge is one edge kind; Dependency marks the relations graph.query
// and impact.analyze follow when no edge kinds are named.
type LanguageEdge struct {
	Kind       string `json:"kind"`
	Dependency bool   `json:"dependency"`
}

// ProfileLanguage is the language of the acore-ui profile, this build's
// one profile. Callers must not modify it.
var ProfileLanguage = func() Language {
	l := Language{Profile: "acore-ui", CatalogVersion: catalog.Version, NodeKinds: slices.Clone(graph.Kinds)}
	children := map[catalog.Children]string{catalog.NoChildren: "none", catalog.AnyChildren: "elements", catalog.ItemTemplate: "item_template", catalog.Runs: "runs"}
	for _, e := range catalog.All() {
		le := LanguageElement{Name: e.Name, Doc: e.Doc, Primary: e.Primary, Children: children[e.Children], Properties: []LanguageProperty{}}
		for _, p := range e.Props {
			lp := LanguageProperty{Name: p.Name, Type: string(p.Type), Required: p.Required, Values: p.Values, Doc: p.Doc}
			if p.HasMin {
				lp.Min = &p.Min
			}
			le.Properties = append(le.Properties, lp)
		}
		l.Elements = append(l.Elements, le)
	}
	for _, k := range graph.EdgeKinds {
		l.EdgeKinds = append(l.EdgeKinds, LanguageEdge{Kind: k, Dependency: slices.Contains(graph.DependencyKinds, k)})
	}
	return l
}()
