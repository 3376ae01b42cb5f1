package bench

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/axiomcore/acore/internal/tools/projgen"
)

// Shape is a generated project layout the bench measures.
type Shape struct {
	Name  string // "" for projgen.Project's layout, "wide" for projgen.Wide's
	Files int
	// Page is a page laid out as gen's pages are: its Input is element
	// <Page>/view/0/1/0 and its Add button <Page>/view/0/1/1.
	Page string
	gen  func(files, bytes int) map[string][]byte
}

// WideFiles and WideBytes size the second shape like the held-out project
// of issue 14: 50 files and about 3.8 MiB of sources.
const (
	WideFiles = 50
	WideBytes = 3800 << 10
)

// Wide is the second shape: screen modules importing a shared component
// nested projgen.NestDepth deep, and a main.acore routing every page.
var Wide = Shape{Name: "wide", Files: WideFiles, Page: "S1_0", gen: projgen.Wide}

// Pages is the first shape at files files: each file a module of pages
// with their components, main.acore routing them.
func Pages(files int) Shape {
	return Shape{Files: files, Page: "P0_0", gen: projgen.Project}
}

func (s Shape) bytes() int {
	if s.Name == "wide" {
		return WideBytes
	}
	return Bytes(s.Files)
}

// write generates the shape's project under dir, its files written now.
func (s Shape) write(dir string) error {
	return projgen.Write(dir, s.gen(s.Files, s.bytes()))
}

// writeOld generates the shape's project with files old enough for the
// service's load cache to trust by their stat, as most projects are.
func (s Shape) writeOld(dir string) error {
	if err := s.write(dir); err != nil {
		return err
	}
	old := time.Now().Add(-time.Hour)
	return filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			return os.Chtimes(p, old, old)
		}
		return err
	})
}

// Transports of the rows measured on fresh files.
const (
	// TransportFresh is a serve process started right after its project
	// was written, as on a fresh clone: every file is new.
	TransportFresh = "serve_fresh"
	// TransportAfterApply is a serve process reading the snapshot its
	// change.apply has just written.
	TransportAfterApply = "serve_after_apply"
)

// measureFresh writes the shape's project under dir, starts a serve
// process at once and times workspace.open (one call) and then the reads,
// all on files written moments before.
func measureFresh(o Options, bin, dir string, s Shape) ([]Row, error) {
	if err := s.write(dir); err != nil {
		return nil, err
	}
	bytes, _ := sourceBytes(dir)
	start := time.Now()
	l, snap, err := serveOpen(bin, dir)
	if err != nil {
		return nil, err
	}
	defer l.close()
	rows := []Row{stats("workspace.open.process", TransportFresh, s.Files, bytes, []time.Duration{time.Since(start)})}
	rows[0].Shape = s.Name
	more, err := timeReads(o, l, snap, s, TransportFresh, bytes)
	return append(rows, more...), err
}

// measureAfterApply starts a serve process on the project at dir, applies
// one set_property (the placeholder of the shape's page) and times the
// reads on the snapshot the apply wrote.
func measureAfterApply(o Options, bin, dir string, s Shape) ([]Row, error) {
	bytes, _ := sourceBytes(dir)
	l, snap, err := serveOpen(bin, dir)
	if err != nil {
		return nil, err
	}
	defer l.close()
	request := func(op, body string) (map[string]any, error) {
		out, err := l.call(body)
		if err != nil {
			return nil, err
		}
		m, _, err := decode(out)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", op, err)
		}
		return m, nil
	}
	op := fmt.Sprintf(`{"kind":"set_property","node":"element:%s/view/0/1/0","property":"placeholder","old_value":"New item","new_value":"New entry"}`, s.Page)
	m, err := request("change.propose", `"base_snapshot":"`+snap+`","request_id":"`+nextID()+`","operation":"change.propose","params":{"operations":[`+op+`]}}`)
	if err != nil {
		return nil, err
	}
	cand := str(m, "result", "candidate", "id")
	if _, err := request("check.run", `"operation":"check.run","params":{"candidate":"`+cand+`","checks":["compile"]}}`); err != nil {
		return nil, err
	}
	m, err = request("change.apply", `"request_id":"`+nextID()+`","operation":"change.apply","params":{"candidate":"`+cand+`","expected_candidate_version":1,"require_checks":["compile"]}}`)
	if err != nil {
		return nil, err
	}
	head := str(m, "result", "receipt", "result_snapshot")
	if head == "" {
		return nil, fmt.Errorf("change.apply named no result snapshot")
	}
	return timeReads(o, l, head, s, TransportAfterApply, bytes)
}

// timeReads times the reads on snap through l right away, without a
// warm-up call: round after round of every read, so that each is sampled
// as much in the first moments (when fresh files cost most) as later. A
// round takes a few milliseconds, so the rounds end well within two
// seconds of the files' writing.
func timeReads(o Options, l *lines, snap string, s Shape, transport string, bytes int) ([]Row, error) {
	reads := readsOn(snap, s.Page)
	d := make([][]time.Duration, len(reads))
	for range max(5, o.calls()/10) {
		for i, r := range reads {
			start := time.Now()
			out, err := l.call(r[1])
			if err != nil {
				return nil, err
			}
			d[i] = append(d[i], time.Since(start))
			if _, _, err := decode(out); err != nil {
				return nil, fmt.Errorf("%s: %w", r[0], err)
			}
		}
	}
	var rows []Row
	for i, r := range reads {
		row := stats(r[0], transport, s.Files, bytes, d[i])
		row.Shape = s.Name
		rows = append(rows, row)
	}
	return rows, nil
}

// measureShapes measures what issue 14 asks of every shape: the largest
// Pages project (already measured in process and through serve at dir)
// and Wide (measured here the same way) on files written moments before,
// in a fresh process and right after an apply.
func measureShapes(o Options, bin, tmp, largest string, largestFiles int) ([]Row, error) {
	wideDir := filepath.Join(tmp, "wide")
	if err := Wide.writeOld(wideDir); err != nil {
		return nil, err
	}
	o.logf("shape wide (%d files): in process", Wide.Files)
	rows, _, err := measureSize(o, wideDir, Wide.Files, Wide.Page)
	if err != nil {
		return nil, fmt.Errorf("wide: %w", err)
	}
	o.logf("shape wide: serve")
	serve, err := measureServe(o, bin, wideDir, Wide.Files, Wide.Page)
	if err != nil {
		return nil, fmt.Errorf("wide serve: %w", err)
	}
	rows = append(rows, serve...)
	for i := range rows {
		rows[i].Shape = Wide.Name
	}
	for i, sd := range []struct {
		s   Shape
		dir string
	}{{Pages(largestFiles), largest}, {Wide, wideDir}} {
		o.logf("shape %q: fresh process on fresh files", sd.s.Name)
		fresh, err := measureFresh(o, bin, filepath.Join(tmp, fmt.Sprintf("fresh%d", i)), sd.s)
		if err != nil {
			return nil, fmt.Errorf("fresh %q: %w", sd.s.Name, err)
		}
		o.logf("shape %q: after an apply", sd.s.Name)
		applied, err := measureAfterApply(o, bin, sd.dir, sd.s)
		if err != nil {
			return nil, fmt.Errorf("after apply %q: %w", sd.s.Name, err)
		}
		rows = append(append(rows, fresh...), applied...)
	}
	return rows, nil
}
