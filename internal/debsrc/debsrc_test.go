package debsrc

import (
	"os"
	"path/filepath"
	"testing"
)

// TestFetchDexdumpGoldens fetches ART's dexdump goldens, the first suite the
// DEX reader is checked against.
func TestFetchDexdumpGoldens(t *testing.T) {
	dir := ForTest(t, "android-platform-art", "*/test/dexdump/*")
	dexes, _ := filepath.Glob(filepath.Join(dir, "*", "test", "dexdump", "*.dex"))
	if len(dexes) < 8 {
		t.Fatalf("%d .dex files under %s, want at least 8", len(dexes), dir)
	}
	again, err := Fetch("android-platform-art", "*/test/dexdump/*")
	if err != nil || again != dir {
		t.Fatalf("second fetch = %q, %v; want the cached %q", again, err, dir)
	}
}

func TestMirrorFromSourcesFile(t *testing.T) {
	f := filepath.Join(t.TempDir(), "debian.sources")
	os.WriteFile(f, []byte("Types: deb\n# comment\nURIs: http://example.invalid/debian extra\nSuites: bookworm\n"), 0o644)
	old := sourcesFile
	sourcesFile = f
	defer func() { sourcesFile = old }()
	if m, err := mirror(); err != nil || m != "http://example.invalid/debian" {
		t.Fatalf("mirror() = %q, %v", m, err)
	}
}
