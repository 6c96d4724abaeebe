package trace

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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

	recordsMagic = "DPAREC1\n"
	// RecordSize is the size of one event record: thread u32, method u32,
	// action u8, 3 bytes padding, depth u32, wall i64, cpu i64, cost u32,
	// 4 bytes padding, all little-endian.
	RecordSize = 40
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
// A full buffer is encoded and written by a writer goroutine while the
// traced thread fills a second buffer of the same size, so the traced
// program pays for handing a buffer over, not for the write system call
// and whatever the page cache makes of it that moment. If the writer has
// not finished with the other buffer yet, Add waits: no event is dropped.
type Recorder struct {
	w       io.Writer
	buf     []Event
	n       int
	handed  int64 // events handed to the writer (or written)
	enc     []byte
	err     error
	full    chan []Event // to the writer
	spare   chan []Event // back from the writer
	done    chan struct{}
	flushed bool
}

// NewRecorder starts a records file on w (which should be unbuffered, an
// *os.File, for the buffer size to mean what it says).
func NewRecorder(w io.Writer, bufferRecords int) (*Recorder, error) {
	if bufferRecords < 0 {
		return nil, fmt.Errorf("trace: negative record buffer size %d", bufferRecords)
	}
	if _, err := io.WriteString(w, recordsMagic); err != nil {
		return nil, err
	}
	r := &Recorder{w: w, buf: make([]Event, max(bufferRecords, 1))}
	if bufferRecords == 0 {
		r.enc = make([]byte, RecordSize)
		return r, nil
	}
	r.full, r.spare, r.done = make(chan []Event, 1), make(chan []Event, 1), make(chan struct{})
	spare := make([]Event, bufferRecords)
	// Both buffers are touched here, before the traced run: a buffer
	// fresh from the kernel faults at the first store to each of its
	// pages, which would land on the traced thread, once per 100 events
	// (4 KB of records) until the buffer has been filled once, so that a
	// short run's events would cost more than a long run's.
	prefault(r.buf)
	prefault(spare)
	r.spare <- spare
	go r.writer(make([]byte, bufferRecords*RecordSize))
	return r, nil
}

// prefault writes to every page of b, so that the kernel maps it now.
func prefault(b []Event) {
	const perPage = 4096 / RecordSize
	for i := 0; i < len(b); i += perPage {
		b[i].Thread = 1
		b[i].Thread = 0
	}
}

// writer encodes and writes the buffers handed over, until Flush.
func (r *Recorder) writer(enc []byte) {
	defer close(r.done)
	for b := range r.full {
		out := recordBytes(b)
		if out == nil {
			out = enc[:len(b)*RecordSize]
			for i, e := range b {
				encode(out[i*RecordSize:], e)
			}
		}
		if r.err == nil {
			_, r.err = r.w.Write(out)
		}
		r.spare <- b[:cap(b)]
	}
}

// Add records one event. The buffer is handed over when an event arrives
// and finds it full. A write error is kept and returned by Flush.
func (r *Recorder) Add(e Event) {
	if r.n == len(r.buf) {
		r.flush()
	}
	r.buf[r.n] = e
	r.n++
}

func (r *Recorder) flush() {
	if r.n == 0 {
		return
	}
	if r.full == nil {
		for _, e := range r.buf[:r.n] {
			encode(r.enc, e)
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

// Records is the number of events recorded so far.
func (r *Recorder) Records() int64 { return r.handed + int64(r.n) }

// recordBytes is the memory of b when it already is the records' byte
// layout (a little-endian host: Event's fields and padding are the
// record's), so a full buffer is written without encoding it; nil
// otherwise.
func recordBytes(b []Event) []byte {
	if !nativeLayout || len(b) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&b[0])), len(b)*RecordSize)
}

// nativeLayout is whether Event in memory is a record.
var nativeLayout = unsafe.Sizeof(Event{}) == RecordSize && unsafe.Offsetof(Event{}.Depth) == 12 &&
	unsafe.Offsetof(Event{}.Wall) == 16 && unsafe.Offsetof(Event{}.Cost) == 32 && func() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}()

func encode(b []byte, e Event) {
	binary.LittleEndian.PutUint32(b[0:], e.Thread)
	binary.LittleEndian.PutUint32(b[4:], e.Method)
	b[8], b[9], b[10], b[11] = byte(e.Action), 0, 0, 0
	binary.LittleEndian.PutUint32(b[12:], e.Depth)
	binary.LittleEndian.PutUint64(b[16:], uint64(e.Wall))
	binary.LittleEndian.PutUint64(b[24:], uint64(e.CPU))
	binary.LittleEndian.PutUint32(b[32:], e.Cost)
	binary.LittleEndian.PutUint32(b[36:], 0)
}

// ReadRecords decodes a records file.
func ReadRecords(r io.Reader) ([]Event, error) { return readRecords(r, 0) }

// readRecords decodes a records file into a slice made for n events.
func readRecords(r io.Reader, n int64) ([]Event, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	magic := make([]byte, len(recordsMagic))
	if _, err := io.ReadFull(br, magic); err != nil || string(magic) != recordsMagic {
		return nil, errors.New("not a dpa records file (bad magic at offset 0)")
	}
	events := make([]Event, 0, n)
	b := make([]byte, RecordSize)
	for off := int64(len(recordsMagic)); ; off += RecordSize {
		n, err := io.ReadFull(br, b)
		if err == io.EOF {
			return events, nil
		}
		if err != nil {
			return events, fmt.Errorf("truncated record at offset %d (%d of %d bytes)", off, n, RecordSize)
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
	var n int64 // the events the file's size has room for
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
