package tracefs

import (
	"fmt"
	"strconv"
	"strings"
)

// BlockEvent is one block-layer event of a blktrace capture, as blkparse
// prints it by default or as MOST's TSV carries it.
type BlockEvent struct {
	Time   int64 // nanoseconds since the capture started
	Action byte  // blkparse's action letter: Q queued, D issued, C completed, I, G, M, ...
	Pid    int
	Comm   string // the task (blkparse: empty for C, which prints the error there)
	Block  Block
	// Tag is MOST's retrospective file class, carried in the pid by its
	// kernel patch (pid = tag*100000 + pid): 1 -journal, 2 master journal
	// (-mjXXXXXXXX), 3 .bak, 4 tmp, 5 .db; 0 when untagged.
	Tag int
	// Kind and Path are MOST's result.po attribution when the line has
	// it: 'M' metadata, 'J' journal, 'D' data with the file's path.
	Kind byte
	Path string
}

// ParseBlkparse parses one line of blkparse's default output:
//
//	8,0    3       11     0.009507758   697  C   W 223490 + 56 [0]
//
// The summary blkparse prints at the end (without -q) is not events: a
// line that does not start with major,minor gives ok = false and no error.
// So does an action this package has no use for (plug, unplug, split,
// remap, message).
func ParseBlkparse(line string) (ev BlockEvent, ok bool, err error) {
	var f [8]string
	n := 0
	rest := strings.TrimSpace(line)
	for n < len(f) && rest != "" {
		i := strings.IndexAny(rest, " \t")
		if i < 0 {
			i = len(rest)
		}
		f[n] = rest[:i]
		n++
		rest = strings.TrimLeft(rest[i:], " \t")
	}
	if n == 0 {
		return ev, false, nil
	}
	maj, min, isDev := strings.Cut(f[0], ",")
	m1, err1 := strconv.ParseUint(maj, 10, 32)
	m2, err2 := strconv.ParseUint(min, 10, 32)
	if !isDev || err1 != nil || err2 != nil {
		return ev, false, nil // a summary or a blank line
	}
	if n < 7 {
		return ev, false, fmt.Errorf("%d fields, the header alone has 7 (dev cpu seq time pid action rwbs)", n)
	}
	if ev.Time, err = parseTimestamp(f[3]); err != nil {
		return ev, false, err
	}
	if ev.Pid, err = strconv.Atoi(f[4]); err != nil {
		return ev, false, fmt.Errorf("bad pid %q", f[4])
	}
	if len(f[5]) == 0 {
		return ev, false, fmt.Errorf("no action")
	}
	ev.Action = f[5][0]
	switch f[5] {
	case "Q", "I", "D", "C", "G", "M", "F", "S", "B", "R":
	default:
		return BlockEvent{}, false, nil
	}
	ev.Block = Block{Major: uint32(m1), Minor: uint32(m2), RWBS: f[6]}
	tail := rest
	if n == 8 {
		tail = strings.TrimSpace(f[7] + " " + rest)
	}
	if err := parseBlkTail(&ev, tail); err != nil {
		return ev, false, err
	}
	return ev, true, nil
}

// parseBlkTail reads what blktrace prints after the action and RWBS of an
// event, in blkparse's text and in the blk tracer's alike: "sector +
// nsect [comm]", "+ nsect" left out when nsect is 0, "[error]" for a
// completion, a passthrough request's "bytes (cdb)" or blkparse -t's
// "(elapsed)".
func parseBlkTail(ev *BlockEvent, tail string) error {
	var err error
	sec, after, _ := strings.Cut(tail, " ")
	if sec == "" || sec[0] == '[' {
		ev.Comm = strings.Trim(sec+" "+after, "[] ")
		ev.Block.Comm = ev.Comm
		return nil
	}
	if ev.Block.Sector, err = strconv.ParseUint(sec, 10, 64); err != nil {
		return fmt.Errorf("bad sector %q", sec)
	}
	after = strings.TrimSpace(after)
	if strings.HasPrefix(after, "+ ") {
		num, more, _ := strings.Cut(after[2:], " ")
		c, err := strconv.ParseUint(num, 10, 32)
		if err != nil {
			return fmt.Errorf("bad sector count %q", num)
		}
		ev.Block.Sectors = uint32(c)
		after = strings.TrimSpace(more)
	}
	if strings.HasPrefix(after, "(") {
		if i := strings.IndexByte(after, ')'); i >= 0 {
			after = strings.TrimSpace(after[i+1:])
		}
	}
	br := after
	if i := strings.IndexByte(br, ']'); strings.HasPrefix(br, "[") && i > 0 {
		br = br[1:i] // the blk tracer may print more after it (U's count)
	}
	if ev.Action == 'C' {
		if br != "" {
			e, err := strconv.Atoi(br)
			if err != nil {
				return fmt.Errorf("bad completion error %q", br)
			}
			ev.Block.Error, ev.Block.HasError = e, true
		}
	} else {
		ev.Comm = br
	}
	ev.Block.Comm = ev.Comm
	return nil
}

