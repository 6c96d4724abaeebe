package tracefs

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// The ring buffer's event header (header_event): a 32-bit word of type_len
// (5 bits) and time_delta (27 bits), then the event. type_len 1–28 is a
// data event of type_len×4 bytes; 0 a data event whose length is in the
// next word; the rest are these.
const (
	rbPadding    = 29 // discarded event, or the unused end of the page when time_delta is 0
	rbTimeExtend = 30 // time delta too large for 27 bits: array[0]<<27 | time_delta
	rbTimeStamp  = 31 // absolute time stamp, same encoding
	rbTSShift    = 27
	rbTSMSB      = uint64(0xf8) << 56 // a time stamp event's missing top bits come from the running time

	// The page header's commit word: the size of the data, and flags the
	// reader side sets when events were lost before this page.
	rbMissedEvents = 1 << 31
	rbMissedStored = 1 << 30 // the count is stored after the data
	rbCommitMask   = 1<<27 - 1
)

// fieldFormat is one field of an event's format file.
type fieldFormat struct {
	Name    string
	Type    string
	Offset  int
	Size    int
	Signed  bool
	DataLoc bool // __data_loc: a u32 of (length << 16 | offset from the record's start)
	RelLoc  bool // __rel_loc: the same, offset from the end of the field
}

// eventFormat is an event's format file: its id and fields.
type eventFormat struct {
	ID     uint16
	System string
	Name   string
	Fields []fieldFormat
	byName map[string]int
	render renderFunc
}

// parseFormat reads an events/<system>/<name>/format file; path names it in
// errors.
func parseFormat(data []byte, system, path string) (*eventFormat, error) {
	f := &eventFormat{System: system, byName: map[string]int{}}
	haveID := false
	for i, line := range strings.Split(string(data), "\n") {
		t := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(t, "name:"):
			f.Name = strings.TrimSpace(strings.TrimPrefix(t, "name:"))
		case strings.HasPrefix(t, "ID:"):
			id, err := strconv.ParseUint(strings.TrimSpace(strings.TrimPrefix(t, "ID:")), 10, 16)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: bad ID: %q", path, i+1, t)
			}
			f.ID, haveID = uint16(id), true
		case strings.HasPrefix(t, "field:"):
			ff, err := parseField(t)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %w: %q", path, i+1, err, t)
			}
			f.byName[ff.Name] = len(f.Fields)
			f.Fields = append(f.Fields, ff)
		}
	}
	if f.Name == "" || !haveID {
		return nil, fmt.Errorf("%s: no name or ID line: not an event format file", path)
	}
	f.render = renderers[f.Name]
	if f.render == nil {
		f.render = renderFields
	}
	return f, nil
}

// parseField reads "field:TYPE NAME;\toffset:N;\tsize:N;\tsigned:N;".
func parseField(t string) (fieldFormat, error) {
	var ff fieldFormat
	parts := strings.Split(t, ";")
	if len(parts) < 4 {
		return ff, errors.New("field line without offset, size and signed")
	}
	decl := strings.TrimSpace(strings.TrimPrefix(parts[0], "field:"))
	sp := strings.LastIndexAny(decl, " \t")
	if sp < 0 {
		return ff, errors.New("field without a type")
	}
	ff.Type, ff.Name = strings.TrimSpace(decl[:sp]), decl[sp+1:]
	if b := strings.IndexByte(ff.Name, '['); b >= 0 {
		ff.Name = ff.Name[:b] // char comm[16]
	}
	ff.DataLoc = strings.HasPrefix(ff.Type, "__data_loc")
	ff.RelLoc = strings.HasPrefix(ff.Type, "__rel_loc")
	for _, p := range parts[1:] {
		k, v, ok := strings.Cut(strings.TrimSpace(p), ":")
		if !ok {
			continue
		}
		n, err := strconv.Atoi(v)
		if err != nil {
			return ff, fmt.Errorf("field %s: bad %s", ff.Name, k)
		}
		switch k {
		case "offset":
			ff.Offset = n
		case "size":
			ff.Size = n
		case "signed":
			ff.Signed = n != 0
		}
	}
	if ff.Size <= 0 {
		return ff, fmt.Errorf("field %s: size %d", ff.Name, ff.Size)
	}
	return ff, nil
}

// pageLayout is header_page: where a page's time stamp, commit word and
// data are.
type pageLayout struct {
	TSOff, CommitOff, CommitSize, DataOff, DataSize int
}

// Size is the size of a page (a ring-buffer sub-buffer) as the files hold it.
func (l pageLayout) Size() int { return l.DataOff + l.DataSize }

