package pagecache

import (
	"errors"
	"github.com/droidprof/droidprof/internal/testenv"
	"os"
	"path/filepath"
	"testing"
)

func writeFile(t *testing.T, size int) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(p, make([]byte, size), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestEvictEmptiesTheFilesCache(t *testing.T) {
	tests := []struct {
		name string
		size int
	}{{"one page", 4096}, {"partial last page", 3*4096 + 100}, {"1MiB", 1 << 20}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := writeFile(t, tt.size)
			cached, size, err := Resident(p)
			if err != nil {
				t.Fatal(err)
			}
			if size != int64(tt.size) || cached != size {
				t.Fatalf("after write: cached %d of %d, want all of %d", cached, size, tt.size)
			}
			if err := Evict(p); err != nil {
				t.Fatal(err)
			}
			if cached, _, _ := Resident(p); cached != 0 {
				t.Fatalf("after Evict: %d bytes still cached", cached)
			}
		})
	}
}

func TestDrop(t *testing.T) {
	p := writeFile(t, 1<<20)
	err := Drop()
	if os.Geteuid() != 0 {
		if !errors.Is(err, ErrNotPermitted) {
			t.Fatalf("as non-root Drop = %v, want ErrNotPermitted", err)
		}
		return
	}
	if errors.Is(err, ErrNotPermitted) {
		testenv.SkipOrFail(t, "root, but /proc/sys/vm/drop_caches is not writable here: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	if cached, _, _ := Resident(p); cached != 0 {
		t.Fatalf("after Drop: %d bytes of a clean file still cached", cached)
	}
}
