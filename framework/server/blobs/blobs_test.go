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

// cutReader gives n bytes of r, then fails, as a connection that drops.
type cutReader struct {
	r io.Reader
	n int
}

func (c *cutReader) Read(p []byte) (int, error) {
	if c.n <= 0 {
		return 0, io.ErrUnexpectedEOF
	}
	if len(p) > c.n {
		p = p[:c.n]
	}
	n, err := c.r.Read(p)
	c.n -= n
	return n, err
}

// TestAppendResumes: an upload cut short keeps what arrived, also across a
// restart; it resumes only from where it stopped, and the blob appears only
// when complete and matching its hash.
func TestAppendResumes(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	content := strings.Repeat("0123456789", 1000)
	h, size := hashOf(content), int64(len(content))
	off, stored, err := s.Append(h, 0, size, &cutReader{strings.NewReader(content), 4000}, 1<<20)
	if off != 4000 || stored || err == nil || s.Has(h) {
		t.Fatalf("cut upload: offset %d, stored %v, %v", off, stored, err)
	}
	if s, err = Open(dir); err != nil { // a server restart
		t.Fatal(err)
	}
	if got := s.Offset(h); got != 4000 {
		t.Fatalf("offset after a restart: %d", got)
	}
	var oe *OffsetError
	if _, _, err := s.Append(h, 0, size, strings.NewReader(content), 1<<20); !errors.As(err, &oe) || oe.Have != 4000 {
		t.Errorf("append at the wrong offset: %v", err)
	}
	off, stored, err = s.Append(h, 4000, size, strings.NewReader(content[4000:]), 1<<20)
	if err != nil || !stored || off != size || !s.Has(h) || s.Offset(h) != 0 {
		t.Fatalf("resumed upload: offset %d, stored %v, %v", off, stored, err)
	}

	tests := []struct {
		name    string
		content string
		claimed string
		size    int64
		want    error
	}{
		{"more than announced", "abcdef", "abcdef", 3, ErrTooLarge},
		{"over the limit", "abc", "abc", 1 << 21, ErrTooLarge},
		{"not its hash", "abc", "abd", 3, ErrMismatch},
	}
	for _, tt := range tests {
		h := hashOf(tt.claimed)
		if _, stored, err := s.Append(h, 0, tt.size, strings.NewReader(tt.content), 1<<20); stored || !errors.Is(err, tt.want) || s.Has(h) {
			t.Errorf("%s: stored %v, %v; want %v", tt.name, stored, err, tt.want)
		}
	}
	if got := s.Offset(hashOf("abd")); got != 0 {
		t.Errorf("a mismatched upload kept %d bytes", got)
	}
}