func parseHeaderPage(data []byte, path string) (pageLayout, error) {
	var l pageLayout
	seen := map[string]bool{}
	for i, line := range strings.Split(string(data), "\n") {
		t := strings.TrimSpace(line)
		if !strings.HasPrefix(t, "field:") {
			continue
		}
		ff, err := parseField(strings.Replace(t, "field: ", "field:", 1))
		if err != nil {
			return l, fmt.Errorf("%s:%d: %w", path, i+1, err)
		}
		seen[ff.Name] = true
		switch ff.Name {
		case "timestamp":
			l.TSOff = ff.Offset
		case "commit":
			l.CommitOff, l.CommitSize = ff.Offset, ff.Size
		case "data":
			l.DataOff, l.DataSize = ff.Offset, ff.Size
		}
	}
	if !seen["timestamp"] || !seen["commit"] || !seen["data"] || (l.CommitSize != 4 && l.CommitSize != 8) {
		return l, fmt.Errorf("%s: not a ring-buffer page header (needs timestamp, a 4- or 8-byte commit, data)", path)
	}
	return l, nil
}

// checkHeaderEvent checks that header_event describes the event header
// this decoder reads; a kernel that changed it is refused, not misread.
func checkHeaderEvent(data []byte, path string) error {
	s := string(data)
	for _, want := range []string{"type_len    :    5 bits", "time_delta  :   27 bits", "padding     : type == 29", "time_extend : type == 30", "time_stamp : type == 31"} {
		if !strings.Contains(s, want) {
			return fmt.Errorf("%s: no %q: an event header this decoder does not know", path, want)
		}
	}
	return nil
}

// rawEvent is one decoded data event.
type rawEvent struct {
	TS   uint64
	CPU  int
	Lost int64 // events the kernel lost on this CPU just before this one
	Fmt  *eventFormat
	Rec  []byte // the record: common fields, then the event's
}

// DecodeStats describe a decoded raw capture.
type DecodeStats struct {
	Events int64
	Pages  int64
	// Lost is the sum of the events lost that the pages' commit words
	// flag (RB_MISSED_EVENTS), with the stored count where the kernel
	// had room for it and 1 where not (LostUncounted such pages).
	Lost          int64
	LostUncounted int64
	Unknown       int64 // data events of a type without a saved format (skipped)
}

// cpuCursor decodes one CPU's page file a page at a time, so that a
// capture of any length is decoded in the memory of a page per CPU.
type cpuCursor struct {
	cpu  int
	path string
	f    io.Reader
	l    pageLayout
	fmts map[uint16]*eventFormat
	st   *DecodeStats

	page    []byte
	pageOff int64 // file offset of page
	next    int64 // file offset of the page after it
	d       []byte
	i       int
	ts      uint64
	lost    int64 // lost events not yet attached to an event
	head    rawEvent
	ok      bool // head holds the next event
}

// advance decodes the next data event into head; ok is false at the end of
// the file. head's record lives in the cursor's page buffer until the
// next advance.
func (c *cpuCursor) advance() error {
	le := binary.LittleEndian
	for {
		if c.i >= len(c.d) {
			if err := c.nextPage(); err != nil {
				if err == io.EOF {
					c.ok = false
					// Losses after the last event still count.
					c.st.Lost += c.lost
					c.lost = 0
					return nil
				}
				return err
			}
			continue
		}
		i, d := c.i, c.d
		at := c.pageOff + int64(c.l.DataOff+i) // file offset, for errors
		if i+4 > len(d) {
			return fmt.Errorf("%s: offset %d: event header cut off by the page's end", c.path, at)
		}
		hdr := le.Uint32(d[i:])
		typeLen, delta := hdr&31, uint64(hdr>>5)
		arg := func() (uint32, error) {
			if i+8 > len(d) {
				return 0, fmt.Errorf("%s: offset %d: event of type %d cut off by the page's end", c.path, at, typeLen)
			}
			return le.Uint32(d[i+4:]), nil
		}
		switch {
		case typeLen == rbPadding:
			if delta == 0 {
				c.i = len(d) // the rest of the page is unused
				continue
			}
			n, err := arg()
			if err != nil {
				return err
			}
			c.i += 4 + int(n)
		case typeLen == rbTimeExtend:
			n, err := arg()
			if err != nil {
				return err
			}
			c.ts += uint64(n)<<rbTSShift | delta
			c.i += 8
		case typeLen == rbTimeStamp:
			n, err := arg()
			if err != nil {
				return err
			}
			abs := uint64(n)<<rbTSShift | delta
			if c.ts&rbTSMSB != 0 {
				abs |= c.ts & rbTSMSB
				if abs < c.ts {
					abs += 1 << 59
				}
			}
			c.ts = abs
			c.i += 8
		default:
			var rec []byte
			if typeLen == 0 {
				n, err := arg()
				if err != nil {
					return err
				}
				if n < 4 || i+4+int(n) > len(d) {
					return fmt.Errorf("%s: offset %d: event length %d runs past the page's data", c.path, at, n)
				}
				rec = d[i+8 : i+4+int(n)]
				c.i += 4 + int(n)
			} else {
				n := int(typeLen) * 4
				if i+4+n > len(d) {
					return fmt.Errorf("%s: offset %d: event length %d runs past the page's data", c.path, at, n)
				}
				rec = d[i+4 : i+4+n]
				c.i += 4 + n
			}
			c.ts += delta
			if len(rec) < 8 {
				return fmt.Errorf("%s: offset %d: a %d-byte record has no common fields", c.path, at, len(rec))
			}
			f := c.fmts[le.Uint16(rec)]
			if f == nil {
				c.st.Unknown++
				continue
			}
			c.head = rawEvent{TS: c.ts, CPU: c.cpu, Lost: c.lost, Fmt: f, Rec: rec}
			c.ok = true
			c.st.Lost += c.lost
			c.lost = 0
			return nil
		}
	}
}

