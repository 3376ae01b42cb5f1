package catalog

import (
	"encoding/json"
	"net/url"
	"os"
	"strings"
	"testing"
)

// urlCase is one row of testdata/urls.json, the inputs the Go rule and the
// runtime's (internal/webapp/web, TestURLRuleInChromium) must answer alike.
type urlCase struct {
	In    string `json:"in"`
	Link  bool   `json:"link"`
	Image bool   `json:"image"`
}

func readURLCases(t *testing.T) []urlCase {
	t.Helper()
	data, err := os.ReadFile("testdata/urls.json")
	if err != nil {
		t.Fatal(err)
	}
	var cs []urlCase
	if err := json.Unmarshal(data, &cs); err != nil {
		t.Fatal(err)
	}
	return cs
}

func TestURLRule(t *testing.T) {
	for _, c := range readURLCases(t) {
		if got := RoutePath(c.In); got != c.Link {
			t.Errorf("RoutePath(%q) = %v, want %v", c.In, got, c.Link)
		}
		if got := ImageSource(c.In); got != c.Image {
			t.Errorf("ImageSource(%q) = %v, want %v", c.In, got, c.Image)
		}
		checkAllowed(t, c.In)
	}
}

// FuzzURLRule: what the rule allows is, as a browser reads it, a path on
// the app's origin, or for an Image an http(s) URL or a raster data: URL.
func FuzzURLRule(f *testing.F) {
	data, err := os.ReadFile("testdata/urls.json")
	if err != nil {
		f.Fatal(err)
	}
	var cs []urlCase
	if err := json.Unmarshal(data, &cs); err != nil {
		f.Fatal(err)
	}
	for _, c := range cs {
		f.Add(c.In)
	}
	f.Fuzz(checkAllowed)
}

// base is the page a relative URL is resolved against.
var base, _ = url.Parse("http://app.example/page/")

func checkAllowed(t *testing.T, s string) {
	link, image := RoutePath(s), ImageSource(s)
	if !link && !image {
		return
	}
	if link && !image {
		t.Errorf("%q is a path of the app but no Image src", s)
	}
	// A browser strips leading and trailing C0 controls and spaces,
	// removes tabs and newlines anywhere and reads "\" as "/" before it
	// looks for a scheme or a host; net/url does none of that, so what the
	// rule allows must be unchanged by it.
	if w := browserClean(s); w != s {
		t.Fatalf("%q is allowed but a browser reads it as %q", s, w)
	}
	// A "%" never ends a scheme, host or path; escaping it keeps net/url
	// from refusing "%zz", which browsers keep as it is.
	esc := strings.ReplaceAll(s, "%", "%25")
	u, err := url.Parse(esc)
	if err != nil && (strings.Contains(err.Error(), "first path segment") || strings.Contains(err.Error(), "missing protocol scheme")) {
		// A colon before any "/" in a relative path (":0",
		// "1javascript:x"): net/url refuses it, browsers read it as a
		// path, as net/url does after "./".
		u, err = url.Parse("./" + esc)
	}
	if err != nil {
		// An http(s) URL net/url refuses ("http://:A") a browser cannot
		// load either.
		if l := strings.ToLower(s); !link && (strings.HasPrefix(l, "http:") || strings.HasPrefix(l, "https:")) {
			return
		}
		t.Fatalf("%q is allowed but does not parse: %v", s, err)
	}
	r := base.ResolveReference(u)
	if link {
		if u.Scheme != "" || u.Host != "" || u.User != nil || u.Opaque != "" || !strings.HasPrefix(u.Path, "/") || r.Host != base.Host {
			t.Fatalf("Link to %q is allowed but is %#v, resolved %s", s, u, r)
		}
		return
	}
	switch strings.ToLower(u.Scheme) {
	case "":
		if u.Host != "" || u.User != nil || r.Host != base.Host {
			t.Fatalf("Image src %q is allowed but names host %q, resolved %s", s, u.Host, r)
		}
	case "http", "https":
	case "data":
		mt, _, _ := strings.Cut(strings.ToLower(u.Opaque), ",")
		mt, _, _ = strings.Cut(mt, ";")
		if !strings.HasPrefix(mt, "image/") || mt == "image/svg+xml" {
			t.Fatalf("Image src %q is allowed but is a data: URL of type %q", s, mt)
		}
	default:
		t.Fatalf("Image src %q is allowed but has the scheme %q", s, u.Scheme)
	}
}

// browserClean is what the URL parser of a browser (the WHATWG URL
// Standard) does to an input before it parses it.
func browserClean(s string) string {
	s = strings.TrimFunc(s, func(r rune) bool { return r <= ' ' })
	s = strings.NewReplacer("\t", "", "\n", "", "\r", "", "\\", "/").Replace(s)
	return s
}
