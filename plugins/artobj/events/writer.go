package events

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"unsafe"
)

// Recorder writes an event file. Every VM thread has a buffer of its own
// (the collector's events, thread 0, another) of a fixed number of
// records; a full buffer is handed to a background writer and the thread
// goes on with a spare one, so the program pays for the hand-over, not
// for the write. Records carry one global sequence number, so the reader
// restores a single order although buffers reach the file out of order
// (paper 003 used one shared buffer because per-thread buffers lost the
// order; the sequence number keeps it).
//
// The VM runs one thread at a time and calls its hooks under its global
// lock, so a Recorder is not safe for concurrent use and needs no lock:
// the hooks are its only callers.
type Recorder struct {
	size  int // records per buffer
	bufs  []*buffer
	epoch uint32
	seq   uint64
	n     int64 // events recorded

	items chan item
	spare chan []Event
	done  chan struct{}
	err   error // the writer's first error, read after done
	hdr   [blockSize]byte
	enc   []byte
	w     io.Writer
	// Written is what the writer has put in the file so far, bytes.
	written int64
	closed  bool
}

type buffer struct {
	thread uint32
	ev     []Event
	n      int
}

// item is one block for the writer.
type item struct {
	typ    byte
	thread uint32
	count  int
	ev     []Event // an 'E' block (returned to spare when written)
	raw    []byte  // any other block's payload
}

// NewRecorder writes the file header and the run's description to w and
// starts the writer. bufferRecords is each thread's buffer size.
func NewRecorder(w io.Writer, bufferRecords int, run RunDef) (*Recorder, error) {
	if bufferRecords < 1 {
		return nil, fmt.Errorf("events: record buffer of %d records: want at least 1", bufferRecords)
	}
	var h [headerSize]byte
	copy(h[:], Magic)
	binary.LittleEndian.PutUint32(h[8:], Version)
	binary.LittleEndian.PutUint32(h[12:], RecordSize)
	if _, err := w.Write(h[:]); err != nil {
		return nil, fmt.Errorf("events: writing the header: %w", err)
	}
	r := &Recorder{size: bufferRecords, w: w, items: make(chan item, 16), spare: make(chan []Event, 64), done: make(chan struct{}), written: headerSize}
	go r.writer()
	r.define(def{Run: &run})
	return r, nil
}

// writer writes the blocks handed over, in order, until Close.
func (r *Recorder) writer() {
	defer close(r.done)
	for it := range r.items {
		payload := it.raw
		if it.typ == BlockEvents {
			payload = r.encode(it.ev[:it.count])
		}
		if r.err == nil {
			r.hdr = [blockSize]byte{it.typ}
			binary.LittleEndian.PutUint32(r.hdr[4:], it.thread)
			binary.LittleEndian.PutUint32(r.hdr[8:], uint32(it.count))
			binary.LittleEndian.PutUint32(r.hdr[12:], uint32(len(payload)))
			if _, err := r.w.Write(r.hdr[:]); err != nil {
				r.err = fmt.Errorf("events: writing a block header at offset %d: %w", r.written, err)
			} else if _, err := r.w.Write(payload); err != nil {
				r.err = fmt.Errorf("events: writing a block at offset %d: %w", r.written, err)
			}
			r.written += int64(blockSize + len(payload))
		}
		if it.ev != nil {
			select {
			case r.spare <- it.ev:
			default: // enough spares: let it go
			}
		}
	}
}

// encode is the events' bytes: their memory on a little-endian host,
// else an encoding of them.
func (r *Recorder) encode(ev []Event) []byte {
	if len(ev) == 0 {
		return nil
	}
	if nativeLayout {
		return unsafe.Slice((*byte)(unsafe.Pointer(&ev[0])), len(ev)*RecordSize)
	}
	if cap(r.enc) < len(ev)*RecordSize {
		r.enc = make([]byte, len(ev)*RecordSize)
	}
	out := r.enc[:len(ev)*RecordSize]
	for i, e := range ev {
		putEvent(out[i*RecordSize:], e)
	}
	return out
}

func putEvent(b []byte, e Event) {
	b[0], b[1], b[2], b[3] = byte(e.Kind), 0, 0, 0
	binary.LittleEndian.PutUint32(b[4:], e.Epoch)
	binary.LittleEndian.PutUint64(b[8:], e.Seq)
	binary.LittleEndian.PutUint32(b[16:], e.A)
	binary.LittleEndian.PutUint32(b[20:], e.B)
	binary.LittleEndian.PutUint32(b[24:], e.C)
	binary.LittleEndian.PutUint32(b[28:], e.D)
}

// nativeLayout is whether an Event in memory is its record.
var nativeLayout = unsafe.Sizeof(Event{}) == RecordSize && unsafe.Offsetof(Event{}.Epoch) == 4 &&
	unsafe.Offsetof(Event{}.Seq) == 8 && unsafe.Offsetof(Event{}.A) == 16 && func() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}()

