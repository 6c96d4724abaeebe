package trace

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Events come back from the records file in order and complete, whatever
// the buffer size, including 0 (one write per event) and sizes that leave
// a partial last buffer: three interleaved threads entering and leaving
// methods, their CPU clocks falling behind their wall clocks now and then,
// some events with a cost.
func TestRecorderRoundTrip(t *testing.T) {
	var want []Event
	depth := map[uint32]uint32{}
	lag := map[uint32]int64{}
	for i := range 2500 {
		th := uint32(1 + i%3)
		a := Action(i % 3)
		if depth[th] == 0 {
			a = Enter
		}
		if i%17 == 0 {
			lag[th] += int64(i)
		}
		e := Event{Thread: th, Method: uint32(1 + 4*(i%7)), Action: a, Wall: int64(i) * 1000, CPU: int64(i)*1000 - lag[th], Cost: uint32(i % 5 * 50)}
		if a == Enter {
			depth[th]++
			e.Depth = depth[th]
		} else {
			e.Depth = depth[th]
			depth[th]--
		}
		want = append(want, e)
	}
	for _, tc := range []struct {
		size  int
		store bool // the hooks' way: Store first, Record when it declines
	}{{0, false}, {1, false}, {3, false}, {1000, false}, {4096, false}, {0, true}, {3, true}, {1000, true}} {
		size := tc.size
		var out bytes.Buffer
		r, err := NewRecorder(&out, size)
		if err != nil {
			t.Fatal(err)
		}
		stored := 0
		for _, e := range want {
			if tc.store && e.Cost == 0 && r.Store(e.Thread, e.Method, e.Action, e.Wall, e.CPU) {
				stored++
				continue
			}
			r.Add(e)
		}
		if tc.store && size > 3 && stored == 0 {
			t.Errorf("buffer %d: Store declined every event", size)
		}
		if err := r.Flush(); err != nil {
			t.Fatal(err)
		}
		if r.Records() != int64(len(want)) || (out.Len()-len(recordsMagic))%RecordSize != 0 || out.Len() < len(recordsMagic)+len(want)*RecordSize {
			t.Fatalf("buffer %d: %d records, %d bytes", size, r.Records(), out.Len())
		}
		got, err := ReadRecords(&out)
		if err != nil || !slices.Equal(got, want) {
			t.Fatalf("buffer %d: read %d events (%v), want %d equal ones", size, len(got), err, len(want))
		}
	}
}

// Records files of version 1 (40 bytes an event, every field stored)
// still load.
func TestReadRecordsVersion1(t *testing.T) {
	want := []Event{
		{Thread: 1, Method: 2, Action: Enter, Depth: 1, Wall: 10, CPU: 9, Cost: 7},
		{Thread: 1, Method: 2, Action: Unroll, Depth: 1, Wall: 30, CPU: 20},
	}
	b := []byte(recordsMagicV1)
	for _, e := range want {
		r := make([]byte, recordSizeV1)
		binary.LittleEndian.PutUint32(r[0:], e.Thread)
		binary.LittleEndian.PutUint32(r[4:], e.Method)
		r[8] = byte(e.Action)
		binary.LittleEndian.PutUint32(r[12:], e.Depth)
		binary.LittleEndian.PutUint64(r[16:], uint64(e.Wall))
		binary.LittleEndian.PutUint64(r[24:], uint64(e.CPU))
		binary.LittleEndian.PutUint32(r[32:], e.Cost)
		b = append(b, r...)
	}
	got, err := ReadRecords(bytes.NewReader(b))
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("read %+v (%v), want %+v", got, err, want)
	}
	b[len(recordsMagicV1)+8] = 3
	if _, err := ReadRecords(bytes.NewReader(b)); err == nil || !strings.Contains(err.Error(), "bad action") {
		t.Errorf("bad action: %v", err)
	}
}

type failingWriter struct{ n int }