// ParseBlkTracer parses the body of a line the kernel's "blk" ftrace
// tracer prints (ParseLine gives such lines the name "blk"):
//
//	7,1    Q  RA 130944 + 8 [mount]
//	7,1    C  RA 130944 + 8 [0]
//
// The time and the task come from the line's ftrace header (ev). As for
// blkparse's text, an action this package has no use for gives ok = false.
func ParseBlkTracer(ev Event) (be BlockEvent, ok bool, err error) {
	be.Time, be.Pid = ev.Time, ev.Pid
	body := strings.TrimLeft(ev.Body, " ")
	devTok, rest, _ := strings.Cut(body, " ")
	maj, min, isDev := strings.Cut(devTok, ",")
	m1, err1 := strconv.ParseUint(maj, 10, 32)
	m2, err2 := strconv.ParseUint(min, 10, 32)
	if !isDev || err1 != nil || err2 != nil {
		return be, false, fmt.Errorf("blk event %q: device %q is not major,minor", body, devTok)
	}
	rest = strings.TrimLeft(rest, " ")
	act, rest, _ := strings.Cut(rest, " ")
	rest = strings.TrimLeft(rest, " ")
	rwbs, rest, _ := strings.Cut(rest, " ")
	if act == "" || rwbs == "" {
		return be, false, fmt.Errorf("blk event %q: no action or RWBS", body)
	}
	switch act {
	case "Q", "I", "D", "C", "G", "M", "F", "S", "B", "R":
	default:
		return be, false, nil
	}
	be.Action = act[0]
	be.Block = Block{Major: uint32(m1), Minor: uint32(m2), RWBS: rwbs}
	if err := parseBlkTail(&be, strings.TrimSpace(rest)); err != nil {
		return be, false, fmt.Errorf("blk event %q: %w", body, err)
	}
	return be, true, nil
}

// ParseMostTSV parses one line of MOST's input (result.p, made by
// `blkparse -f "%5T.%9t\t%a\t%d\t%8S\t%4n\t%4p\t%20C\n"`) or output
// (result.po, the same with "\tM", "\tJ" or "\tD\tpath" appended):
//
//	0.097858699	C	WAS	23901648	8	103336	GCMReader	D	/data/x/rmq.db-journal
//
// Blank lines give ok = false.
func ParseMostTSV(line string) (ev BlockEvent, ok bool, err error) {
	line = strings.TrimRight(line, "\r\n")
	if strings.TrimSpace(line) == "" {
		return ev, false, nil
	}
	f := strings.Split(line, "\t")
	if len(f) < 7 {
		return ev, false, fmt.Errorf("%d tab-separated fields, MOST's format has 7 (time action rwbs sector nsect pid comm)", len(f))
	}
	for i := range f {
		f[i] = strings.TrimSpace(f[i])
	}
	if ev.Time, err = parseTimestamp(f[0]); err != nil {
		return ev, false, err
	}
	if len(f[1]) != 1 {
		return ev, false, fmt.Errorf("bad action %q", f[1])
	}
	ev.Action = f[1][0]
	ev.Block.RWBS = f[2]
	if ev.Block.Sector, err = strconv.ParseUint(f[3], 10, 64); err != nil {
		return ev, false, fmt.Errorf("bad sector %q", f[3])
	}
	c, err := strconv.ParseUint(f[4], 10, 32)
	if err != nil {
		return ev, false, fmt.Errorf("bad sector count %q", f[4])
	}
	ev.Block.Sectors = uint32(c)
	pid, err := strconv.Atoi(f[5])
	if err != nil || pid < 0 {
		return ev, false, fmt.Errorf("bad pid %q", f[5])
	}
	ev.Tag, ev.Pid = pid/100000, pid%100000
	ev.Comm = f[6]
	ev.Block.Comm = ev.Comm
	if len(f) > 7 && f[7] != "" {
		switch f[7] {
		case "M", "J":
			ev.Kind = f[7][0]
		case "D":
			ev.Kind = 'D'
			if len(f) > 8 {
				ev.Path = f[8]
			}
		default:
			return ev, false, fmt.Errorf("bad block tag %q (want M, J or D)", f[7])
		}
	}
	return ev, true, nil
}
