package events

import (
	"bufio"
	"cmp"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
)

// File is an event file read back: its events in the global order
// (epoch, then sequence), its bitmaps in epoch order and its definitions.
type File struct {
	Run     RunDef
	Events  []Record
	Bitmaps []Bitmap
	Classes map[uint32]string
	Sites   map[uint32]SiteDef
	Threads map[uint32]string
	GCs     []GCDef // in collection order
	// Partial is set when the file is not complete: it has no end block
	// or its last block is cut short. Problem says where it ends.
	Partial bool
	Problem string
	Size    int64 // bytes read
}

// ReadFile reads the event file at path. A truncated or unterminated
// file is not an error: File.Partial and File.Problem say so, and the
// complete part is returned. Malformed content (a bad header, an unknown
// block type, a record of an unknown kind) is an error naming the file
// and offset.
func ReadFile(path string) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out, err := Read(bufio.NewReaderSize(f, 1<<16))
	if err != nil {
		return out, fmt.Errorf("%s: %w", path, err)
	}
	if out.Partial {
		out.Problem = path + ": " + out.Problem
	}
	return out, nil
}

// Read reads an event file from r (see ReadFile).
func Read(r io.Reader) (*File, error) {
	out := &File{Classes: map[uint32]string{}, Sites: map[uint32]SiteDef{}, Threads: map[uint32]string{}}
	var h [headerSize]byte
	if n, err := io.ReadFull(r, h[:]); err != nil {
		if n == 0 {
			return out, errors.New("empty file: not an artobj event file")
		}
		return out, fmt.Errorf("header cut short at offset %d (want %d bytes)", n, headerSize)
	}
	if string(h[:8]) != Magic {
		return out, fmt.Errorf("bad magic %q at offset 0: not an artobj event file", h[:8])
	}
	if v := binary.LittleEndian.Uint32(h[8:]); v != Version {
		return out, fmt.Errorf("format version %d at offset 8: this reader knows %d", v, Version)
	}
	if s := binary.LittleEndian.Uint32(h[12:]); s != RecordSize {
		return out, fmt.Errorf("record size %d at offset 12: want %d", s, RecordSize)
	}
	off := int64(headerSize)
	ended := false
	var payload []byte
	for {
		var bh [blockSize]byte
		n, err := io.ReadFull(r, bh[:])
		if err == io.EOF {
			break
		}
		if err != nil {
			out.partial(off+int64(n), fmt.Sprintf("block header at offset %d cut short (%d of %d bytes)", off, n, blockSize))
			break
		}
		if ended {
			return out, fmt.Errorf("block at offset %d after the end block", off)
		}
		typ, thread := bh[0], binary.LittleEndian.Uint32(bh[4:])
		count, length := binary.LittleEndian.Uint32(bh[8:]), binary.LittleEndian.Uint32(bh[12:])
		if length > 1<<30 {
			return out, fmt.Errorf("block at offset %d: payload of %d bytes is implausible", off, length)
		}
		payload = slices.Grow(payload[:0], int(length))[:length]
		got, err := io.ReadFull(r, payload)
		start := off + blockSize
		cut := err != nil
		if cut {
			payload = payload[:got]
		}
		switch typ {
		case BlockEvents:
			if !cut && int(count)*RecordSize != int(length) {
				return out, fmt.Errorf("event block at offset %d: %d records in %d bytes", off, count, length)
			}
			k := len(payload) / RecordSize
			for i := range k {
				e, err := decodeEvent(payload[i*RecordSize:])
				if err != nil {
					return out, fmt.Errorf("record at offset %d: %w", start+int64(i*RecordSize), err)
				}
				out.Events = append(out.Events, Record{Event: e, Thread: thread})
			}
			if cut {
				out.partial(start+int64(got), fmt.Sprintf("event block at offset %d (thread %d) cut short: %d of %d records complete", off, thread, k, count))
			}
		case BlockDef:
			if cut {
				out.partial(start+int64(got), fmt.Sprintf("definition block at offset %d cut short", off))
				break
			}
			if err := out.define(payload); err != nil {
				return out, fmt.Errorf("definition block at offset %d: %w", off, err)
			}
		case BlockBitmap:
			if cut {
				out.partial(start+int64(got), fmt.Sprintf("bitmap block at offset %d cut short (%d of %d bytes): its epoch's accesses are left out", off, got, length))
				break
			}
			b, err := decodeBitmap(payload, count)
			if err != nil {
				return out, fmt.Errorf("bitmap block at offset %d: %w", off, err)
			}
			out.Bitmaps = append(out.Bitmaps, b)
		case BlockEnd:
			ended = true
		default:
			return out, fmt.Errorf("unknown block type %#x at offset %d", typ, off)
		}
		if cut {
			break
		}
		off = start + int64(length)
	}
	if !out.Partial {
		out.Size = off
		if !ended {
			out.partial(off, fmt.Sprintf("no end block: the file ends at offset %d after a complete block (the run stopped before it finished)", off))
		}
	}
	slices.SortStableFunc(out.Events, func(a, b Record) int {
		return cmp.Or(cmp.Compare(a.Epoch, b.Epoch), cmp.Compare(a.Seq, b.Seq))
	})
	slices.SortStableFunc(out.Bitmaps, func(a, b Bitmap) int { return cmp.Compare(a.Epoch, b.Epoch) })
	slices.SortFunc(out.GCs, func(a, b GCDef) int { return cmp.Compare(a.Count, b.Count) })
	return out, nil
}

func (f *File) partial(end int64, why string) {
	f.Partial, f.Problem, f.Size = true, why, end
}

func (f *File) define(data []byte) error {
	var d def
	if err := json.Unmarshal(data, &d); err != nil {
		return err
	}
	switch {
	case d.Class != nil:
		f.Classes[d.Class.ID] = d.Class.Name
	case d.Site != nil:
		f.Sites[d.Site.ID] = *d.Site
	case d.Thread != nil:
		f.Threads[d.Thread.ID] = d.Thread.Name
	case d.GC != nil:
		f.GCs = append(f.GCs, *d.GC)
	case d.Run != nil:
		f.Run = *d.Run
	default:
		return fmt.Errorf("defines nothing: %.80s", data)
	}
	return nil
}

func decodeEvent(b []byte) (Event, error) {
	e := Event{
		Kind:  Kind(b[0]),
		Epoch: binary.LittleEndian.Uint32(b[4:]),
		Seq:   binary.LittleEndian.Uint64(b[8:]),
		A:     binary.LittleEndian.Uint32(b[16:]),
		B:     binary.LittleEndian.Uint32(b[20:]),
		C:     binary.LittleEndian.Uint32(b[24:]),
		D:     binary.LittleEndian.Uint32(b[28:]),
	}
	if e.Kind < Alloc || e.Kind > GCEnd {
		return e, fmt.Errorf("unknown event kind %d", b[0])
	}
	return e, nil
}

func decodeBitmap(p []byte, count uint32) (Bitmap, error) {
	if len(p) < 16 || (len(p)-16) != int(count)*wordSize {
		return Bitmap{}, fmt.Errorf("%d words in %d bytes", count, len(p))
	}
	b := Bitmap{Epoch: binary.LittleEndian.Uint32(p[0:]), Base: binary.LittleEndian.Uint32(p[4:]), Final: p[8] == 1,
		Index: make([]uint32, count), Words: make([]uint64, count)}
	for i := range int(count) {
		q := p[16+i*wordSize:]
		b.Index[i] = binary.LittleEndian.Uint32(q)
		b.Words[i] = binary.LittleEndian.Uint64(q[4:])
	}
	return b, nil
}
