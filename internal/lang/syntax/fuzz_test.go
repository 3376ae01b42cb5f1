package syntax

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"
)

// addSeeds adds every testdata input to the fuzz corpus.
func addSeeds(f *testing.F) {
	for _, dir := range []string{"parse", "broken"} {
		for _, ext := range []string{"*.acore", "*.axiom"} {
			m, _ := filepath.Glob(filepath.Join("testdata", dir, ext))
			for _, path := range m {
				src, err := os.ReadFile(path)
				if err != nil {
					f.Fatal(err)
				}
				f.Add(src)
			}
		}
	}
	f.Add([]byte(""))
	f.Add([]byte("page P { view { if a { B } else if c { D } else { E } } }"))
	f.Add([]byte("}}}))"))
}

// FuzzParse holds the parser to its contract for any input: no panic, a
// lossless tree, and spans that nest.
func FuzzParse(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		file := Parse("fuzz.acore", src)
		if got := Print(file); !bytes.Equal(got, src) {
			t.Fatalf("Print differs from the source:\n got %q\nwant %q", got, src)
		}
		if err := checkTree(file); err != nil {
			t.Fatal(err)
		}
		if tree := ParseTree("fuzz.acore", src); tree.Tokens != nil || Dump(tree) != Dump(file) || !reflect.DeepEqual(tree.Errors, file.Errors) {
			t.Fatal("ParseTree differs from Parse")
		}
		for _, e := range file.Errors {
			if e.Pos < 0 || e.Pos > e.End || int(e.End) > len(src) {
				t.Fatalf("error span [%d,%d) outside the file (%d bytes): %s %s", e.Pos, e.End, len(src), e.Code, e.Msg)
			}
		}
	})
}

// FuzzLex checks that tokens and comments are ordered, do not overlap, and
// that every byte outside them is white space.
func FuzzLex(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		toks, comments := lex(src, nil, func(pos, end int, code, msg string) {
			if pos < 0 || pos > end || end > len(src) {
				t.Fatalf("lex error span [%d,%d) outside the file: %s", pos, end, code)
			}
		})
		if err := checkTokens(src, toks, comments); err != nil {
			t.Fatal(err)
		}
	})
}

func checkTokens(src []byte, toks []Token, comments []Comment) error {
	if len(toks) == 0 || toks[len(toks)-1].Kind != EOF || int(toks[len(toks)-1].Pos) != len(src) {
		return fmt.Errorf("tokens do not end with EOF at %d", len(src))
	}
	type piece struct{ pos, end int }
	var pieces []piece
	for _, t := range toks[:len(toks)-1] {
		if t.Kind == EOF {
			return fmt.Errorf("EOF token before the end at %d", t.Pos)
		}
		if t.End <= t.Pos {
			return fmt.Errorf("empty token %v at %d", t.Kind, t.Pos)
		}
		pieces = append(pieces, piece{int(t.Pos), int(t.End)})
	}
	for _, c := range comments {
		if c.End <= c.Pos {
			return fmt.Errorf("empty comment at %d", c.Pos)
		}
		pieces = append(pieces, piece{int(c.Pos), int(c.End)})
	}
	for i := 1; i < len(toks)-1; i++ {
		if toks[i].Pos < toks[i-1].End {
			return fmt.Errorf("token at %d overlaps the previous one ending at %d", toks[i].Pos, toks[i-1].End)
		}
	}
	sort.Slice(pieces, func(i, j int) bool { return pieces[i].pos < pieces[j].pos })
	at := 0
	if bytes.HasPrefix(src, []byte("\uFEFF")) {
		// The lexer skips a leading byte order mark (TestLeadingBOM).
		at = 3
	}
	for _, p := range pieces {
		if p.pos < at {
			return fmt.Errorf("token or comment at %d overlaps the previous one ending at %d", p.pos, at)
		}
		for i := at; i < p.pos; i++ {
			if c := src[i]; c != ' ' && c != '\t' && c != '\r' && c != '\n' {
				return fmt.Errorf("byte %q at %d is in no token or comment", c, i)
			}
		}
		if p.end > len(src) {
			return fmt.Errorf("piece [%d,%d) past the end", p.pos, p.end)
		}
		at = p.end
	}
	for i := at; i < len(src); i++ {
		if c := src[i]; c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			return fmt.Errorf("byte %q at %d is in no token or comment", c, i)
		}
	}
	return nil
}

