package blobs

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// Resumable uploads: a large file is sent in one or more appends to a
// partial file kept under partial/ (by hash), so that an upload cut short —
// the client or the server killed, the network gone — goes on from where it
// stopped. Partial files are never visible as blobs; the last append checks
// the whole content against its hash before the blob appears.

// partialDir holds resumable uploads in progress; unlike tmp/ it survives a
// restart of the server, which is the point.
const partialDir = "partial"

// partialMaxAge is how long an abandoned partial upload is kept.
const partialMaxAge = 7 * 24 * time.Hour

// ErrOffset is returned (wrapped in an *OffsetError) when an append does not
// start where the partial upload ends.
var ErrOffset = errors.New("upload offset does not match what the server has")

// OffsetError says where a resumed upload must start.
type OffsetError struct{ Have int64 }

func (e *OffsetError) Error() string {
	return fmt.Sprintf("%v: the server has %d bytes; resume from there", ErrOffset, e.Have)
}
func (e *OffsetError) Unwrap() error { return ErrOffset }

// locks serialise the appends of one hash — two clients pushing the same
// file must not interleave their bytes — striped by the hash's first byte
// so that their number stays bounded.
var locks [256]sync.Mutex

func lock(h string) func() {
	b, _ := hex.DecodeString(h[:2]) // h is a valid hash
	mu := &locks[b[0]]
	mu.Lock()
	return mu.Unlock
}

// cleanPartials removes abandoned partial uploads.
func (s *Store) cleanPartials() error {
	dir := filepath.Join(s.dir, partialDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range ents {
		if fi, err := e.Info(); err == nil && time.Since(fi.ModTime()) > partialMaxAge {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
	return nil
}

// Offset is how many bytes of blob h a resumable upload has stored so far.
func (s *Store) Offset(h string) int64 {
	if !ValidHash(h) {
		return 0
	}
	fi, err := os.Stat(filepath.Join(s.dir, partialDir, h))
	if err != nil {
		return 0
	}
	return fi.Size()
}

// Append adds what r holds at offset off of the resumable upload of blob h,
// whose whole size is size (at most limit). It returns the new offset, and
// stored when the blob is complete, checked and in place. Bytes received
// before r fails are kept for the next append. A content that turns out not
// to match h is discarded whole.
func (s *Store) Append(h string, off, size int64, r io.Reader, limit int64) (newOff int64, stored bool, err error) {
	if !ValidHash(h) {
		return 0, false, fmt.Errorf("blob %q: %w", h, ErrBadHash)
	}
	if size > limit || size < 0 {
		return 0, false, fmt.Errorf("blob %s: %w (%d bytes)", h, ErrTooLarge, limit)
	}
	defer lock(h)()
	if s.Has(h) {
		return size, false, nil
	}
	p := filepath.Join(s.dir, partialDir, h)
	f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return 0, false, fmt.Errorf("blob %s: %w", h, noSpace(err))
	}
	defer f.Close()
	have, err := f.Seek(0, io.SeekEnd)
	if err != nil {
		return 0, false, fmt.Errorf("blob %s: %w", h, err)
	}
	if have != off {
		return have, false, fmt.Errorf("blob %s: %w", h, &OffsetError{Have: have})
	}
	n, cerr := io.Copy(f, io.LimitReader(r, size-off+1))
	if off+n > size {
		f.Truncate(off)
		return off, false, fmt.Errorf("blob %s: %w: more than the %d bytes announced", h, ErrTooLarge, size)
	}
	if err := f.Sync(); err != nil {
		return off, false, fmt.Errorf("blob %s: %w", h, noSpace(err))
	}
	if cerr != nil {
		// Keep what came: the client resumes from off+n.
		return off + n, false, fmt.Errorf("blob %s: upload cut short at %d of %d bytes: %w", h, off+n, size, noSpace(cerr))
	}
	if off+n < size {
		return off + n, false, nil
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return off + n, false, err
	}
	hw := sha256.New()
	if _, err := io.Copy(hw, f); err != nil {
		return off + n, false, fmt.Errorf("blob %s: %w", h, err)
	}
	if got := hex.EncodeToString(hw.Sum(nil)); got != h {
		f.Close()
		os.Remove(p)
		return 0, false, fmt.Errorf("blob %s: %w (got %s); the upload is discarded", h, ErrMismatch, got)
	}
	final := s.path(h)
	if err := os.MkdirAll(filepath.Dir(final), 0o755); err != nil {
		return size, false, fmt.Errorf("blob %s: %w", h, noSpace(err))
	}
	f.Close()
	if err := os.Rename(p, final); err != nil {
		return size, false, fmt.Errorf("blob %s: %w", h, noSpace(err))
	}
	return size, true, nil
}
