package smali

import (
	"github.com/droidprof/droidprof/internal/smalisuite"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/droidprof/droidprof/internal/debsrc"
	"github.com/droidprof/droidprof/vm/smali/ast"
)

// integrationFiles fetches smali's smali-integration-tests (44 files, from
// the libsmali-java source package) and returns them by path relative to
// src/test/smali, after the syntax updates for smali 2.5.2.
func integrationFiles(t *testing.T) map[string][]byte {
	t.Helper()
	dir := debsrc.ForTest(t, "libsmali-java", "*/smali-integration-tests/*")
	roots, _ := filepath.Glob(filepath.Join(dir, "*", "smali-integration-tests", "src", "test", "smali"))
	if len(roots) != 1 {
		t.Fatalf("no smali-integration-tests/src/test/smali under %s", dir)
	}
	files := map[string][]byte{}
	err := filepath.WalkDir(roots[0], func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".smali") {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(roots[0], path)
		files[rel] = src
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 44 {
		t.Errorf("found %d integration test files, want 44", len(files))
	}
	return files
}

// TestIntegrationFilesParse parses every smali-integration-tests file. The
// originals of the three files the updates touch must fail (so the updates
// are needed), the updated ones must all parse, at API 28.
func TestIntegrationFilesParse(t *testing.T) {
	files := integrationFiles(t)
	parsed := 0
	var updates [3]int
	for name, src := range files {
		updated, n := smalisuite.UpdateSyntax(src)
		for i := range n {
			updates[i] += n[i]
		}
		if n != [3]int{} {
			if _, err := Parse(name, src, &Options{API: 28}); err == nil {
				t.Errorf("%s: the original parses, but smali 2.5.2 rejects it", name)
			}
		}
		if _, err := Parse(name, updated, &Options{API: 28}); err != nil {
			t.Errorf("%s:\n%v", name, err)
			continue
		}
		parsed++
	}
	t.Logf("%d/%d integration test files parse; updated lines: .parameter %d, bare .local names %d, high16 literals %d",
		parsed, len(files), updates[0], updates[1], updates[2])
	if updates[0] == 0 || updates[1] == 0 || updates[2] == 0 {
		t.Errorf("expected every syntax update to apply at least once, got %v", updates)
	}
}

var _ = ast.Pos{}
