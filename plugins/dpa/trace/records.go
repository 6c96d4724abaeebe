package trace

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"time"
	"unsafe"
)

// The collector's own files: RecordsFile holds the events as fixed-size
// binary records, written in batches whenever the record buffer fills;
// MetaFile describes them (JSON), written at the end.
const (
	RecordsFile = "dpa.records"
	MetaFile    = "dpa.json"

	recordsMagic = "DPAREC2\n"
	// RecordSize is the size of one record: a word (u32: the method ID
	// in the low 30 bits, the action in the top 2), the thread (u32) and
	// the wall clock (i64), all little-endian. Action 3 marks an
	// auxiliary record, whose low bits say what its i64 holds for the
	// thread's following events: their CPU clock less their wall clock
	// (recorded when it changes: the thread's CPU clock stops while
	// another holds the VM), or the Cost of the thread's next event
	// (recorded when not 0). The depth of an event is not recorded: it
	// follows from the thread's enters and exits before it.
	RecordSize = 16

	// Version 1 (DPAREC1), read still: thread u32, method u32, action
	// u8, 3 bytes padding, depth u32, wall i64, cpu i64, cost u32, 4
	// bytes padding. Every event stored both clocks, its depth and its
	// cost; 40 bytes an event streamed through the traced thread's
	// caches cost it about 7 ns more than 16 (plugins/dpa/BENCHMARKS.md).
	recordsMagicV1 = "DPAREC1\n"
	recordSizeV1   = 40
)

// record is one record in memory, in the file's byte layout on a
// little-endian host.
type record struct {
	word   uint32
	thread uint32
	value  int64
}

// Auxiliary records: the action and the kinds.
const (
	auxAction    = 3
	auxCPUOffset = 0
	auxCost      = 1
	methodMask   = 1<<30 - 1
)

// Meta is the content of MetaFile: everything in a Trace but the events.
type Meta struct {
	Start         time.Time     `json:"start"`
	ClockSource   string        `json:"clock_source,omitempty"` // Trace.ClockSource
	ClockOverhead time.Duration `json:"clock_overhead_ns"`
	EventOverhead time.Duration `json:"event_overhead_ns"`
	EventCosts    bool          `json:"event_costs"`
	Unmeasured    time.Duration `json:"unmeasured_overhead_ns"`
	// Calibration names where EventOverhead and Unmeasured come from:
	// CalibrationProgram or CalibrationPaired ("" in traces written
	// before the choice existed: paired).
	Calibration string `json:"calibration,omitempty"`
	// EventNs and UnmeasuredNs are EventOverhead and Unmeasured in
	// fractional nanoseconds, when the calibration resolves them finer
	// (one nanosecond per event is several per cent of a call-heavy
	// method).
	EventNs      float64 `json:"event_overhead_ns_frac,omitempty"`
	UnmeasuredNs float64 `json:"unmeasured_overhead_ns_frac,omitempty"`
	// The other calibration's figures, a cross-check: PairedEvent and
	// PairedUnmeasured from the calibration program, or ProgramEventNs
	// and ProgramUnmeasuredNs from the program's own pairs, with
	// ProgramSpreadNs, half the interquartile range of the pairs' event
	// costs, ProgramIntervalNs, the 95 % confidence interval of their
	// median (absent for fewer than 6 pairs), and ProgramPairs, how many
	// pairs were run.
	PairedEvent         time.Duration `json:"paired_event_overhead_ns,omitempty"`
	PairedUnmeasured    time.Duration `json:"paired_unmeasured_overhead_ns,omitempty"`
	ProgramEventNs      float64       `json:"program_event_overhead_ns,omitempty"`
	ProgramUnmeasuredNs float64       `json:"program_unmeasured_overhead_ns,omitempty"`
	ProgramSpreadNs     float64       `json:"program_spread_ns,omitempty"`
	ProgramIntervalNs   []float64     `json:"program_interval_ns,omitempty"` // 95 % interval of ProgramEventNs
	ProgramPairs        int           `json:"program_pairs,omitempty"`
	// ProgramStretch is what the program's figures (timed on the CPU
	// clock) were multiplied by for the wall-clock trace: the traced
	// run's wall time ÷ its main thread's CPU time.
	ProgramStretch float64 `json:"program_stretch,omitempty"`
	// CostsOfPrevious says that each record's Cost is what its thread's
	// previous event cost (the VM times a hook after it has returned);
	// Load moves every cost to the event it belongs to.
	CostsOfPrevious bool          `json:"costs_of_previous,omitempty"`
	Overflow        bool          `json:"overflow"`
	Elapsed         time.Duration `json:"elapsed_ns"`
	Records         int64         `json:"records"`
	BufferRecords   int           `json:"buffer_records"`
	Threads         []Thread      `json:"threads"`
	Methods         []Method      `json:"methods"`
}

