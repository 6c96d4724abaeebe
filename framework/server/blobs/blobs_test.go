package blobs

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func hashOf(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// failingReader fails after its content, as a disk that fills does.
type failingReader struct {
	r   io.Reader
	err error
}

func (f *failingReader) Read(p []byte) (int, error) {
	n, err := f.r.Read(p)
	if err == io.EOF {
		return n, f.err
	}
	return n, err
}

// TestPut: content is stored once under its hash; a wrong hash, an
// oversized or failed upload leaves nothing; leftovers of a killed server
// are removed at Open.
func TestPut(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		hash    string
		r       io.Reader
		created bool
		err     error
	}{
		{"new", hashOf("hello"), strings.NewReader("hello"), true, nil},
		{"again", hashOf("hello"), strings.NewReader("hello"), false, nil},
		{"wrong content", hashOf("hello!"), strings.NewReader("hullo!"), false, ErrMismatch},
		{"too large", hashOf(strings.Repeat("x", 11)), strings.NewReader(strings.Repeat("x", 11)), false, ErrTooLarge},
		{"not a hash", "../../etc/passwd", strings.NewReader("x"), false, ErrBadHash},
		{"disk full", hashOf("abc"), &failingReader{strings.NewReader("abc"), &os.PathError{Op: "write", Path: "x", Err: syscall.ENOSPC}}, false, ErrNoSpace},
	}
	for _, tt := range tests {
		created, err := s.Put(tt.hash, tt.r, 10)
		if !errors.Is(err, tt.err) || created != tt.created {
			t.Errorf("%s: created %v, %v; want %v, %v", tt.name, created, err, tt.created, tt.err)
		}
	}
	if !s.Has(hashOf("hello")) || s.Has(hashOf("hullo!")) || s.Has(hashOf("abc")) {
		t.Error("Has disagrees with what was stored")
	}
	if ents, _ := os.ReadDir(filepath.Join(dir, tmpDir)); len(ents) != 0 {
		t.Errorf("temporary files left: %v", ents)
	}
	os.WriteFile(filepath.Join(dir, tmpDir, "up-killed"), []byte("half"), 0o644)
	if _, err := Open(dir); err != nil {
		t.Fatal(err)
	}
	if ents, _ := os.ReadDir(filepath.Join(dir, tmpDir)); len(ents) != 0 {
		t.Errorf("a killed upload survived Open: %v", ents)
	}
}
