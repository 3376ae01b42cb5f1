package devserver

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

// event is one server-sent event: `reload` after a good build, `error`
// after a failed one, and `hello` first on every connection.
type event struct {
	name string
	data []byte // one line of JSON
}

// hello is the first event of a stream: the build the server serves and,
// when the latest build failed, why. A page served from another build
// (another process, or a build it missed while disconnected) reloads.
type hello struct {
	Build   string   `json:"build"`
	Failure *failure `json:"failure"`
}

func mustJSON(v any) []byte {
	data, err := json.Marshal(v)
	if err != nil {
		panic(err) // the payloads are plain structs of strings and numbers
	}
	return data
}

// broadcast sends e to every open stream. A stream that cannot keep up is
// dropped; its page reconnects and gets the current state in its hello.
func (s *server) broadcast(e event) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for ch := range s.clients {
		select {
		case ch <- e:
		default:
			delete(s.clients, ch)
			close(ch)
		}
	}
}

// close ends every stream and refuses new ones.
func (s *server) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	s.closed = true
	close(s.closing)
}

// serveEvents is GET /_axiom/events.
func (s *server) serveEvents(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet {
		w.Header().Set("Allow", "GET")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	rc := http.NewResponseController(w)
	ch := make(chan event, 16)
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		http.Error(w, "axiom dev is stopping", http.StatusServiceUnavailable)
		return
	}
	s.clients[ch] = struct{}{}
	h := hello{Build: s.buildID(s.goodSeq), Failure: s.failure}
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		if _, ok := s.clients[ch]; ok {
			delete(s.clients, ch)
			close(ch)
		}
		s.mu.Unlock()
	}()

	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	// retry: how soon the browser reconnects after the server restarts.
	fmt.Fprintf(w, "retry: 1000\n\n")
	// A stream outlives the server's write timeout, which bounds an
	// answer: each event has that long to go out, so a page that stopped
	// reading is let go. (The server reads nothing more once the request
	// is read, with no deadline.)
	write := func(e event) bool {
		if rc.SetWriteDeadline(time.Now().Add(s.writeTimeout)) != nil {
			return false
		}
		if _, err := fmt.Fprintf(w, "event: %s\ndata: %s\n\n", e.name, e.data); err != nil {
			return false
		}
		// No deadline while no event is due: one past, even unused, is
		// not extended again.
		return rc.Flush() == nil && rc.SetWriteDeadline(time.Time{}) == nil
	}
	if !write(event{name: "hello", data: mustJSON(h)}) {
		return
	}
	for {
		select {
		case e, ok := <-ch:
			if !ok || !write(e) {
				return
			}
		case <-r.Context().Done():
			return
		case <-s.closing:
			return
		}
	}
}
