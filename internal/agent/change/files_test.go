package change

import (
	"testing"

	"github.com/axiomcore/acore/internal/agent/candidate"
)

// TestFiles: a batch's writes on an earlier version's files, against the
// base's digests: modified and removed base files, a created file, and a
// file the earlier version created that the batch removes again (dropped).
func TestFiles(t *testing.T) {
	created := "c0"
	prev := &candidate.Candidate{Files: []candidate.File{{Path: "new.acore", After: &created, Content: []byte("x")}}}
	base := map[string]string{"a.acore": "a0", "b.acore": "b0"}
	files, overlay := Files(prev, base, map[string][]byte{"b.acore": []byte("b1"), "a.acore": nil, "new.acore": nil, "c.acore": []byte("c")})
	if len(files) != 3 || files[0].Path != "a.acore" || files[1].Path != "b.acore" || files[2].Path != "c.acore" {
		t.Fatalf("files %+v", files)
	}
	if files[0].Change() != "removed" || files[1].Change() != "modified" || files[2].Change() != "added" || *files[1].Before != "b0" {
		t.Errorf("changes %+v", files)
	}
	if v, ok := overlay["a.acore"]; !ok || v != nil || string(overlay["b.acore"]) != "b1" || len(overlay) != 3 {
		t.Errorf("overlay %v", overlay)
	}
	if files, _ := Files(nil, base, map[string][]byte{"n.acore": nil}); len(files) != 0 {
		t.Errorf("a file neither in the base nor written: %+v", files)
	}
}
