package trace

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"
)

// Android method-trace (dmtrace, ".trace") constants; see AOSP ART
// runtime/trace.cc and tools/dmtracedump.
const (
	dmtraceMagic      = 0x574F4C53 // "SLOW" little-endian
	dmtraceHeaderSize = 32
	dmtraceVersion    = 3
	// dmtraceRecordSize is a dual-clock version-3 record: u2 tid,
	// u4 methodValue, u4 thread-CPU µs, u4 wall µs.
	dmtraceRecordSize = 14
	// dmtraceMaxTID keeps thread IDs inside dmtracedump's fixed thread
	// table (MAX_THREADS = 32768); larger IDs make it write out of bounds.
	dmtraceMaxTID = 32767
)

// DmtraceMethodID is the method ID WriteDmtrace gives the method at
// t.Methods[index]: dmtrace packs the action into the low two bits of the
// method value, so IDs must be multiples of 4 (newer ART uses index<<2;
// the +1 keeps 0 free).
func DmtraceMethodID(index int) uint32 { return uint32(index+1) << 2 }

// WriteDmtrace writes t as an Android method trace: version 3, clock=dual,
// 14-byte records, as ART writes it, so that Traceview, dmtracedump and
// Android Studio open it.
//
// Times are truncated to microseconds (the format's unit). Method IDs are
// DmtraceMethodID of the method's index in t.Methods; only methods that
// occur in events are listed. Thread IDs are kept when they all fit in
// 1..32767, otherwise every thread is renumbered to its index in t.Threads
// plus one. Class names are written in the dotted (ART) form. A method's
// line number is written as a sixth field (as Dalvik does) only when it is
// known. It is an error for an event to name an unknown thread or method,
// or for a time not to fit the format's u32 microseconds (about 71.6
// minutes).
func WriteDmtrace(w io.Writer, t *Trace) error {
	methodIdx := make(map[uint32]int, len(t.Methods))
	for i, m := range t.Methods {
		methodIdx[m.ID] = i
	}
	threadIdx := make(map[uint32]int, len(t.Threads))
	keepTIDs := true
	for i, th := range t.Threads {
		threadIdx[th.ID] = i
		if th.ID == 0 || th.ID > dmtraceMaxTID {
			keepTIDs = false
		}
	}
	if len(t.Threads) > dmtraceMaxTID {
		return fmt.Errorf("dmtrace: %d threads, the format allows %d", len(t.Threads), dmtraceMaxTID)
	}
	tid := func(id uint32) uint16 {
		if keepTIDs {
			return uint16(id)
		}
		return uint16(threadIdx[id] + 1)
	}

	// Check the events and encode the records first, so that a bad trace
	// leaves nothing half-written.
	used := make([]bool, len(t.Methods))
	data := make([]byte, 0, len(t.Events)*dmtraceRecordSize)
	var rec [dmtraceRecordSize]byte
	for i, e := range t.Events {
		mi, ok := methodIdx[e.Method]
		if !ok {
			return fmt.Errorf("dmtrace: event %d names unknown method %d", i, e.Method)
		}
		if _, ok := threadIdx[e.Thread]; !ok {
			return fmt.Errorf("dmtrace: event %d names unknown thread %d", i, e.Thread)
		}
		if e.Action > Unroll {
			return fmt.Errorf("dmtrace: event %d has bad action %d", i, e.Action)
		}
		cpu, wall := e.CPU/1000, e.Wall/1000
		if cpu < 0 || cpu > math.MaxUint32 || wall < 0 || wall > math.MaxUint32 {
			return fmt.Errorf("dmtrace: event %d: time (wall %dµs, cpu %dµs) does not fit the format's u32 microseconds", i, wall, cpu)
		}
		used[mi] = true
		binary.LittleEndian.PutUint16(rec[0:], tid(e.Thread))
		binary.LittleEndian.PutUint32(rec[2:], DmtraceMethodID(mi)|uint32(e.Action))
		binary.LittleEndian.PutUint32(rec[6:], uint32(cpu))
		binary.LittleEndian.PutUint32(rec[10:], uint32(wall))
		data = append(data, rec[:]...)
	}

	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "*version\n%d\n", dmtraceVersion)
	fmt.Fprintf(bw, "data-file-overflow=%t\n", t.Overflow)
	fmt.Fprintf(bw, "clock=dual\n")
	if t.ClockSource != "" {
		// Not Android's: its readers skip keys they do not know.
		fmt.Fprintf(bw, "clock-source=%s\n", t.ClockSource)
	}
	fmt.Fprintf(bw, "elapsed-time-usec=%d\n", t.Elapsed.Microseconds())
	fmt.Fprintf(bw, "num-method-calls=%d\n", len(t.Events))
	fmt.Fprintf(bw, "clock-call-overhead-nsec=%d\n", t.ClockOverhead.Nanoseconds())
	fmt.Fprintf(bw, "vm=art\n")
	fmt.Fprintf(bw, "*threads\n")
	for _, th := range t.Threads {
		// Readers split the key section on newlines and tabs; a name
		// holding either would shift every later field.
		fmt.Fprintf(bw, "%d\t%s\n", tid(th.ID), keyField(th.Name))
	}
	fmt.Fprintf(bw, "*methods\n")
	for i, m := range t.Methods {
		if !used[i] {
			continue
		}
		fmt.Fprintf(bw, "0x%08x\t%s\t%s\t%s\t%s", DmtraceMethodID(i),
			keyField(m.Class), keyField(m.Name), keyField(m.Signature), keyField(m.File))
		if m.Line > 0 {
			fmt.Fprintf(bw, "\t%d", m.Line)
		}
		bw.WriteByte('\n')
	}
	fmt.Fprintf(bw, "*end\n")

	var hdr [dmtraceHeaderSize]byte
	binary.LittleEndian.PutUint32(hdr[0:], dmtraceMagic)
	binary.LittleEndian.PutUint16(hdr[4:], dmtraceVersion)
	binary.LittleEndian.PutUint16(hdr[6:], dmtraceHeaderSize)
	var start int64
	if !t.Start.IsZero() {
		start = t.Start.UnixMicro()
	}
	binary.LittleEndian.PutUint64(hdr[8:], uint64(start))
	binary.LittleEndian.PutUint16(hdr[16:], dmtraceRecordSize)
	bw.Write(hdr[:])
	bw.Write(data)
	return bw.Flush()
}

