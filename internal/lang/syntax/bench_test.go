package syntax

import (
	"fmt"
	"strings"
	"testing"
)

// benchFiles generates realistic sources totalling at least size bytes:
// pages with many states, queries, mutations, actions and deep views.
// Each file stays within the bracket bounds, so the parse is complete.
func benchFiles(size int) [][]byte {
	var files [][]byte
	total := 0
	for n := 0; total < size; n++ {
		var b strings.Builder
		fmt.Fprintf(&b, "module bench.app%d.ui\n\nuse contract Shop from \"shop\" audience \"web\"\nuse component Card from \"./card.acore\"\n\n", n)
		for p := 0; p < 24; p++ {
			writeBenchPage(&b, n, p)
		}
		files = append(files, []byte(b.String()))
		total += b.Len()
	}
	return files
}

func writeBenchPage(b *strings.Builder, n, p int) {
	fmt.Fprintf(b, "// Page %d of file %d.\n@axag(intent: \"page %d\")\npage Page%d_%d {\n", p, n, p, n, p)
	for i := 0; i < 12; i++ {
		fmt.Fprintf(b, "  state field%d: String? = \"value %d \\u{1F600}\"\n", i, i)
		fmt.Fprintf(b, "  state count%d: Int = %d * (count%d + 1) - 2\n", i, i, i)
	}
	for i := 0; i < 6; i++ {
		fmt.Fprintf(b, "  query items%d = Shop.list_items(page: %d, size: 20, filter: field%d)\n", i, i, i)
		fmt.Fprintf(b, "  mutation save%d = Shop.save_item(title: field%d, count: count%d)\n", i, i, i)
	}
	b.WriteString("\n")
	for i := 0; i < 6; i++ {
		fmt.Fprintf(b, "  action submit%d(n: Int, label: String = \"x\") {\n", i)
		fmt.Fprintf(b, "    if count%d > n && !items%d.pending {\n      save%d.run()\n      count%d = count%d + 1\n    } else if items%d.error {\n      field%d = label\n    } else {\n      log(\"nothing\")\n    }\n  }\n\n", i, i, i, i, i, i, i)
	}
	b.WriteString("  view {\n")
	indent := "    "
	for d := 0; d < 8; d++ {
		fmt.Fprintf(b, "%sColumn(spacing: %d) {\n", indent, d)
		indent += "  "
		fmt.Fprintf(b, "%sText(\"level %d\")\n", indent, d)
		fmt.Fprintf(b, "%sif items%d.pending { Text(\"Loading...\") }\n", indent, d%6)
		fmt.Fprintf(b, "%selse { List(items: items%d.data, key: |it| it.id) { it => Card(title: it.title) } }\n", indent, d%6)
	}
	fmt.Fprintf(b, "%sButton(label: \"Go\", on_press: || submit0(1, \"go\"))\n", indent)
	for d := 7; d >= 0; d-- {
		indent = indent[:len(indent)-2]
		fmt.Fprintf(b, "%s}\n", indent)
	}
	b.WriteString("  }\n}\n\n")
}

func BenchmarkParse(b *testing.B) {
	files := benchFiles(4 << 20)
	total := 0
	for _, src := range files {
		total += len(src)
		if f := Parse("bench.acore", src); len(f.Errors) > 0 {
			e := f.Errors[0]
			b.Fatalf("generated source has errors: %v at %v", e, f.Position(int(e.Pos)))
		}
	}
	b.SetBytes(int64(total))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for _, src := range files {
			Parse("bench.acore", src)
		}
	}
}
