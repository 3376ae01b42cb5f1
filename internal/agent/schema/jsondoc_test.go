package schema

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"reflect"
	"strings"
	"testing"

	"github.com/axiomcore/acore/schemas"
	"github.com/axiomcore/acore/third_party/jsonschema"
)

// decodeDoc decodes every embedded schema file, and the cases below, as the
// library does.
func TestDecodeDocAsTheLibrary(t *testing.T) {
	var docs []string
	err := fs.WalkDir(schemas.FS, ".", func(p string, e fs.DirEntry, err error) error {
		if err == nil && !e.IsDir() && strings.HasSuffix(p, ".json") {
			b, err := fs.ReadFile(schemas.FS, p)
			if err != nil {
				return err
			}
			docs = append(docs, string(b))
		}
		return err
	})
	if err != nil || len(docs) < 39 {
		t.Fatalf("%d schema files: %v", len(docs), err)
	}
	docs = append(docs,
		`{}`, `[]`, ` [ 1 , -0 , 0.5 , -1.25e+10 , 3E-2 , 10 ] `, `"a\"b\\c\/d\b\f\n\r\t"`,
		`"\u00e9\u20ac\ud83d\ude00"`, `"\ud83d"`, `"\ud83dx"`, `"\ud83d\u0041"`, `"\ude00\ud83d"`, "\"caf\xc3\xa9 \xff\"",
		`{"a":1,"a":2}`, `{"a":{"b":[true,false,null,{}]}}`, `null`, `true`)
	for _, doc := range docs {
		want, err := jsonschema.UnmarshalJSON(strings.NewReader(doc))
		if err != nil {
			t.Fatalf("the library cannot decode %.60q: %v", doc, err)
		}
		got, err := decodeDoc([]byte(doc))
		if err != nil {
			t.Errorf("decodeDoc(%.60q): %v", doc, err)
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("decodeDoc(%.60q) = %#v, the library %#v", doc, got, want)
		}
	}
}

// What is not one JSON value is refused, for the library to say why.
func TestDecodeDocRefuses(t *testing.T) {
	for _, doc := range []string{``, ` `, `{`, `{"a"}`, `{"a":1,}`, `[1,]`, `[1 2]`, `01`, `1.`, `-`, `1e`, `.5`, `+1`,
		`"a`, "\"a\nb\"", `"\x"`, `"\u12"`, `"\ud83d\u12"`, `tru`, `nul`, `{} {}`, `{"a":1}x`} {
		if v, err := decodeDoc([]byte(doc)); err == nil {
			t.Errorf("decodeDoc(%.40q) = %#v, want an error", doc, v)
		}
		if _, err := jsonschema.UnmarshalJSON(bytes.NewReader([]byte(doc))); err == nil {
			t.Errorf("the library takes %.40q", doc)
		}
	}
}

// envelopeFields reads x-envelope-fields as encoding/json does, every
// field of Envelope included, in the file's key order.
func TestEnvelopeFieldsAsEncodingJSON(t *testing.T) {
	b, err := fs.ReadFile(schemas.FS, EnvelopeRequestFile)
	if err != nil {
		t.Fatal(err)
	}
	var top struct {
		Fields json.RawMessage `json:"x-envelope-fields"`
	}
	if err := json.Unmarshal(b, &top); err != nil {
		t.Fatal(err)
	}
	want := opTable{envelope: map[string]Envelope{}}
	if err := json.Unmarshal(top.Fields, &want.envelope); err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(top.Fields))
	_, _ = dec.Token()
	for dec.More() {
		k, _ := dec.Token()
		want.names = append(want.names, k.(string))
		var skip json.RawMessage
		_ = dec.Decode(&skip)
	}
	got, err := envelopeFields(b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("envelopeFields = %+v\nencoding/json %+v", got, want)
	}
	if len(got.names) != 17 {
		t.Errorf("%d operations, want 17", len(got.names))
	}
}