// keyField makes s safe for one tab-separated field of a key-section line.
func keyField(s string) string {
	if !strings.ContainsAny(s, "\t\n\r") {
		return s
	}
	return strings.NewReplacer("\t", " ", "\n", " ", "\r", " ").Replace(s)
}

// ReadDmtrace reads an Android method trace of version 1, 2 or 3 (the
// non-streaming formats; ART's streaming escape records and the newer
// "V2" formats are rejected).
//
// The trace it returns:
//   - Method.ID is the dmtrace method ID shifted right by 2 (so
//     WriteDmtrace's IDs come back as index+1); class names are turned
//     into the dotted form whichever form the file used;
//   - Thread.ID is the dmtrace thread ID; threads that have events but are
//     not listed in *threads get an empty name;
//   - with clock=dual and records of at least 14 bytes the first time field
//     is thread CPU and the second wall time; with one clock (versions 1
//     and 2, or version 3 with 10-byte records) its value fills both Wall
//     and CPU, since the Trace model has no "missing" clock;
//   - Event.Depth is rebuilt from per-thread stacks; an exit or unroll
//     with no matching open activation (entered before tracing began) gets
//     depth 0;
//   - Start, Elapsed, ClockOverhead and Overflow come from the header and
//     key section; EventOverhead is not in the format and stays 0.
//
// Errors name the byte offset (and, in the key section, the line).
func ReadDmtrace(r io.Reader) (*Trace, error) {
	buf, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	t := &Trace{}
	off, clock, methodOf, err := parseDmtraceKeys(buf, t)
	if err != nil {
		return nil, err
	}

	// Binary header.
	if len(buf)-off < 16 {
		return nil, fmt.Errorf("dmtrace: truncated data header at offset %d", off)
	}
	h := buf[off:]
	if m := binary.LittleEndian.Uint32(h[0:]); m != dmtraceMagic {
		return nil, fmt.Errorf("dmtrace: bad magic 0x%08x at offset %d (want 0x%08x)", m, off, dmtraceMagic)
	}
	version := binary.LittleEndian.Uint16(h[4:])
	dataOff := int(binary.LittleEndian.Uint16(h[6:]))
	startUs := int64(binary.LittleEndian.Uint64(h[8:]))
	var recSize int
	switch version {
	case 1:
		recSize = 9
	case 2:
		recSize = 10
	case 3:
		if dataOff < 18 || len(h) < 18 {
			return nil, fmt.Errorf("dmtrace: version 3 header at offset %d too short for the record size", off)
		}
		recSize = int(binary.LittleEndian.Uint16(h[16:]))
	default:
		return nil, fmt.Errorf("dmtrace: unsupported data version %d at offset %d", version, off+4)
	}
	tidSize := 2
	if version == 1 {
		tidSize = 1
	}
	if recSize < tidSize+8 {
		return nil, fmt.Errorf("dmtrace: record size %d at offset %d is too small", recSize, off+16)
	}
	if dataOff < 16 || dataOff > len(h) {
		return nil, fmt.Errorf("dmtrace: data offset %d at offset %d is out of range", dataOff, off+6)
	}
	if startUs != 0 {
		t.Start = time.UnixMicro(startUs)
	}
	dual := clock == "dual" && recSize >= tidSize+12

	// Records.
	threads := t.ThreadByID()
	stacks := map[uint32][]uint32{}
	pos := off + dataOff
	for ; pos < len(buf); pos += recSize {
		if len(buf)-pos < recSize {
			return t, fmt.Errorf("dmtrace: truncated record at offset %d (%d of %d bytes)", pos, len(buf)-pos, recSize)
		}
		b := buf[pos:]
		var tid uint32
		if tidSize == 1 {
			tid = uint32(b[0])
		} else {
			tid = uint32(binary.LittleEndian.Uint16(b))
		}
		if tid == 0 {
			return t, fmt.Errorf("dmtrace: record at offset %d has thread 0 (a streaming-format escape, not supported)", pos)
		}
		b = b[tidSize:]
		val := binary.LittleEndian.Uint32(b)
		t1 := int64(binary.LittleEndian.Uint32(b[4:])) * 1000
		e := Event{Thread: tid, Action: Action(val & 3), Wall: t1, CPU: t1}
		if dual {
			e.Wall = int64(binary.LittleEndian.Uint32(b[8:])) * 1000
		}
		if e.Action > Unroll {
			return t, fmt.Errorf("dmtrace: record at offset %d has bad action 3", pos)
		}
		id, ok := methodOf[val&^3]
		if !ok {
			return t, fmt.Errorf("dmtrace: record at offset %d names method 0x%08x, which *methods does not list", pos, val&^3)
		}
		e.Method = id
		if threads[tid] == nil {
			t.Threads = append(t.Threads, Thread{ID: tid})
			threads = t.ThreadByID()
		}
		st := stacks[tid]
		if e.Action == Enter {
			st = append(st, id)
			e.Depth = uint32(len(st))
		} else {
			i := len(st) - 1
			for i >= 0 && st[i] != id {
				i--
			}
			if i >= 0 {
				e.Depth = uint32(i + 1)
				st = st[:i]
			}
		}
		stacks[tid] = st
		t.Events = append(t.Events, e)
	}
	return t, nil
}

