// Package devbackend is a TEMPORARY placeholder with the signatures of
// WEB-CONTRACT.md so that internal/devserver compiles and can be tested
// before the real package lands. It is not to be merged.
package devbackend

import "net/http"

// Backend is the placeholder backend: every call answers 501.
type Backend struct{}

// Open returns a placeholder backend.
func Open(root string) (*Backend, error) { return &Backend{}, nil }

// ServeHTTP answers 501.
func (b *Backend) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusNotImplemented)
	w.Write([]byte(`{"error":{"message":"placeholder backend"}}`))
}

// Reload does nothing.
func (b *Backend) Reload() error { return nil }

// Close does nothing.
func (b *Backend) Close() error { return nil }
