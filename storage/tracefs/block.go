package tracefs

import (
	"fmt"
	"strconv"
	"strings"
)

// Block is a block-layer event: a bio queued (block_bio_queue), a request
// inserted, issued or completed (block_rq_insert, block_rq_issue,
// block_rq_complete), and the other events of the block system that print a
// "sector + count" range.
type Block struct {
	Major, Minor uint32
	RWBS         string // R, W, D (discard), N, F flush, S sync, M meta, A readahead, ...
	Sector       uint64 // in 512-byte sectors
	Sectors      uint32
	Bytes        uint32 // the request's bytes where printed (insert, issue)
	Comm         string // the task named by the event itself (queue, insert, issue)
	Error        int    // completion status (complete)
	HasError     bool
}

// Dev is the kernel's internal dev_t of the event's device, the value an
// ftrace filter compares the dev field with.
func (b Block) Dev() uint64 { return KernelDev(b.Major, b.Minor) }

// KernelDev encodes major:minor as the kernel does inside (MINORBITS = 20),
// which is what the dev field of block and ext4 events holds.
func KernelDev(major, minor uint32) uint64 { return uint64(major)<<20 | uint64(minor) }

// Write reports whether the request writes data.
func (b Block) Write() bool { return strings.ContainsRune(b.RWBS, 'W') }

// Read reports whether the request reads data.
func (b Block) Read() bool { return strings.ContainsRune(b.RWBS, 'R') }

// Sync reports whether the request carries the sync flag.
func (b Block) Sync() bool { return strings.ContainsRune(b.RWBS, 'S') }

// ParseBlock parses the body of a block event:
//
//	7,0 W 8 + 8 [dd]                                    block_bio_queue
//	7,0 WS 4096 () 8 + 8 none,0,0 [jbd2/loop0-8]        block_rq_issue (ioprio since 6.x)
//	7,0 W () 8 + 8 none,0,0 [0]                         block_rq_complete
//
// name is the event's name: the bracket holds the error of a completion
// and the task's name otherwise.
func ParseBlock(name, body string) (Block, error) {
	var b Block
	// Tokens are scanned in place: this runs for every block event of a
	// trace, and a slice of fields per line showed in the profile.
	var toks [16]string
	n := 0
	rest := body
	for n < len(toks) {
		rest = strings.TrimLeft(rest, " ")
		if rest == "" {
			break
		}
		if rest[0] == '[' {
			toks[n] = rest // the bracket runs to the end, spaces and all
			n++
			break
		}
		i := strings.IndexByte(rest, ' ')
		if i < 0 {
			i = len(rest)
		}
		toks[n] = rest[:i]
		n++
		rest = rest[i:]
	}
	if n < 2 {
		return b, fmt.Errorf("block event %q: too short", body)
	}
	maj, min, ok := strings.Cut(toks[0], ",")
	if !ok {
		return b, fmt.Errorf("block event %q: device %q is not major,minor", body, toks[0])
	}
	m1, err1 := strconv.ParseUint(maj, 10, 32)
	m2, err2 := strconv.ParseUint(min, 10, 32)
	if err1 != nil || err2 != nil {
		return b, fmt.Errorf("block event %q: device %q is not major,minor", body, toks[0])
	}
	b.Major, b.Minor, b.RWBS = uint32(m1), uint32(m2), toks[1]
	haveRange := false
	for i := 2; i < n; i++ {
		t := toks[i]
		switch {
		case strings.HasPrefix(t, "("):
			// The SCSI command (usually empty); the number before it is
			// the request's bytes.
			if i > 2 {
				if v, err := strconv.ParseUint(toks[i-1], 10, 32); err == nil {
					b.Bytes = uint32(v)
				}
			}
			for !strings.HasSuffix(toks[i], ")") && i+1 < n {
				i++
			}
		case t == "+" && i > 2 && i+1 < n && !haveRange:
			s, err := strconv.ParseUint(toks[i-1], 10, 64)
			if err != nil {
				return b, fmt.Errorf("block event %q: sector %q: %w", body, toks[i-1], err)
			}
			c, err := strconv.ParseUint(toks[i+1], 10, 32)
			if err != nil {
				return b, fmt.Errorf("block event %q: sector count %q: %w", body, toks[i+1], err)
			}
			b.Sector, b.Sectors, haveRange = s, uint32(c), true
			i++
		case strings.HasPrefix(t, "["):
			in := strings.TrimSuffix(strings.TrimPrefix(strings.TrimRight(t, " "), "["), "]")
			if strings.HasSuffix(name, "_complete") {
				e, err := strconv.Atoi(in)
				if err != nil {
					return b, fmt.Errorf("block event %q: error %q: %w", body, in, err)
				}
				b.Error, b.HasError = e, true
			} else {
				b.Comm = in
			}
			i = n
		}
	}
	if !haveRange && n > 2 {
		// A flush or plug-like event without a range: sector 0, count 0.
		if s, err := strconv.ParseUint(toks[2], 10, 64); err == nil {
			b.Sector = s
		}
	}
	return b, nil
}
