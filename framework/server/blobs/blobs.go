// Package blobs keeps the results server's uploaded files by content: one
// file per SHA-256, so the same trace pushed with many runs is stored once.
//
// A blob is written to a temporary file, checked against the hash and size
// the client announced, synced, and only then renamed into place: a blob
// that is present is whole. Temporary files a killed server left behind are
// removed when the store is opened. Large files can be uploaded in
// resumable appends instead (Append).
package blobs

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"syscall"
)

// Errors of Put, to be wrapped; the server turns them into HTTP statuses.
var (
	ErrTooLarge = errors.New("upload exceeds the size limit")
	ErrMismatch = errors.New("content does not match its SHA-256")
	ErrBadHash  = errors.New("not a SHA-256 in lowercase hex")
	ErrNoSpace  = errors.New("no space left on the server's disk")
)

var hashRE = regexp.MustCompile(`^[0-9a-f]{64}$`)

// ValidHash reports whether h is a SHA-256 in lowercase hex.
func ValidHash(h string) bool { return hashRE.MatchString(h) }

// Store is a content-addressed directory.
type Store struct {
	dir string
}

// tmpDir holds blobs being written.
const tmpDir = "tmp"

// Open opens the store in dir, creating it, and removes unfinished uploads.
func Open(dir string) (*Store, error) {
	if err := os.RemoveAll(filepath.Join(dir, tmpDir)); err != nil {
		return nil, fmt.Errorf("blob store %s: %w", dir, err)
	}
	if err := os.MkdirAll(filepath.Join(dir, tmpDir), 0o755); err != nil {
		return nil, fmt.Errorf("blob store %s: %w", dir, err)
	}
	s := &Store{dir: dir}
	if err := s.cleanPartials(); err != nil {
		return nil, fmt.Errorf("blob store %s: %w", dir, err)
	}
	return s, nil
}

// path is where blob h lives: two levels by its first hex digits, so that no
// directory grows to millions of entries.
func (s *Store) path(h string) string {
	return filepath.Join(s.dir, h[:2], h[2:4], h)
}

// Has reports whether blob h is stored.
func (s *Store) Has(h string) bool {
	if !ValidHash(h) {
		return false
	}
	_, err := os.Stat(s.path(h))
	return err == nil
}

// Open opens blob h for reading.
func (s *Store) Open(h string) (*os.File, error) {
	if !ValidHash(h) {
		return nil, fmt.Errorf("blob %q: %w", h, ErrBadHash)
	}
	return os.Open(s.path(h))
}

// Put stores what r holds as blob h, reading at most limit bytes; created is
// false when the blob was stored already. On any error nothing is left.
func (s *Store) Put(h string, r io.Reader, limit int64) (created bool, err error) {
	if !ValidHash(h) {
		return false, fmt.Errorf("blob %q: %w", h, ErrBadHash)
	}
	f, err := os.CreateTemp(filepath.Join(s.dir, tmpDir), "up-")
	if err != nil {
		return false, fmt.Errorf("blob %s: %w", h, noSpace(err))
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	hw := sha256.New()
	n, err := io.Copy(io.MultiWriter(f, hw), io.LimitReader(r, limit+1))
	if err != nil {
		return false, fmt.Errorf("blob %s: %w", h, noSpace(err))
	}
	if n > limit {
		return false, fmt.Errorf("blob %s: %w (%d bytes)", h, ErrTooLarge, limit)
	}
	if got := hex.EncodeToString(hw.Sum(nil)); got != h {
		return false, fmt.Errorf("blob %s: %w (got %s)", h, ErrMismatch, got)
	}
	if err := f.Sync(); err != nil {
		return false, fmt.Errorf("blob %s: %w", h, noSpace(err))
	}
	if err := f.Close(); err != nil {
		return false, fmt.Errorf("blob %s: %w", h, noSpace(err))
	}
	final := s.path(h)
	if _, err := os.Stat(final); err == nil {
		os.Remove(f.Name())
		return false, nil
	}
	if err := os.MkdirAll(filepath.Dir(final), 0o755); err != nil {
		return false, fmt.Errorf("blob %s: %w", h, noSpace(err))
	}
	if err := os.Rename(f.Name(), final); err != nil {
		return false, fmt.Errorf("blob %s: %w", h, noSpace(err))
	}
	return true, nil
}

// noSpace marks a full disk so the server can say so plainly.
func noSpace(err error) error {
	if errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT) {
		return &noSpaceError{err: err}
	}
	return err
}

// noSpaceError is a full disk. Its message is ErrNoSpace's alone: the
// client it is sent to has no business with the server's paths, which the
// file system's error names.
type noSpaceError struct{ err error }

func (e *noSpaceError) Error() string   { return ErrNoSpace.Error() }
func (e *noSpaceError) Unwrap() []error { return []error{ErrNoSpace, e.err} }
