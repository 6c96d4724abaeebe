package tracefs

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// With the top level's "bin" option set, the blk tracer prints each record
// in binary: ftrace's own header (pid and CPU as 32-bit integers, the
// timestamp as a 64-bit one, host byte order) followed by blktrace's
// struct blk_io_trace (48 bytes, version 7 — the record the userspace
// blktrace reads from its relay files) and the record's payload. Split
// by CPU into blktrace's files, that is a binary trace blkparse reads.

// BlkRecord is one decoded blk_io_trace record.
type BlkRecord struct {
	Time    uint64 // trace clock, nanoseconds
	Sector  uint64
	Bytes   uint32
	Action  uint32 // low 16 bits: the action (blktrace's __BLK_TA_*), high 16: categories (BLK_TC_*)
	Pid     uint32
	Device  uint32 // major << 20 | minor
	CPU     uint32
	Error   uint16
	Payload []byte
}

// blktrace's constants (include/uapi/linux/blktrace_api.h).
const (
	blkMagic      = 0x65617400
	blkVersion    = 0x07
	blkRecordSize = 48
	blkTCShift    = 16
	blkTCWrite    = 1 << 1
	blkTCNotify   = 1 << 10
	blkTCDiscard  = 1 << 13
)

// Letter is blkparse's action letter for the record's action (Q queued, D
// issued, C completed, ...), 0 for a notify record (process names,
// messages) or an action it has no letter for.
func (r BlkRecord) Letter() byte {
	if r.Action>>blkTCShift&blkTCNotify != 0 {
		return 0
	}
	const letters = "\x00QMFGSRDCPUTIXBA"
	if a := r.Action & 0xff; int(a) < len(letters) {
		return letters[a]
	}
	return 0
}

// Write reports whether the record is of a write.
func (r BlkRecord) Write() bool { return r.Action>>blkTCShift&blkTCWrite != 0 }

// Discard reports whether the record is of a discard.
func (r BlkRecord) Discard() bool { return r.Action>>blkTCShift&blkTCDiscard != 0 }

// ReadBlkBinary decodes the blk tracer's binary output, calling fn for each
// record. A record whose magic is not blktrace's (a LOST marker, another
// tracer's output) is an error at its offset.
func ReadBlkBinary(r io.Reader, fn func(BlkRecord) error) error {
	br := bufio.NewReaderSize(r, 1<<16)
	var hdr [16 + blkRecordSize]byte
	var off int64
	ne := binary.NativeEndian
	for {
		if _, err := io.ReadFull(br, hdr[:]); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return fmt.Errorf("blk binary: record at %d: %w", off, err)
		}
		t := hdr[16:]
		magic := ne.Uint32(t[0:])
		if magic&0xffffff00 != blkMagic {
			return fmt.Errorf("blk binary: record at %d: magic %#x is not blktrace's", off, magic)
		}
		if magic&0xff != blkVersion {
			return fmt.Errorf("blk binary: record at %d: blk_io_trace version %d, this reader knows %d", off, magic&0xff, blkVersion)
		}
		rec := BlkRecord{
			Time: ne.Uint64(t[8:]), Sector: ne.Uint64(t[16:]), Bytes: ne.Uint32(t[24:]), Action: ne.Uint32(t[28:]),
			Pid: ne.Uint32(t[32:]), Device: ne.Uint32(t[36:]), CPU: ne.Uint32(t[40:]), Error: ne.Uint16(t[44:]),
		}
		if n := ne.Uint16(t[46:]); n > 0 {
			rec.Payload = make([]byte, n)
			if _, err := io.ReadFull(br, rec.Payload); err != nil {
				return fmt.Errorf("blk binary: payload of the record at %d: %w", off, err)
			}
		}
		if err := fn(rec); err != nil {
			return err
		}
		off += int64(len(hdr) + len(rec.Payload))
	}
}

// WriteBlktraceFiles writes the blk tracer's binary output as the
// userspace blktrace would have written it: one file per CPU,
// dir/name.blktrace.N, its records numbered in order (the sequence the
// relay path counts and the ftrace path leaves 0). blkparse -D dir -i name
// reads them. It returns the records written.
func WriteBlktraceFiles(r io.Reader, dir, name string) (n int, err error) {
	type out struct {
		f   *os.File
		w   *bufio.Writer
		seq uint32
	}
	files := map[uint32]*out{}
	open := func(cpu uint32) (*out, error) {
		f, err := os.Create(filepath.Join(dir, fmt.Sprintf("%s.blktrace.%d", name, cpu)))
		if err != nil {
			return nil, fmt.Errorf("blk binary: %w", err)
		}
		o := &out{f: f, w: bufio.NewWriterSize(f, 1<<16)}
		files[cpu] = o
		return o, nil
	}
	defer func() {
		// blkparse looks for CPU 0's file, then 1's, and stops at the
		// first missing one: CPUs without records get an empty file.
		var last uint32
		for cpu := range files {
			last = max(last, cpu)
		}
		for cpu := uint32(0); cpu < last && err == nil; cpu++ {
			if files[cpu] == nil {
				_, err = open(cpu)
			}
		}
		for _, o := range files {
			err = errors.Join(err, o.w.Flush(), o.f.Close())
		}
	}()
	ne := binary.NativeEndian
	var buf [blkRecordSize]byte
	err = ReadBlkBinary(r, func(rec BlkRecord) error {
		o := files[rec.CPU]
		if o == nil {
			var err error
			if o, err = open(rec.CPU); err != nil {
				return err
			}
		}
		o.seq++
		ne.PutUint32(buf[0:], blkMagic|blkVersion)
		ne.PutUint32(buf[4:], o.seq)
		ne.PutUint64(buf[8:], rec.Time)
		ne.PutUint64(buf[16:], rec.Sector)
		ne.PutUint32(buf[24:], rec.Bytes)
		ne.PutUint32(buf[28:], rec.Action)
		ne.PutUint32(buf[32:], rec.Pid)
		ne.PutUint32(buf[36:], rec.Device)
		ne.PutUint32(buf[40:], rec.CPU)
		ne.PutUint16(buf[44:], rec.Error)
		ne.PutUint16(buf[46:], uint16(len(rec.Payload)))
		if _, err := o.w.Write(buf[:]); err != nil {
			return fmt.Errorf("blk binary: %w", err)
		}
		if _, err := o.w.Write(rec.Payload); err != nil {
			return fmt.Errorf("blk binary: %w", err)
		}
		n++
		return nil
	})
	return n, err
}
