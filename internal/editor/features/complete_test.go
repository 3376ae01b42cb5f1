package features

import "testing"

// The scan of the text before a cursor reads any text, at any offset,
// without a panic, and names the innermost call it is in.
func FuzzScan(f *testing.F) {
	f.Add([]byte(`Button("Save", on_press: || add(title: draft)) // x`), 15)
	f.Add([]byte(`Text("a \" ( b", style: "`), 24)
	f.Add([]byte(`Books.create_book(`), 18)
	f.Fuzz(func(t *testing.T, text []byte, off int) {
		if off < 0 || off > len(text) {
			return
		}
		s := scan(text, off)
		for _, fr := range s.frames {
			if fr.pos < 0 || fr.pos >= off {
				t.Fatalf("a frame at %d for a cursor at %d", fr.pos, off)
			}
		}
		atArgName(text, 0, off)
	})
}

func TestScan(t *testing.T) {
	for _, c := range []struct {
		text     string
		callee   string
		last     string
		commas   int
		inString bool
	}{
		{`Button("Save", on_press: `, "Button", "on_press", 1, false},
		{`Text("a, (b", style: "cap`, "Text", "style", 1, true},
		{`query q = Books.list_books(sort: x, `, "Books.list_books", "", 1, false},
		{`Row { Text(`, "Text", "", 0, false},
		{`Text(f(x), `, "Text", "", 1, false},
		{"Text( // (\n", "Text", "", 0, false},
	} {
		s := scan([]byte(c.text), len(c.text))
		top := s.top()
		if top == nil || top.callee != c.callee || top.last != c.last || top.commas != c.commas || s.inString != c.inString {
			t.Errorf("%q: %+v in string %v", c.text, top, s.inString)
		}
	}
}

// TestScanApp: the `(` after `app Name` is the app's arguments, and no
// other call's.
func TestScanApp(t *testing.T) {
	for _, c := range []struct {
		text string
		app  bool
	}{
		{`app Shelf(`, true},
		{"module m\n\napp  Shelf (routing: \"hash\", ", true},
		{`app Shelf(theme: "`, true},
		{`page Home(`, false},
		{`happ Shelf(`, false},
		{`Text(app, Shelf(`, false},
		{`Books.app(`, false},
	} {
		s := scan([]byte(c.text), len(c.text))
		if top := s.top(); top == nil || top.app != c.app {
			t.Errorf("%q: %+v, want app %v", c.text, top, c.app)
		}
	}
}