// Recorder is the record buffer: events are kept in a fixed-size buffer
// and written out only when it is full (or on Flush). A buffer of 0
// records writes every event as it comes, one write per event on the
// traced thread (the paper's "no buffer" configuration).
//
// A full buffer is written by a writer goroutine while the traced thread
// fills a second buffer of the same size, so the traced program pays for
// handing a buffer over, not for the write system call and whatever the
// page cache makes of it that moment. If the writer has not finished with
// the other buffer yet, Add waits: no event is dropped.
type Recorder struct {
	w   io.Writer
	buf []record
	n   int
	// handed counts the records handed to the writer (or written), aux
	// the auxiliary ones among all records so far.
	handed, aux int64
	costs       int64 // Σ of the events' costs
	// By thread ID: the CPU offset last recorded (noOffset: none).
	offset []int64
	enc    []byte
	err    error
	full   chan []record // to the writer
	spare  chan []record // back from the writer
	done   chan struct{}
	// flushed: Flush has run.
	flushed bool
}

// NewRecorder starts a records file on w (which should be unbuffered, an
// *os.File, for the buffer size to mean what it says). The buffer holds
// bufferRecords records; an event takes one, or more when its thread's
// CPU offset changed or it carries a cost.
func NewRecorder(w io.Writer, bufferRecords int) (*Recorder, error) {
	if bufferRecords < 0 {
		return nil, fmt.Errorf("trace: negative record buffer size %d", bufferRecords)
	}
	if _, err := io.WriteString(w, recordsMagic); err != nil {
		return nil, err
	}
	r := &Recorder{w: w, buf: make([]record, max(bufferRecords, 1))}
	if bufferRecords == 0 {
		r.enc = make([]byte, RecordSize)
		return r, nil
	}
	r.full, r.spare, r.done = make(chan []record, 1), make(chan []record, 1), make(chan struct{})
	spare := make([]record, bufferRecords)
	// Both buffers are touched here, before the traced run: a buffer
	// fresh from the kernel faults at the first store to each of its
	// pages, which would land on the traced thread, once per 256 events
	// until the buffer has been filled once, so that a short run's
	// events would cost more than a long run's.
	prefault(r.buf)
	prefault(spare)
	r.spare <- spare
	go r.writer(make([]byte, bufferRecords*RecordSize))
	return r, nil
}

// prefault writes to every page of b, so that the kernel maps it now.
func prefault(b []record) {
	const perPage = 4096 / RecordSize
	for i := 0; i < len(b); i += perPage {
		b[i].word = 1
		b[i].word = 0
	}
}

// writer encodes and writes the buffers handed over, until Flush.
func (r *Recorder) writer(enc []byte) {
	defer close(r.done)
	for b := range r.full {
		out := recordBytes(b)
		if out == nil {
			out = enc[:len(b)*RecordSize]
			for i, x := range b {
				encode(out[i*RecordSize:], x)
			}
		}
		if r.err == nil {
			_, r.err = r.w.Write(out)
		}
		r.spare <- b[:cap(b)]
	}
}

// Add records one event (its Depth is not recorded; e.Method must be
// below 2^30). A write error is kept and returned by Flush.
func (r *Recorder) Add(e Event) { r.Record(e.Thread, e.Method, e.Action, e.Wall, e.CPU, e.Cost) }

// Record is Add with the event's fields as arguments, for the tracer's
// hooks: the common event, on a thread whose CPU offset has not changed
// and with no cost, is three stores into the buffer. (Building an Event
// and passing it to a call that is not inlined cost 14 ns an event more
// on fib, plugins/dpa/BENCHMARKS.md: the copy's wide loads wait for the
// narrow stores that built it.)
func (r *Recorder) Record(thread, method uint32, a Action, wall, cpu int64, cost uint32) {
	if n := r.n; n < len(r.buf) && cost == 0 && int(thread) < len(r.offset) && r.offset[thread] == cpu-wall {
		b := &r.buf[n]
		b.word, b.thread, b.value = uint32(a)<<30|method&methodMask, thread, wall
		r.n = n + 1
		return
	}
	r.add(thread, method, a, wall, cpu, cost)
}

// Store is Record's common case on its own, small enough to be inlined
// into a method hook, so that an event is one call (the hook) instead of
// three (hook, tracer, Record): when the buffer has room and the thread's
// CPU offset is the one last recorded, it stores the event (with no cost)
// and reports true; otherwise it stores nothing and the caller calls
// Record.
func (r *Recorder) Store(thread, method uint32, a Action, wall, cpu int64) bool {
	n := r.n
	if n >= len(r.buf) || int(thread) >= len(r.offset) || r.offset[thread] != cpu-wall {
		return false
	}
	b := &r.buf[n]
	b.word, b.thread, b.value = uint32(a)<<30|method&methodMask, thread, wall
	r.n = n + 1
	return true
}

