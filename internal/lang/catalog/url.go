package catalog

import "strings"

// The URLs an element takes from a value (docs/web.md, "URLs"): data is
// text and never becomes a navigable URL or a script. The runtime
// (internal/webapp/web/assets/runtime.js, rp and ri) applies the same rule; the
// tests of internal/webapp/web compare the two in Chromium.

// RoutePath reports whether a Link's to is a path of the app: it starts
// with one "/" (not "//", which names another host) and holds no space,
// control character or backslash. Browsers drop tabs and newlines
// anywhere in a URL and read "\" as "/", so "/\thost" or "/\host" would
// lead to another origin. A query and a fragment may follow the path.
func RoutePath(s string) bool {
	return plain(s) && strings.HasPrefix(s, "/") && !strings.HasPrefix(s, "//")
}

// ImageSource reports whether an Image's src may be loaded: a URL with no
// scheme and no host (a path on the app's origin), an http: or https:
// URL, or a data: URL of a raster image type, with the characters of
// RoutePath refused.
func ImageSource(s string) bool {
	if !plain(s) {
		return false
	}
	n := schemeLen(s)
	if n == 0 {
		return !strings.HasPrefix(s, "//")
	}
	switch strings.ToLower(s[:n]) {
	case "http:", "https:":
		return true
	case "data:":
		for _, t := range rasterTypes {
			if len(s) > n+len(t) && strings.EqualFold(s[n:n+len(t)], t) && (s[n+len(t)] == ';' || s[n+len(t)] == ',') {
				return true
			}
		}
	}
	return false
}

// rasterTypes are the image types a data: src may have; SVG is not one,
// being a document that can hold script.
var rasterTypes = []string{"image/png", "image/jpeg", "image/gif", "image/webp", "image/avif"}

// plain reports whether s has no byte a URL parser strips, drops or reads
// as a slash: space and below, DEL and backslash.
func plain(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c <= ' ' || c == 0x7f || c == '\\' {
			return false
		}
	}
	return true
}

// schemeLen is the length of s's scheme with its ":" (an ASCII letter,
// then letters, digits, "+", "-" or "."), or 0 when s has none.
func schemeLen(s string) int {
	for i := 0; i < len(s); i++ {
		c := s[i] | 0x20
		switch {
		case 'a' <= c && c <= 'z':
		case i > 0 && ('0' <= s[i] && s[i] <= '9' || s[i] == '+' || s[i] == '-' || s[i] == '.'):
		case i > 0 && s[i] == ':':
			return i + 1
		default:
			return 0
		}
	}
	return 0
}
