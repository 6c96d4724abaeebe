package fileio

import (
	"fmt"
	"io"
	"os"
)

// prefillChunk is Mobibench's init_file write size.
const prefillChunk = 512 << 10

// FillByte is the byte Mobibench fills its buffers with (memset(buf, 0xcafe)
// stores the low byte).
const FillByte = 0xfe

// Prefill makes the file at path at least size bytes long the way Mobibench
// does before modes 0–3: it appends buffered 512 KiB writes of FillByte from
// the current end of the file, then fsyncs. A file already large enough is
// left alone. It is not timed.
func Prefill(path string, size int64) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("prefill: %w", err)
	}
	defer f.Close()
	end, err := f.Seek(0, io.SeekEnd)
	if err != nil {
		return fmt.Errorf("prefill %s: %w", path, err)
	}
	if end >= size {
		return nil
	}
	buf := make([]byte, prefillChunk)
	for i := range buf {
		buf[i] = FillByte
	}
	for left := size - end; left > 0; {
		n := min(left, int64(len(buf)))
		if _, err := f.Write(buf[:n]); err != nil {
			return fmt.Errorf("prefill %s: %w", path, err)
		}
		left -= n
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("prefill %s: fsync: %w", path, err)
	}
	return f.Close()
}