// add is Record's path for an event that needs auxiliary records first or
// finds the buffer full.
func (r *Recorder) add(thread, method uint32, a Action, wall, cpu int64, cost uint32) {
	if off := cpu - wall; int(thread) >= len(r.offset) || r.offset[thread] != off {
		r.newOffset(thread, off)
	}
	if cost != 0 {
		r.put(auxAction<<30|auxCost, thread, int64(cost))
		r.aux++
		r.costs += int64(cost)
	}
	r.put(uint32(a)<<30|method&methodMask, thread, wall)
}

// noOffset marks a thread whose CPU offset has not been recorded yet (no
// thread's CPU clock is that far behind its wall clock).
const noOffset = math.MinInt64

// newOffset records that thread's events from now on have CPU clocks off
// from their wall clocks by off.
func (r *Recorder) newOffset(thread uint32, off int64) {
	for int(thread) >= len(r.offset) {
		r.offset = append(r.offset, noOffset)
	}
	r.offset[thread] = off
	r.put(auxAction<<30|auxCPUOffset, thread, off)
	r.aux++
}

// put stores one record; the buffer is handed over when a record arrives
// and finds it full.
func (r *Recorder) put(word, thread uint32, value int64) {
	if r.n == len(r.buf) {
		r.flush()
	}
	b := &r.buf[r.n]
	b.word, b.thread, b.value = word, thread, value
	r.n++
}

func (r *Recorder) flush() {
	if r.n == 0 {
		return
	}
	if r.full == nil {
		for _, x := range r.buf[:r.n] {
			encode(r.enc, x)
			if r.err == nil {
				_, r.err = r.w.Write(r.enc)
			}
		}
	} else {
		r.full <- r.buf[:r.n]
		r.buf = <-r.spare
	}
	r.handed += int64(r.n)
	r.n = 0
}

// Flush writes out the events still buffered, waits for the writer and
// reports the first write error. Only Records may be called after it.
func (r *Recorder) Flush() error {
	if r.flushed {
		return r.err
	}
	r.flushed = true
	r.flush()
	if r.full != nil {
		close(r.full)
		<-r.done
	}
	return r.err
}

// Costs is the sum of the Costs of the events recorded so far.
func (r *Recorder) Costs() int64 { return r.costs }

// Records is the number of events recorded so far.
func (r *Recorder) Records() int64 { return r.handed + int64(r.n) - r.aux }

// recordBytes is the memory of b when it already is the records' byte
// layout (a little-endian host), so a full buffer is written without
// encoding it; nil otherwise.
func recordBytes(b []record) []byte {
	if !nativeLayout || len(b) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&b[0])), len(b)*RecordSize)
}

// nativeLayout is whether record in memory is a record of the file.
var nativeLayout = unsafe.Sizeof(record{}) == RecordSize && unsafe.Offsetof(record{}.thread) == 4 &&
	unsafe.Offsetof(record{}.value) == 8 && func() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}()

func encode(b []byte, x record) {
	binary.LittleEndian.PutUint32(b[0:], x.word)
	binary.LittleEndian.PutUint32(b[4:], x.thread)
	binary.LittleEndian.PutUint64(b[8:], uint64(x.value))
}

// ReadRecords decodes a records file.
func ReadRecords(r io.Reader) ([]Event, error) { return readRecords(r, 0) }