// nextPage reads the next page and its header; io.EOF at the end.
func (c *cpuCursor) nextPage() error {
	le := binary.LittleEndian
	ps := c.l.Size()
	n, err := io.ReadFull(c.f, c.page)
	switch {
	case err == io.EOF:
		return io.EOF
	case err == io.ErrUnexpectedEOF:
		return fmt.Errorf("%s: %d bytes, not a whole number of %d-byte pages (offset %d)", c.path, c.next+int64(n), ps, c.next)
	case err != nil:
		return fmt.Errorf("%s: %w", c.path, err)
	}
	c.pageOff, c.next = c.next, c.next+int64(ps)
	c.st.Pages++
	page := c.page
	c.ts = le.Uint64(page[c.l.TSOff:])
	var commit uint64
	if c.l.CommitSize == 8 {
		commit = le.Uint64(page[c.l.CommitOff:])
	} else {
		commit = uint64(le.Uint32(page[c.l.CommitOff:]))
	}
	size := int(commit & rbCommitMask)
	if size > c.l.DataSize {
		return fmt.Errorf("%s: page at offset %d: commit %d larger than the page's %d data bytes", c.path, c.pageOff, size, c.l.DataSize)
	}
	c.d, c.i = page[c.l.DataOff:c.l.DataOff+size], 0
	if commit&rbMissedEvents != 0 {
		if commit&rbMissedStored != 0 && c.l.DataOff+size+8 <= ps {
			c.lost += int64(le.Uint64(page[c.l.DataOff+size:]))
		} else {
			c.lost++
			c.st.LostUncounted++
		}
	}
	return nil
}