var spanType = reflect.TypeOf(Span{})

// checkTree walks every node through reflection, as Dump does, so that new
// node types are covered without changing the test.
func checkTree(f *File) error {
	root := Span{0, int32(len(f.Src))}
	var top []reflect.Value
	if f.Module != nil {
		top = append(top, reflect.ValueOf(f.Module))
	}
	for _, u := range f.Uses {
		top = append(top, reflect.ValueOf(u))
	}
	for _, d := range f.Decls {
		top = append(top, reflect.ValueOf(d))
	}
	return checkChildren("file", root, top)
}

// nodeSpan returns the Span of a node value (pointer or interface).
func nodeSpan(v reflect.Value) (Span, string, bool) {
	for v.Kind() == reflect.Interface || v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return Span{}, "", false
		}
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return Span{}, "", false
	}
	sp := v.FieldByName("Span")
	if !sp.IsValid() || sp.Type() != spanType {
		return Span{}, "", false
	}
	return sp.Interface().(Span), v.Type().Name(), true
}

// children returns the node-valued fields of a node, in field order.
func children(v reflect.Value) (out [][]reflect.Value) {
	for v.Kind() == reflect.Interface || v.Kind() == reflect.Pointer {
		v = v.Elem()
	}
	for i := 0; i < v.NumField(); i++ {
		fv := v.Field(i)
		if v.Type().Field(i).Name == "Span" {
			continue
		}
		switch fv.Kind() {
		case reflect.Pointer, reflect.Interface:
			if _, _, ok := nodeSpan(fv); ok {
				out = append(out, []reflect.Value{fv})
			}
		case reflect.Slice:
			var list []reflect.Value
			for j := 0; j < fv.Len(); j++ {
				if _, _, ok := nodeSpan(fv.Index(j)); ok {
					list = append(list, fv.Index(j))
				}
			}
			out = append(out, list)
		}
	}
	return out
}

func checkChildren(parentName string, parent Span, kids []reflect.Value) error {
	type kid struct {
		sp   Span
		name string
		v    reflect.Value
	}
	var all []kid
	for _, k := range kids {
		sp, name, ok := nodeSpan(k)
		if !ok {
			continue
		}
		if sp.Pos < 0 || sp.Pos > sp.End {
			return fmt.Errorf("%s has a bad span [%d,%d)", name, sp.Pos, sp.End)
		}
		if sp.Pos < parent.Pos || sp.End > parent.End {
			return fmt.Errorf("%s [%d,%d) lies outside its parent %s [%d,%d)", name, sp.Pos, sp.End, parentName, parent.Pos, parent.End)
		}
		all = append(all, kid{sp, name, k})
	}
	// Fields are not always in source order (a contract keeps models and
	// operations apart), so siblings are compared in position order.
	sort.SliceStable(all, func(i, j int) bool { return all[i].sp.Pos < all[j].sp.Pos })
	for i := 1; i < len(all); i++ {
		if all[i].sp.Pos < all[i-1].sp.End {
			return fmt.Errorf("%s [%d,%d) overlaps its sibling %s [%d,%d) in %s", all[i].name, all[i].sp.Pos, all[i].sp.End, all[i-1].name, all[i-1].sp.Pos, all[i-1].sp.End, parentName)
		}
	}
	for _, k := range all {
		var grand []reflect.Value
		for _, list := range children(k.v) {
			for j := 1; j < len(list); j++ {
				a, _, _ := nodeSpan(list[j-1])
				b, n, _ := nodeSpan(list[j])
				if b.Pos < a.End {
					return fmt.Errorf("%s [%d,%d) is out of order in its list in %s", n, b.Pos, b.End, k.name)
				}
			}
			grand = append(grand, list...)
		}
		if err := checkChildren(k.name, k.sp, grand); err != nil {
			return err
		}
	}
	return nil
}

// TestTreeSpans runs the fuzz checks over the testdata corpus, so that
// plain go test holds them too.
func TestTreeSpans(t *testing.T) {
	for _, dir := range []string{"parse", "broken"} {
		for _, path := range goldenInputs(t, dir) {
			f := parseFile(t, path)
			if err := checkTree(f); err != nil {
				t.Errorf("%s: %v", path, err)
			}
			toks, comments := lex(f.Src, nil, func(int, int, string, string) {})
			if err := checkTokens(f.Src, toks, comments); err != nil {
				t.Errorf("%s: %v", path, err)
			}
		}
	}
}