// readRecords decodes a records file into a slice made for n events.
func readRecords(r io.Reader, n int64) ([]Event, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	magic := make([]byte, len(recordsMagic))
	if _, err := io.ReadFull(br, magic); err != nil || string(magic) != recordsMagic && string(magic) != recordsMagicV1 {
		return nil, errors.New("not a dpa records file (bad magic at offset 0)")
	}
	if string(magic) == recordsMagicV1 {
		return readRecordsV1(br, n)
	}
	events := make([]Event, 0, n)
	var threads []threadState // by thread ID
	b := make([]byte, RecordSize)
	for off := int64(len(recordsMagic)); ; off += RecordSize {
		n, err := io.ReadFull(br, b)
		if err == io.EOF {
			return events, nil
		}
		if err != nil {
			return events, fmt.Errorf("truncated record at offset %d (%d of %d bytes)", off, n, RecordSize)
		}
		word, thread, value := binary.LittleEndian.Uint32(b[0:]), binary.LittleEndian.Uint32(b[4:]), int64(binary.LittleEndian.Uint64(b[8:]))
		if int(thread) >= len(threads) {
			if thread > 1<<24 {
				return events, fmt.Errorf("record at offset %d: thread %d", off, thread)
			}
			threads = append(threads, make([]threadState, int(thread)+1-len(threads))...)
		}
		th := &threads[thread]
		if word>>30 == auxAction {
			switch word & methodMask {
			case auxCPUOffset:
				th.offset = value
			case auxCost:
				th.cost = uint32(value)
			default:
				return events, fmt.Errorf("record at offset %d: bad auxiliary record kind %d", off, word&methodMask)
			}
			continue
		}
		e := Event{Thread: thread, Method: word & methodMask, Action: Action(word >> 30), Wall: value, CPU: value + th.offset, Cost: th.cost}
		th.cost = 0
		// The depth the events imply; an exit with none open keeps
		// depth 0, which the analysis reports as corrupt.
		if e.Action == Enter {
			th.depth++
			e.Depth = th.depth
		} else {
			e.Depth = th.depth
			th.depth -= min(th.depth, 1)
		}
		events = append(events, e)
	}
}

// threadState is what readRecords knows of a thread from its records so
// far.
type threadState struct {
	depth  uint32
	offset int64
	cost   uint32
}

// readRecordsV1 decodes the records after a version-1 magic.
func readRecordsV1(br io.Reader, n int64) ([]Event, error) {
	events := make([]Event, 0, n)
	b := make([]byte, recordSizeV1)
	for off := int64(len(recordsMagicV1)); ; off += recordSizeV1 {
		n, err := io.ReadFull(br, b)
		if err == io.EOF {
			return events, nil
		}
		if err != nil {
			return events, fmt.Errorf("truncated record at offset %d (%d of %d bytes)", off, n, recordSizeV1)
		}
		e := Event{
			Thread: binary.LittleEndian.Uint32(b[0:]),
			Method: binary.LittleEndian.Uint32(b[4:]),
			Action: Action(b[8]),
			Depth:  binary.LittleEndian.Uint32(b[12:]),
			Wall:   int64(binary.LittleEndian.Uint64(b[16:])),
			CPU:    int64(binary.LittleEndian.Uint64(b[24:])),
			Cost:   binary.LittleEndian.Uint32(b[32:]),
		}
		if e.Action > Unroll {
			return events, fmt.Errorf("record at offset %d: bad action %d", off, b[8])
		}
		events = append(events, e)
	}
}

// WriteMeta writes MetaFile's content.
func WriteMeta(w io.Writer, m *Meta) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(m)
}

// Load reads a trace from the collector's two files.
func Load(recordsPath, metaPath string) (*Trace, error) {
	mb, err := os.ReadFile(metaPath)
	if err != nil {
		return nil, err
	}
	var m Meta
	if err := json.Unmarshal(mb, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", metaPath, err)
	}
	f, err := os.Open(recordsPath)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var n int64 // the events the file's size has room for (at most)
	if fi, err := f.Stat(); err == nil {
		n = max(fi.Size()-int64(len(recordsMagic)), 0) / RecordSize
	}
	events, err := readRecords(f, n)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", recordsPath, err)
	}
	if int64(len(events)) != m.Records {
		return nil, fmt.Errorf("%s: %d records, but %s says %d", recordsPath, len(events), metaPath, m.Records)
	}
	if m.CostsOfPrevious {
		costsToOwnEvents(events)
	}
	return &Trace{
		Start: m.Start, ClockSource: m.ClockSource, ClockOverhead: m.ClockOverhead, EventOverhead: m.EventOverhead, Overflow: m.Overflow,
		EventCosts: m.EventCosts, UnmeasuredOverhead: m.Unmeasured,
		Calibration: m.Calibration, EventOverheadNs: m.EventNs, UnmeasuredOverheadNs: m.UnmeasuredNs,
		PairedEventOverhead: m.PairedEvent, PairedUnmeasuredOverhead: m.PairedUnmeasured,
		ProgramEventOverheadNs: m.ProgramEventNs, ProgramUnmeasuredOverheadNs: m.ProgramUnmeasuredNs,
		Threads: m.Threads, Methods: m.Methods, Events: events, Elapsed: m.Elapsed,
	}, nil
}

// costsToOwnEvents moves each event's Cost, which is its thread's previous
// event's, to that event; a thread's last event, timed by nobody, keeps 0.
func costsToOwnEvents(events []Event) {
	last := map[uint32]int{} // thread -> index of its latest event so far
	for i := range events {
		e := &events[i]
		if j, ok := last[e.Thread]; ok {
			events[j].Cost = e.Cost
		}
		e.Cost = 0
		last[e.Thread] = i
	}
}