// DecodeRaw reads a raw capture directory (StartRaw's) and writes its
// events as ftrace text, in time order across the CPUs, in the format
// ParseLine reads: "comm-pid (tgid) [cpu] sec.nsec: name: body", with the
// body as the kernel's print format prints it for the events droidprof
// traces ("field=value" pairs for others) and a "CPU:n [LOST m EVENTS]"
// line where the pages say events were lost. It holds one page per CPU in
// memory, whatever the length of the capture.
func DecodeRaw(dir string, w io.Writer) (DecodeStats, error) {
	var st DecodeStats
	fdir := filepath.Join(dir, rawFormatsDir)
	hp := filepath.Join(fdir, "header_page")
	data, err := os.ReadFile(hp)
	if err != nil {
		return st, fmt.Errorf("tracefs: %w", err)
	}
	layout, err := parseHeaderPage(data, hp)
	if err != nil {
		return st, fmt.Errorf("tracefs: %w", err)
	}
	he := filepath.Join(fdir, "header_event")
	if data, err = os.ReadFile(he); err != nil {
		return st, fmt.Errorf("tracefs: %w", err)
	}
	if err := checkHeaderEvent(data, he); err != nil {
		return st, fmt.Errorf("tracefs: %w", err)
	}
	files, err := filepath.Glob(filepath.Join(fdir, "*", "*", "format"))
	if err != nil {
		return st, fmt.Errorf("tracefs: %w", err)
	}
	fmts := map[uint16]*eventFormat{}
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			return st, fmt.Errorf("tracefs: %w", err)
		}
		f, err := parseFormat(data, filepath.Base(filepath.Dir(filepath.Dir(p))), p)
		if err != nil {
			return st, fmt.Errorf("tracefs: %w", err)
		}
		fmts[f.ID] = f
	}
	comms, err := readPidTable(filepath.Join(dir, rawCmdlines), false)
	if err != nil {
		return st, err
	}
	tgids, err := readPidTable(filepath.Join(dir, rawTGIDs), true)
	if err != nil {
		return st, err
	}
	cpus, err := rawCPUs(dir)
	if err != nil {
		return st, err
	}
	curs := make([]*cpuCursor, len(cpus))
	for k, cpu := range cpus {
		p := filepath.Join(dir, rawCPUFile(cpu))
		f, err := os.Open(p)
		if err != nil {
			return st, fmt.Errorf("tracefs: %w", err)
		}
		defer f.Close()
		c := &cpuCursor{cpu: cpu, path: p, f: bufio.NewReaderSize(f, 1<<16), l: layout, fmts: fmts, st: &st, page: make([]byte, layout.Size())}
		if err := c.advance(); err != nil {
			return st, fmt.Errorf("tracefs: %w", err)
		}
		curs[k] = c
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	var line []byte
	r := record{}
	for {
		// The kernel's merge: the earliest head, the lowest CPU on a tie.
		var best *cpuCursor
		for _, c := range curs {
			if c.ok && (best == nil || c.head.TS < best.head.TS) {
				best = c
			}
		}
		if best == nil {
			break
		}
		ev := best.head
		line = line[:0]
		if ev.Lost > 0 {
			line = fmt.Appendf(line, "CPU:%d [LOST %d EVENTS]\n", ev.CPU, ev.Lost)
		}
		r.f, r.b, r.err = ev.Fmt, ev.Rec, nil
		line = appendTask(line, comms, tgids, int(r.i("common_pid")))
		line = append(line, " ["...)
		line = appendPadded(line, uint64(ev.CPU), 3)
		line = strconv.AppendUint(append(line, "] "...), ev.TS/1e9, 10)
		line = appendPadded(append(line, '.'), ev.TS%1e9, 9)
		line = append(append(append(line, ": "...), ev.Fmt.Name...), ": "...)
		line = ev.Fmt.render(&r, line)
		if r.err != nil {
			return st, fmt.Errorf("tracefs: %s: %s event at %d.%09d: %w", dir, ev.Fmt.Name, ev.TS/1e9, ev.TS%1e9, r.err)
		}
		line = append(line, '\n')
		if _, err := bw.Write(line); err != nil {
			return st, fmt.Errorf("tracefs: write decoded trace: %w", err)
		}
		st.Events++
		// The record is written: its page may be reused now.
		if err := best.advance(); err != nil {
			return st, fmt.Errorf("tracefs: %w", err)
		}
	}
	if err := bw.Flush(); err != nil {
		return st, fmt.Errorf("tracefs: write decoded trace: %w", err)
	}
	return st, nil
}

// appendTask appends "comm-pid (tgid)" as the kernel prints it with
// record-tgid: "<idle>" for pid 0, "<...>" for a pid the cache lost,
// "(-------)" for an unknown tgid.
func appendTask(b []byte, comms map[int]string, tgids map[int]string, pid int) []byte {
	comm := comms[pid]
	switch {
	case pid == 0:
		comm = "<idle>"
	case comm == "":
		comm = "<...>"
	}
	for n := len(comm); n < 16; n++ { // C's %16s pads by bytes
		b = append(b, ' ')
	}
	b = append(append(b, comm...), '-')
	start := len(b)
	b = strconv.AppendInt(b, int64(pid), 10)
	for len(b)-start < 7 {
		b = append(b, ' ')
	}
	if g, ok := tgids[pid]; ok && g != "0" {
		b = append(b, " ("...)
		for n := len(g); n < 7; n++ {
			b = append(b, ' ')
		}
		return append(append(b, g...), ')')
	}
	return append(b, " (-------)"...)
}

// appendPadded appends v in decimal, zero-padded to width digits.
func appendPadded(b []byte, v uint64, width int) []byte {
	var d [20]byte
	s := strconv.AppendUint(d[:0], v, 10)
	for n := len(s); n < width; n++ {
		b = append(b, '0')
	}
	return append(b, s...)
}

// readPidTable reads saved_cmdlines ("pid comm") or saved_tgids ("pid
// tgid"). A missing file gives an empty table: names are then unknown, as
// in the kernel's text when its cache lost them.
func readPidTable(path string, numeric bool) (map[int]string, error) {
	m := map[int]string{}
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return m, nil
	}
	if err != nil {
		return nil, fmt.Errorf("tracefs: %w", err)
	}
	for i, line := range strings.Split(string(data), "\n") {
		if line == "" {
			continue
		}
		p, v, ok := strings.Cut(line, " ")
		pid, err := strconv.Atoi(p)
		if !ok || err != nil {
			return nil, fmt.Errorf("tracefs: %s:%d: not \"pid value\": %q", path, i+1, clip(line))
		}
		if numeric {
			if _, err := strconv.Atoi(v); err != nil {
				return nil, fmt.Errorf("tracefs: %s:%d: tgid %q", path, i+1, clip(v))
			}
		}
		m[pid] = v
	}
	return m, nil
}