func (w *failingWriter) Write(p []byte) (int, error) {
	if w.n++; w.n > 2 {
		return 0, errors.New("disk full")
	}
	return len(p), nil
}

func TestRecorderReportsWriteErrors(t *testing.T) {
	for _, size := range []int{0, 10} {
		r, err := NewRecorder(&failingWriter{}, size)
		if err != nil {
			t.Fatal(err)
		}
		for i := range 100 {
			r.Add(Event{Thread: 1, Method: 4, Wall: int64(i)})
		}
		if err := r.Flush(); err == nil || !strings.Contains(err.Error(), "disk full") {
			t.Errorf("buffer %d: Flush = %v, want the write error", size, err)
		}
	}
}

func TestReadRecordsErrors(t *testing.T) {
	if _, err := ReadRecords(strings.NewReader("nope")); err == nil {
		t.Error("bad magic accepted")
	}
	short := recordsMagic + strings.Repeat("\x00", RecordSize+5)
	if _, err := ReadRecords(strings.NewReader(short)); err == nil || !strings.Contains(err.Error(), "offset 24") {
		t.Errorf("truncated record: %v", err)
	}
	aux := make([]byte, RecordSize)
	encode(aux, record{word: auxAction<<30 | 7, thread: 1})
	if _, err := ReadRecords(strings.NewReader(recordsMagic + string(aux))); err == nil || !strings.Contains(err.Error(), "auxiliary") {
		t.Errorf("unknown auxiliary record: %v", err)
	}
}

// TestRecordBytesIsTheEncoding checks that writing a buffer's memory as it
// is (the writer's fast path) gives the bytes encode gives.
func TestRecordBytesIsTheEncoding(t *testing.T) {
	records := []record{
		{word: 1<<30 | 2, thread: 1, value: 1 << 40},
		{word: auxAction<<30 | auxCost, thread: 0xfffffffe, value: -1},
	}
	got := recordBytes(records)
	if got == nil {
		t.Skip("this host's record layout is not the file's; the writer encodes")
	}
	want := make([]byte, len(records)*RecordSize)
	for i, x := range records {
		encode(want[i*RecordSize:], x)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("buffer memory\n%x\nencoded\n%x", got, want)
	}
}

// A collector that learns an event's cost only at its thread's next event
// records it there (Meta.CostsOfPrevious); Load gives every event its own.
func TestLoadMovesCostsOfPrevious(t *testing.T) {
	// Two interleaved threads; own[i] is what event i cost.
	threads := []uint32{1, 1, 2, 1, 2, 2, 1}
	own := []uint32{10, 11, 20, 12, 21, 22, 13}
	var recorded []Event
	prev := map[uint32]uint32{}
	for i, th := range threads {
		recorded = append(recorded, Event{Thread: th, Method: 4, Wall: int64(i), Cost: prev[th]})
		prev[th] = own[i]
	}
	dir := t.TempDir()
	rec, meta := filepath.Join(dir, RecordsFile), filepath.Join(dir, MetaFile)
	f, err := os.Create(rec)
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewRecorder(f, 4)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range recorded {
		r.Add(e)
	}
	if err := r.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	for _, shifted := range []bool{false, true} {
		var mb bytes.Buffer
		if err := WriteMeta(&mb, &Meta{Records: int64(len(recorded)), EventCosts: true, CostsOfPrevious: shifted}); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(meta, mb.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		tr, err := Load(rec, meta)
		if err != nil {
			t.Fatal(err)
		}
		for i, e := range tr.Events {
			want := recorded[i].Cost
			if shifted {
				// The last event of each thread was timed by no later one.
				want = own[i]
				if i == 5 || i == 6 {
					want = 0
				}
			}
			if e.Cost != want {
				t.Errorf("CostsOfPrevious %v: event %d (thread %d) cost %d, want %d", shifted, i, e.Thread, e.Cost, want)
			}
		}
	}
}
