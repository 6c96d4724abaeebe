// Package events is artobj's event file: the Address-Chain events of
// paper 003 (allocations, moves, deaths, collections) and the access
// bitmaps, recorded through fixed-size per-thread record buffers that a
// background writer puts on disk, and read back in one global order.
//
// # File layout
//
// All integers are little-endian. The file starts with a 16-byte header:
//
//	off 0   8 bytes  magic "ARTOBJ1\n"
//	off 8   u32      format version (1)
//	off 12  u32      event record size (32)
//
// Then blocks, each a 16-byte block header and a payload:
//
//	off 0   u8       block type: 'E' events, 'D' definition, 'B' bitmap, 'Z' end
//	off 1   3 bytes  zero
//	off 4   u32      thread: the VM thread id whose buffer an 'E' block is (0: the
//	                 collector's own events), else 0
//	off 8   u32      count: records of an 'E' block, words of a 'B' block, 0 else
//	off 12  u32      payload length in bytes
//
// An 'E' payload is count event records of 32 bytes:
//
//	off 0   u8       kind (Alloc 1, Move 2, Free 3, GCStart 4, GCEnd 5)
//	off 1   3 bytes  zero
//	off 4   u32      epoch: the number of collections started before the event
//	                 (an event of collection c has epoch c)
//	off 8   u64      sequence: one counter over all threads, so (epoch, sequence)
//	                 orders the events of every buffer globally
//	off 16  u32 × 4  A, B, C, D:
//	                 Alloc   address, size (8-aligned), class id, site id
//	                 Move    old address, new address, size
//	                 Free    address, size
//	                 GCStart collection number
//	                 GCEnd   collection number
//
// A 'D' payload is one JSON object naming an id used by the events — a
// class {"class":{"id":…,"name":…}}, an allocation site {"site":{"id":…,
// "method":…,"pc":…,"line":…}}, a thread {"thread":{"id":…,"name":…}} —
// or describing a collection {"gc":{…}} or the run {"run":{…}}. A definition is written
// before the first buffer that uses its id is handed to the writer.
//
// A 'B' payload is one access bitmap (paper 003 §3.2, one bit per 8
// bytes of the main space), sparse:
//
//	off 0   u32      epoch whose accesses it holds (collection c dumps epoch c−1)
//	off 4   u32      base: the main-space address of bit 0
//	off 8   u32      1 for the dump at VM exit, else 0
//	off 12  u32      zero
//	off 16  count × (u32 word index, u64 word): the non-zero 64-bit words;
//	                 bit i of word w stands for the object at base + (64w+i)·8
//
// Every thread's buffer is written at the end of each collection, full
// or not, so blocks come in epoch order; within an epoch the threads'
// buffers may interleave, and the sequence numbers order them.
//
// A 'Z' block (empty payload) ends a complete file. A file without one,
// or whose last block is cut short, is partial: ReadFile returns what is
// complete and says where the file ends.
package events

import "fmt"

// Magic, Version and RecordSize open every event file.
const (
	Magic      = "ARTOBJ1\n"
	Version    = 1
	RecordSize = 32
	headerSize = 16
	blockSize  = 16
	wordSize   = 12 // a bitmap word entry
)

// Block types.
const (
	BlockEvents = 'E'
	BlockDef    = 'D'
	BlockBitmap = 'B'
	BlockEnd    = 'Z'
)

// Kind is an event's kind.
type Kind uint8

// Event kinds.
const (
	Alloc   Kind = 1
	Move    Kind = 2
	Free    Kind = 3
	GCStart Kind = 4
	GCEnd   Kind = 5
)

// String names the kind.
func (k Kind) String() string {
	switch k {
	case Alloc:
		return "alloc"
	case Move:
		return "move"
	case Free:
		return "free"
	case GCStart:
		return "gc-start"
	case GCEnd:
		return "gc-end"
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// Event is one record. Its field layout is the record's, so a buffer of
// events is written as it is on a little-endian host.
type Event struct {
	Kind  Kind
	_     [3]byte
	Epoch uint32
	Seq   uint64
	// A, B, C, D depend on Kind (see the package doc).
	A, B, C, D uint32
}

// Thread is the VM thread whose buffer held the event (0: the
// collector's events); set by the reader from the block.
type Thread = uint32

// Record is an event with the thread it came from.
type Record struct {
	Event
	Thread Thread
}

// ClassDef names a class id.
type ClassDef struct {
	ID   uint32 `json:"id"`
	Name string `json:"name"`
}

// SiteDef names an allocation site id: a method and a dex pc.
type SiteDef struct {
	ID     uint32 `json:"id"`
	Method string `json:"method"` // pkg.Class.name
	Sig    string `json:"sig,omitempty"`
	PC     int    `json:"pc"`
	File   string `json:"file,omitempty"`
	Line   int    `json:"line,omitempty"` // -1 or 0 when unknown
}

// String is "pkg.Class.method@pc (File:line)".
func (s SiteDef) String() string {
	out := fmt.Sprintf("%s@%#x", s.Method, s.PC)
	if s.Line > 0 {
		out += fmt.Sprintf(" (%s:%d)", s.File, s.Line)
	}
	return out
}

// ThreadDef names a thread id.
type ThreadDef struct {
	ID   uint32 `json:"id"`
	Name string `json:"name"`
}

// GCDef describes a finished collection.
type GCDef struct {
	Count     int    `json:"count"`
	Kind      string `json:"kind"`
	Cause     string `json:"cause"`
	Collector string `json:"collector"`
	Freed     uint64 `json:"freed_bytes"`
	Live      uint64 `json:"live_bytes"`
	Footprint uint64 `json:"footprint"`
	PauseNS   int64  `json:"pause_ns"`
}

// RunDef describes the run, written first.
type RunDef struct {
	Collector string `json:"collector"`
	Engine    string `json:"engine"`
	Barriers  string `json:"barriers"`
	HeapMax   uint32 `json:"heap_max"`
	// Main lists the address ranges [lo, hi) of the main space, the
	// only one the access bitmap covers (two under ss: its halves).
	Main [][2]uint32 `json:"main"`
	// BitmapBytes is the access bitmap's size in memory (heap/64), 0
	// when the run kept none.
	BitmapBytes int `json:"bitmap_bytes"`
}

// InMain reports whether a lies in the main space.
func (r RunDef) InMain(a uint32) bool {
	for _, m := range r.Main {
		if a >= m[0] && a < m[1] {
			return true
		}
	}
	return false
}

// def is the JSON of a 'D' block: exactly one field set.
type def struct {
	Class  *ClassDef  `json:"class,omitempty"`
	Site   *SiteDef   `json:"site,omitempty"`
	Thread *ThreadDef `json:"thread,omitempty"`
	GC     *GCDef     `json:"gc,omitempty"`
	Run    *RunDef    `json:"run,omitempty"`
}

// Bitmap is one access-bitmap dump.
type Bitmap struct {
	Epoch uint32
	Base  uint32
	Final bool // dumped at VM exit
	// Words are the non-zero words by index.
	Index []uint32
	Words []uint64
}

// Each calls f with the address of every marked object, in address order.
func (b *Bitmap) Each(f func(addr uint32)) {
	for i, w := range b.Words {
		for bit := uint32(0); w != 0; bit++ {
			if w&1 != 0 {
				f(b.Base + (b.Index[i]*64+bit)*8)
			}
			w >>= 1
		}
	}
}
