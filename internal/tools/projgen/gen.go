// Package gen generates deterministic Acore UI projects of a chosen size
// for benchmarks and soak tests. Every generated project compiles to the
// validated state, so benchmarks measure the work real projects cause.
package projgen

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/axiomcore/acore/internal/lang/prepare"
)

// Contract is the backend contract every generated page uses.
const Contract = `contract Store audience "web" {
  model Item {
    id: String
    title: String
    price: Float
    stock: Int
    active: Bool
  }

  query list_items(): [Item]
  query get_item(id: String): Item?
  mutation create_item(title: String, price: Float = 0.0): Item
  mutation delete_item(id: String): Bool
}
`

// Project returns the files of a project with the given number of .acore
// files (at least 1) whose sources total about totalBytes. Keys are
// project-relative paths; contracts/store.axiom is included, the lock is
// not (prepare the project to write it).
func Project(files, totalBytes int) map[string][]byte {
	if files < 1 {
		files = 1
	}
	per := totalBytes / files
	out := map[string][]byte{"contracts/store.axiom": []byte(Contract)}
	var routes []string
	for i := 1; i < files; i++ {
		src, pages := module(i, per)
		out[fmt.Sprintf("pages/p%d.acore", i)] = src
		routes = append(routes, pages...)
	}
	// main.acore holds the app and imports nothing: pages reach each other
	// through routes, and components through use lines within their file.
	var b strings.Builder
	b.WriteString("module gen.main\n\nuse contract Store from \"store\" audience \"web\"\n\n")
	mainBody, mainPages := pagesBody(0, per-64*len(routes)-200)
	routes = append(mainPages, routes...)
	b.WriteString("app Generated {\n")
	for _, p := range routes {
		fmt.Fprintf(&b, "  route \"/%s\" => %s\n", strings.ToLower(p), p)
	}
	b.WriteString("}\n\n")
	b.WriteString(mainBody)
	out["main.acore"] = []byte(b.String())
	return out
}

func module(i, size int) ([]byte, []string) {
	var b strings.Builder
	fmt.Fprintf(&b, "module gen.p%d\n\nuse contract Store from \"store\" audience \"web\"\n\n", i)
	body, pages := pagesBody(i, size-b.Len())
	b.WriteString(body)
	return []byte(b.String()), pages
}

// pagesBody writes pages (each with a component) until size bytes.
func pagesBody(file, size int) (string, []string) {
	var b strings.Builder
	var pages []string
	for k := 0; ; k++ {
		name := fmt.Sprintf("P%d_%d", file, k)
		comp := fmt.Sprintf("Card%d_%d", file, k)
		page := fmt.Sprintf(`component %[2]s(item: Item, on_open: Action) {
  state expanded: Bool = false

  action toggle() {
    expanded = !expanded
  }

  view {
    Column(gap: 4, padding: 8) {
      Row(gap: 8, align: "center") {
        Text(item.title, style: "subtitle")
        Text("" + item.price, style: "caption")
        Button(label: "Open", on_press: on_open, variant: "link")
      }
      if expanded {
        Text("In stock: " + item.stock)
        Button(label: "Less", on_press: toggle, variant: "secondary")
      } else {
        Button(label: "More", on_press: toggle, variant: "secondary")
      }
    }
  }
}

page %[1]s {
  state draft: String = ""
  state price: Float = 0.0
  state selected: String? = null
  state count: Int = 0
  query items = Store.list_items()
  mutation create = Store.create_item(title: draft, price: price)

  action submit() {
    create.run()
    draft = ""
    count = count + 1
    items.refresh()
  }

  action open(id: String) {
    selected = id
  }

  view {
    Column(gap: 12, padding: 16) {
      Text("Items of %[1]s", style: "title")
      Row(gap: 8) {
        Input(value: draft, placeholder: "New item", max_length: 80)
        Button(label: "Add", on_press: submit, disabled: draft.is_empty)
      }
      Text("Added " + count + " items")
      if items.pending { Spinner(label: "Loading items") }
      else if items.error { Text("Could not load items", color: "red") }
      else {
        List(items: items.data, key: |it| it.id, list_type: "single", span_count: 1, scroll_orientation: "vertical") { it =>
          %[2]s(item: it, on_open: || open(it.id))
        }
      }
    }
  }
}

`, name, comp)
		if k > 0 && b.Len()+len(page) > size {
			break
		}
		b.WriteString(page)
		pages = append(pages, name)
	}
	return b.String(), pages
}