// add appends an event to thread's buffer, handing the buffer over when
// full.
func (r *Recorder) add(thread uint32, k Kind, a, b, c, d uint32) {
	var buf *buffer
	if int(thread) < len(r.bufs) {
		buf = r.bufs[thread]
	}
	if buf == nil {
		buf = r.newBuffer(thread)
	}
	r.seq++
	buf.ev[buf.n] = Event{Kind: k, Epoch: r.epoch, Seq: r.seq, A: a, B: b, C: c, D: d}
	buf.n++
	r.n++
	if buf.n == len(buf.ev) {
		r.hand(buf)
	}
}

func (r *Recorder) newBuffer(thread uint32) *buffer {
	for int(thread) >= len(r.bufs) {
		r.bufs = append(r.bufs, nil)
	}
	b := &buffer{thread: thread, ev: r.take()}
	r.bufs[thread] = b
	return b
}

// take returns a spare buffer, or a new one.
func (r *Recorder) take() []Event {
	select {
	case ev := <-r.spare:
		return ev
	default:
		return make([]Event, r.size)
	}
}

// hand gives a thread's buffer to the writer and gives it a spare.
func (r *Recorder) hand(b *buffer) {
	if b.n == 0 {
		return
	}
	r.items <- item{typ: BlockEvents, thread: b.thread, count: b.n, ev: b.ev}
	b.ev, b.n = r.take(), 0
}

// define hands a definition block to the writer, ahead of every buffer
// that may hold an id it defines.
func (r *Recorder) define(d def) {
	data, err := json.Marshal(d)
	if err != nil {
		panic(fmt.Sprintf("events: encoding a definition: %v", err)) // plain structs always encode
	}
	r.items <- item{typ: BlockDef, raw: data}
}

// Alloc records an allocation by VM thread (≥ 1) in the current epoch.
func (r *Recorder) Alloc(thread, addr, size, class, site uint32) {
	r.add(thread, Alloc, addr, size, class, site)
}

// Move records that the collection under way moved an object.
func (r *Recorder) Move(from, to, size uint32) { r.add(0, Move, from, to, size, 0) }

// Free records that the collection under way found an object dead.
func (r *Recorder) Free(addr, size uint32) { r.add(0, Free, addr, size, 0, 0) }

// GCStart records the start of collection count, which starts its epoch.
func (r *Recorder) GCStart(count int) {
	r.epoch = uint32(count)
	r.add(0, GCStart, uint32(count), 0, 0, 0)
}

// GCEnd records the end of a collection and describes it. Every
// thread's buffer is handed over with it, full or not, so the file holds
// the epochs in order: a file cut short (a run killed) loses at most the
// epoch it was cut in, and the collector's own events, which fill their
// buffer slowly, do not wait for the end of the run.
func (r *Recorder) GCEnd(g GCDef) {
	r.add(0, GCEnd, uint32(g.Count), 0, 0, 0)
	r.define(def{GC: &g})
	for _, b := range r.bufs {
		if b != nil {
			r.hand(b)
		}
	}
}

// Epoch is the current epoch: the collections started so far.
func (r *Recorder) Epoch() uint32 { return r.epoch }

// DefineClass names a class id.
func (r *Recorder) DefineClass(c ClassDef) { r.define(def{Class: &c}) }

// DefineSite names an allocation site id.
func (r *Recorder) DefineSite(s SiteDef) { r.define(def{Site: &s}) }

// DefineThread names a thread id.
func (r *Recorder) DefineThread(t ThreadDef) { r.define(def{Thread: &t}) }

// Bitmap records an access bitmap: the accesses of epoch, walked by each
// (which calls its argument with every marked address, in address
// order, as gc.AccessBitmap.Walk does).
func (r *Recorder) Bitmap(epoch, base uint32, final bool, each func(func(addr uint32))) {
	payload := make([]byte, 16, 16+64*wordSize)
	binary.LittleEndian.PutUint32(payload[0:], epoch)
	binary.LittleEndian.PutUint32(payload[4:], base)
	if final {
		payload[8] = 1
	}
	count := 0
	cur, word := uint32(0), uint64(0)
	put := func() {
		if word != 0 {
			payload = binary.LittleEndian.AppendUint32(payload, cur)
			payload = binary.LittleEndian.AppendUint64(payload, word)
			count++
		}
	}
	each(func(a uint32) {
		i := (a - base) / 8
		if w := i / 64; w != cur {
			put()
			cur, word = w, 0
		}
		word |= 1 << (i % 64)
	})
	put()
	r.items <- item{typ: BlockBitmap, count: count, raw: payload}
}

// Records is the number of events recorded so far.
func (r *Recorder) Records() int64 { return r.n }

// Close hands over every thread's buffer, ends the file and waits for
// the writer; it returns the first write error. complete says whether
// to write the end block: false leaves the file marked partial (a run
// that failed).
func (r *Recorder) Close(complete bool) error {
	if r.closed {
		return r.err
	}
	r.closed = true
	for _, b := range r.bufs {
		if b != nil {
			r.hand(b)
		}
	}
	if complete {
		r.items <- item{typ: BlockEnd}
	}
	close(r.items)
	<-r.done
	return r.err
}

// Written is the file's size once Close has returned.
func (r *Recorder) Written() int64 { return r.written }