// parseDmtraceKeys parses the key section into t and returns the offset
// of the binary header, the clock= value and the dmtrace-ID → Method.ID
// table.
func parseDmtraceKeys(buf []byte, t *Trace) (int, string, map[uint32]uint32, error) {
	const (
		secNone = iota
		secVersion
		secThreads
		secMethods
	)
	sec := secNone
	clock := ""
	methodOf := map[uint32]uint32{}
	off, line := 0, 0
	sawVersion := false
	if len(buf) >= 4 && binary.LittleEndian.Uint32(buf) == dmtraceMagic {
		return 0, "", nil, errors.New("dmtrace: offset 0: file starts with the data header; the key section is missing (a split .key/.data pair?)")
	}
	for {
		line++
		nl := bytes.IndexByte(buf[off:], '\n')
		if nl < 0 {
			return 0, "", nil, fmt.Errorf("dmtrace: key section ends without *end (line %d, offset %d)", line, off)
		}
		text := string(buf[off : off+nl])
		lineOff := off
		off += nl + 1
		bad := func(format string, args ...any) error {
			return fmt.Errorf("dmtrace: line %d (offset %d): %s", line, lineOff, fmt.Sprintf(format, args...))
		}
		if line == 1 && text != "*version" {
			return 0, "", nil, bad("want *version, got %.20q", text)
		}
		if strings.HasPrefix(text, "*") {
			switch text {
			case "*version":
				sec = secVersion
			case "*threads":
				sec = secThreads
			case "*methods":
				sec = secMethods
			case "*end":
				if !sawVersion {
					return 0, "", nil, bad("*end before a version number")
				}
				return off, clock, methodOf, nil
			default:
				return 0, "", nil, bad("unknown section %q", text)
			}
			continue
		}
		switch sec {
		case secVersion:
			if !sawVersion {
				v, err := strconv.ParseUint(strings.TrimSpace(text), 0, 16)
				if err != nil || v < 1 || v > 3 {
					return 0, "", nil, bad("unsupported key version %q", text)
				}
				sawVersion = true
				continue
			}
			k, v, _ := strings.Cut(text, "=")
			switch k {
			case "clock":
				clock = v
			case "clock-source":
				t.ClockSource = v
			case "data-file-overflow":
				t.Overflow = v == "true"
			case "elapsed-time-usec":
				if n, err := strconv.ParseInt(v, 10, 64); err == nil {
					t.Elapsed = time.Duration(n) * time.Microsecond
				}
			case "clock-call-overhead-nsec":
				if n, err := strconv.ParseInt(v, 10, 64); err == nil {
					t.ClockOverhead = time.Duration(n)
				}
			}
		case secThreads:
			id, name, ok := strings.Cut(text, "\t")
			n, err := strconv.ParseUint(id, 10, 16)
			if !ok || err != nil {
				return 0, "", nil, bad("bad thread line %.40q", text)
			}
			t.Threads = append(t.Threads, Thread{ID: uint32(n), Name: name})
		case secMethods:
			f := strings.Split(text, "\t")
			id, err := strconv.ParseUint(f[0], 0, 32)
			if len(f) < 2 || err != nil {
				return 0, "", nil, bad("bad method line %.60q", text)
			}
			if id&3 != 0 || id < 4 {
				return 0, "", nil, bad("method ID %s is not a nonzero multiple of 4", f[0])
			}
			m := Method{ID: uint32(id) >> 2}
			if len(f) >= 4 {
				m.Class, m.Name, m.Signature = dottedClass(f[1]), f[2], f[3]
				if len(f) >= 5 {
					m.File = f[4]
				}
				if len(f) >= 6 {
					m.Line, _ = strconv.Atoi(f[5])
				}
			} else {
				// dmtracedump accepts "id\tname" lines; keep the
				// name whole as the method name.
				m.Name = f[1]
			}
			if _, dup := methodOf[uint32(id)]; dup {
				return 0, "", nil, bad("method ID %s listed twice", f[0])
			}
			methodOf[uint32(id)] = m.ID
			t.Methods = append(t.Methods, m)
		default:
			return 0, "", nil, bad("line outside any section")
		}
	}
}

// dottedClass turns "java/lang/String" or "Ljava/lang/String;" (Dalvik)
// into "java.lang.String" (ART, and the Trace model).
func dottedClass(s string) string {
	if strings.HasPrefix(s, "L") && strings.HasSuffix(s, ";") && strings.Contains(s, "/") {
		s = s[1 : len(s)-1]
	}
	return strings.ReplaceAll(s, "/", ".")
}