// Write lays files out under dir and prepares the project (development
// contracts and UI lock), ready to compile.
func Write(dir string, files map[string][]byte) error {
	for p, data := range files {
		abs := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(abs, data, 0o644); err != nil {
			return err
		}
	}
	_, err := prepare.Run(dir)
	return err
}

// NestDepth is how deep the shared component of a Wide project nests
// components: SharedCard renders Nest1, which renders Nest2, and so on,
// the deepest ones declared in components/leaf.acore.
const NestDepth = 12

// Wide returns the files of a project shaped unlike Project's: files-3
// screen modules (at least one) under screens/, each importing the shared
// component SharedCard from components/shared.acore and declaring many
// small task-app-like pages, so that main.acore's app routes thousands of
// pages; SharedCard nests NestDepth components deep, across two modules.
// Sources total about totalBytes. Page k of screen m is S<m>_<k>; its
// view is laid out as Project's pages are, so element
// S<m>_<k>/view/0/1/1 is its Add button.
func Wide(files, totalBytes int) map[string][]byte {
	screens := max(1, files-3)
	out := map[string][]byte{
		"contracts/store.axiom":   []byte(Contract),
		"components/shared.acore": nested("gen.shared", 0, NestDepth/2, `use component Nest`+fmt.Sprint(NestDepth/2)+` from "leaf"`+"\n"),
		"components/leaf.acore":   nested("gen.leaf", NestDepth/2, NestDepth, ""),
	}
	// Each route line is about 30 bytes and each page about 700: the
	// route table takes its share of the total.
	per := (totalBytes - 4<<10) / screens
	var routes []string
	for m := 1; m <= screens; m++ {
		var b strings.Builder
		fmt.Fprintf(&b, "module gen.s%d\n\nuse contract Store from \"store\" audience \"web\"\nuse component SharedCard from \"../components/shared\"\n\n", m)
		for k := 0; ; k++ {
			name := fmt.Sprintf("S%d_%d", m, k)
			page := fmt.Sprintf(widePage, name)
			if k > 0 && b.Len()+len(page)+(k+1)*(len(name)+20) > per {
				break
			}
			b.WriteString(page)
			routes = append(routes, name)
		}
		out[fmt.Sprintf("screens/s%d.acore", m)] = []byte(b.String())
	}
	var b strings.Builder
	b.WriteString("module gen.main\n\napp Generated {\n")
	for _, p := range routes {
		fmt.Fprintf(&b, "  route \"/%s\" => %s\n", strings.ToLower(p), p)
	}
	b.WriteString("}\n")
	out["main.acore"] = []byte(b.String())
	return out
}

const widePage = `page %[1]s {
  state draft: String = ""
  query items = Store.list_items()
  mutation create = Store.create_item(title: draft)

  action submit() {
    create.run()
    draft = ""
  }

  view {
    Column(gap: 12, padding: 16) {
      Text("Screen %[1]s", style: "title")
      Row(gap: 8) {
        Input(value: draft, placeholder: "New item")
        Button(label: "Add", on_press: submit)
      }
      if items.pending { Spinner(label: "Loading") }
      else { List(items: items.data, key: |it| it.id, list_type: "single", span_count: 1, scroll_orientation: "vertical") { it => SharedCard(item: it) } }
    }
  }
}

`

// nested declares the components of levels from to to-1 of the shared
// card's nesting (level 0 is SharedCard, level i>0 Nest<i>), each
// rendering the next; the deepest level renders text only, and the last
// one declared here renders the next module's first.
func nested(module string, from, to int, use string) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "module %s\n\nuse contract Store from \"store\" audience \"web\"\n%s\n", module, use)
	name := func(i int) string {
		if i == 0 {
			return "SharedCard"
		}
		return fmt.Sprintf("Nest%d", i)
	}
	for i := from; i < to; i++ {
		inner := fmt.Sprintf("%s(item: item)", name(i+1))
		if i+1 == NestDepth {
			inner = `Text("In stock: " + item.stock)`
		}
		fmt.Fprintf(&b, `component %s(item: Item) {
  view {
    Column(gap: 4) {
      Text(item.title, style: "caption")
      %s
    }
  }
}

`, name(i), inner)
	}
	return []byte(b.String())
}
