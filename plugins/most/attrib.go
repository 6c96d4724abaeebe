package most

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/droidprof/droidprof/storage/revmap"
	"github.com/droidprof/droidprof/storage/tracefs"
)

// IO is one block request, attributed.
type IO struct {
	Complete int64 // trace clock, ns
	Issue    int64 // 0 when the trace has no issue event for it
	Major    uint32
	Minor    uint32
	RWBS     string
	Sector   uint64
	Sectors  uint32
	// Pid and Comm are the task that submitted the request's first bio
	// (block_bio_queue, or block_getrq: the request made for that bio),
	// else the one that issued it; -1 and "" when the trace has neither. Pid is the process (thread group) id where the
	// trace has it, else the thread's.
	Pid  int
	Comm string
	// DirtyPid and DirtyComm are, for a request submitted by another task
	// (writeback, the journal thread), the process that last wrote the
	// file's pages before it was queued.
	DirtyPid  int
	DirtyComm string
	Type      revmap.BlockType // the type most of its blocks have
	// TypeBlocks counts the request's blocks by type.
	TypeBlocks [revmap.NumBlockTypes]uint32
	Ino        uint32 // the file of its first block that has one
	File       string
	Class      revmap.Class
	Deleted    bool // the file was deleted before the end of the trace
	Sequential bool // it starts where the previous request in its direction ended
	// Tag, Kind and Given are what an imported MOST trace already says:
	// the retrospective class tag of its pid, and result.po's M/J/D tag
	// with the path.
	Tag    int
	Kind   byte
	Given  string
	queued int64
	commit uint32 // the jbd2 transaction committing when it was queued
}

// Write reports a request that writes data.
func (o *IO) Write() bool { return strings.ContainsRune(o.RWBS, 'W') }

// Sync reports a request with the sync or FUA flag.
func (o *IO) Sync() bool {
	r := strings.TrimPrefix(o.RWBS, "F") // a leading F is a preflush
	return strings.ContainsAny(r[min(1, len(r)):], "SF")
}

// Dir is "R", "W" or another letter of the request's direction (D discard,
// N no data).
func (o *IO) Dir() string {
	for _, c := range o.RWBS {
		if strings.ContainsRune("RWDN", c) {
			return string(c)
		}
	}
	return "?"
}

// Bytes is the request's size.
func (o *IO) Bytes() int64 { return int64(o.Sectors) * 512 }

// Latency is completion less issue, or -1 when unknown.
func (o *IO) Latency() int64 {
	if o.Issue == 0 {
		return -1
	}
	return o.Complete - o.Issue
}

// Attribution is the result of attributing a trace.
type Attribution struct {
	IOs      []IO
	Flushes  int   // requests without data (preflush), not in IOs
	Lost     int64 // events the trace marks as lost
	Events   int64
	Unissued int // completions of requests issued before the trace began
	// BlockSize is the filesystem block size the blocks are counted in.
	BlockSize int64
}

type bio struct {
	t    int64
	pid  int
	comm string
}

// procCount is how many events of one kind a process gave.
type procCount struct {
	n    int
	comm string
}

// procCounts counts events by process.
type procCounts map[int]*procCount

func (c procCounts) add(ev tracefs.Event) {
	pid := process(ev)
	if c[pid] == nil {
		c[pid] = &procCount{comm: ev.Comm}
	}
	c[pid].n++
}

// top returns the process with the most events (ties: the lower pid), or
// 0 and "" when none.
func (c procCounts) top() (int, string) {
	best, bestN, comm := 0, 0, ""
	for pid, h := range c {
		if h.n > bestN || h.n == bestN && pid < best {
			best, bestN, comm = pid, h.n, h.comm
		}
	}
	return best, comm
}

type writer struct {
	t    int64
	pid  int
	comm string
}

// dirKey is a device and a direction.
type dirKey struct {
	major, minor uint32
	dir          string
}

type devSector struct {
	dev    uint64
	sector uint64
}

// attributor holds the state of one pass over a trace.
type attributor struct {
	meta    Meta
	fs      *revmap.Map
	hist    *revmap.History
	dirs    map[uint32]bool
	present map[uint32]bool
	queued  map[devSector][]bio
	issued  map[devSector][]*IO
	writers map[uint32][]writer
	lastEnd map[dirKey]uint64
	format  string
	// owners counts, per jbd2 transaction, the events that make a
	// process its owner: the handles it started in it, or (a trace
	// without handles) the fsyncs, else the dirtied inodes, of the
	// processes since the previous commit began (syncs, dirtied);
	// committing is the transaction being committed.
	owners         map[uint32]procCounts
	syncs, dirtied procCounts
	committing     uint32
	// issuing: the trace has issue events (flushes are counted at
	// issue).
	issuing bool
	res     Attribution
}

// Attribute reads an ftrace text trace and attributes every completed
// request. fs (may be nil) is the filesystem's map at the end of the trace;
// names (may be nil) the names a watcher saw during it.
func Attribute(r io.Reader, meta Meta, fs *revmap.Map, names []revmap.NameEvent) (*Attribution, error) {
	a := &attributor{
		meta: meta, fs: fs, hist: revmap.NewHistory(), dirs: map[uint32]bool{}, present: map[uint32]bool{},
		queued: map[devSector][]bio{}, issued: map[devSector][]*IO{}, writers: map[uint32][]writer{}, lastEnd: map[dirKey]uint64{}, owners: map[uint32]procCounts{},
		syncs: procCounts{}, dirtied: procCounts{},
	}
	if fs != nil {
		for _, e := range fs.Extents() {
			if e.Ino != 0 {
				a.present[e.Ino] = true
				if e.Type == revmap.Directory {
					a.dirs[e.Ino] = true
				}
			}
		}
	}
	a.addNames(names)
	format := meta.Format
	br := bufio.NewReaderSize(r, 1<<16)
	if format == "" || format == "auto" {
		format = detectFormat(br)
	}
	a.format = format
	switch format {
	case "ftrace":
		if err := a.attributeFtrace(tracefs.NewReader(br)); err != nil {
			return nil, err
		}
	case "blkparse", "most":
		parse := tracefs.ParseBlkparse
		if format == "most" {
			parse = tracefs.ParseMostTSV
		}
		if err := a.attributeText(br, parse); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("unknown trace format %q (want ftrace, blkparse, most or auto)", format)
	}
	a.keepDevice()
	a.resolve()
	return &a.res, nil
}

func (a *attributor) addNames(names []revmap.NameEvent) {
	dirPath := map[uint32]string{revmap.RootIno: ""}
	pathOf := func(dir uint32) (string, bool) {
		if p, ok := dirPath[dir]; ok {
			return p, true
		}
		if a.fs != nil {
			if p := a.fs.Path(dir); p != "" {
				// The root is "/" and its entries "/name".
				return strings.TrimSuffix(p, "/"), true
			}
		}
		return "", false
	}
	for _, n := range names {
		parent, ok := pathOf(n.Dir)
		if !ok {
			parent = fmt.Sprintf("<dir %d>", n.Dir)
		}
		p := parent + "/" + n.Name
		switch n.Op {
		case "create", "moved_to":
			a.hist.Name(n.Time, n.Ino, p)
			if n.IsDir {
				dirPath[n.Ino] = p
				a.dirs[n.Ino] = true
			}
		case "delete":
			a.hist.Name(n.Time, n.Ino, p) // a file the trace first meets at its deletion
			a.hist.Unlink(n.Time, n.Ino)
		}
	}
}

func parseDev(body string) (uint64, error) {
	v, ok := tracefs.Field(body, "dev")
	if !ok {
		return 0, errors.New("no dev field")
	}
	sep := ","
	if !strings.Contains(v, sep) {
		sep = ":" // xfs prints major:minor
	}
	return parseDevSep(v, sep)
}

// parseDevSep reads "major<sep>minor" as a kernel dev_t.
func parseDevSep(v, sep string) (uint64, error) {
	ma, mi, ok := strings.Cut(v, sep)
	x, err1 := strconv.ParseUint(ma, 10, 32)
	y, err2 := strconv.ParseUint(mi, 10, 32)
	if !ok || err1 != nil || err2 != nil {
		return 0, fmt.Errorf("dev %q is not major,minor", v)
	}
	return tracefs.KernelDev(uint32(x), uint32(y)), nil
}

func (a *attributor) wantDev(dev uint64) bool {
	return a.meta.Major == 0 && a.meta.Minor == 0 || dev == tracefs.KernelDev(a.meta.Major, a.meta.Minor)
}

func (a *attributor) event(ev tracefs.Event) error {
	switch ev.Name {
	case "block_bio_queue", "block_getrq", "block_rq_issue", "block_rq_complete":
		b, err := tracefs.ParseBlock(ev.Name, ev.Body)
		if err != nil {
			return err
		}
		a.blockEvent(ev, b)
		return nil
	case "blk":
		// A line of the kernel's blk tracer: blktrace's own records.
		be, ok, err := tracefs.ParseBlkTracer(ev)
		if err != nil || !ok {
			return err
		}
		be.Pid = process(ev)
		if be.Comm == "" {
			be.Comm = ev.Comm
		}
		a.block(be)
		return nil
	}
	return a.fsEvent(ev)
}

// blockEvent attributes one of the block tracepoints' events, its body
// parsed as b.
func (a *attributor) blockEvent(ev tracefs.Event, b tracefs.Block) {
	action := byte('Q')
	switch ev.Name {
	case "block_rq_issue":
		action = 'D'
	case "block_rq_complete":
		action = 'C'
	}
	a.block(tracefs.BlockEvent{Time: ev.Time, Action: action, Pid: process(ev), Comm: ev.Comm, Block: b})
}

// fsEvent follows the filesystem's and the journal's events on the
// traced device: block mappings, frees, unlinks, journal handles and
// commits, and who began writes to which inode.
func (a *attributor) fsEvent(ev tracefs.Event) error {
	switch ev.Name {
	case "ext4_ext_map_blocks_exit", "ext4_ind_map_blocks_exit", "ext4_free_blocks", "ext4_unlink_enter",
		"ext4_sync_file_enter", "jbd2_handle_start", "jbd2_start_commit", "jbd2_end_commit", "ext4_da_write_begin", "ext4_write_begin",
		"writeback_dirty_inode_enqueue", "xfs_iext_insert", "xfs_bmap_post_update", "xfs_free_extent":
	case "writeback_dirty_folio":
		return a.dirtyFolio(ev)
	default:
		return nil
	}
	dev, err := parseDev(ev.Body)
	if err != nil || !a.wantDev(dev) {
		return err
	}
	switch ev.Name {
	case "ext4_ext_map_blocks_exit", "ext4_ind_map_blocks_exit":
		ret, _ := tracefs.Field(ev.Body, "ret")
		if n, err := strconv.Atoi(ret); err != nil || n <= 0 {
			return nil // a hole or an error: nothing mapped
		}
		ino, err1 := tracefs.FieldUint(ev.Body, "ino")
		pblk, err2 := tracefs.FieldUint(ev.Body, "pblk")
		n, err3 := tracefs.FieldUint(ev.Body, "len")
		if err := errors.Join(err1, err2, err3); err != nil {
			return err
		}
		a.hist.MapBlocks(ev.Time, uint32(ino), pblk, n)
	case "xfs_iext_insert", "xfs_bmap_post_update":
		return a.xfsExtent(ev)
	case "xfs_free_extent":
		return a.xfsFree(ev)
	case "ext4_free_blocks":
		blk, err1 := tracefs.FieldUint(ev.Body, "block")
		n, err2 := tracefs.FieldUint(ev.Body, "count")
		if err := errors.Join(err1, err2); err != nil {
			return err
		}
		a.hist.FreeBlocks(ev.Time, blk, n)
	case "ext4_unlink_enter":
		ino, err := tracefs.FieldUint(ev.Body, "ino")
		if err != nil {
			return err
		}
		a.hist.Unlink(ev.Time, uint32(ino))
	case "jbd2_handle_start":
		tid, err := tracefs.FieldUint(ev.Body, "tid")
		if err != nil {
			return err
		}
		hs := a.owners[uint32(tid)]
		if hs == nil {
			hs = procCounts{}
			a.owners[uint32(tid)] = hs
		}
		hs.add(ev)
	case "ext4_sync_file_enter":
		// An fsync forces the commit of the transaction that holds
		// the file's changes: the running one, committed next.
		a.syncs.add(ev)
	case "jbd2_start_commit", "jbd2_end_commit":
		tid, err := tracefs.FieldUint(ev.Body, "transaction")
		if err != nil {
			return err
		}
		if ev.Name == "jbd2_start_commit" {
			a.committing = uint32(tid)
			if len(a.owners[a.committing]) == 0 {
				switch {
				case len(a.syncs) > 0:
					a.owners[a.committing] = a.syncs
				case len(a.dirtied) > 0:
					// A commit no fsync forced (the journal's
					// timer, writeback).
					a.owners[a.committing] = a.dirtied
				}
			}
			a.syncs, a.dirtied = procCounts{}, procCounts{}
		} else if a.committing == uint32(tid) {
			a.committing = 0
		}
	case "ext4_da_write_begin", "ext4_write_begin":
		ino, err := tracefs.FieldUint(ev.Body, "ino")
		if err != nil {
			return err
		}
		a.writer(ev, uint32(ino))
	case "writeback_dirty_inode_enqueue":
		// "dev 7,0 ino 12 dirtied 4295 state I_DIRTY_SYNC mode 0100644":
		// the inode went from clean to dirty (its data or its
		// metadata, in the dirtier's context); pages dirtied after it
		// until writeback cleans it give no event. A flusher that
		// redirties an inode is not its dirtier.
		ino, err := tracefs.FieldUint(ev.Body, "ino")
		if err != nil {
			return err
		}
		if !isFlusher(ev.Comm) {
			a.writer(ev, uint32(ino))
		}
	}
	return nil
}

// writer records that ev's process wrote (dirtied pages of) inode ino;
// only changes of writer are kept. It is also one of the dirtiers of the
// running journal transaction.
func (a *attributor) writer(ev tracefs.Event, ino uint32) {
	a.dirtied.add(ev)
	ws := a.writers[ino]
	if pid := process(ev); len(ws) == 0 || ws[len(ws)-1].pid != pid {
		a.writers[ino] = append(ws, writer{t: ev.Time, pid: pid, comm: ev.Comm})
	}
}

// dirtyFolio follows writeback_dirty_folio, "bdi 7:0: ino=12 index=3":
// a clean page becoming dirty, in the dirtier's context. The live capture
// records it instead of ext4's write_begin events, which fire at every
// write call even into a page already dirty (SQLite rewrites its journal
// header several times per transaction). A flusher that redirties a page
// it could not write is not its dirtier.
func (a *attributor) dirtyFolio(ev tracefs.Event) error {
	rest, ok := strings.CutPrefix(ev.Body, "bdi ")
	bdi, rest, ok2 := strings.Cut(rest, ": ino=")
	inoText, _, ok3 := strings.Cut(rest, " ")
	ino, err := strconv.ParseUint(inoText, 10, 32)
	if !ok || !ok2 || !ok3 || err != nil {
		return fmt.Errorf("writeback_dirty_folio %q: not \"bdi MAJ:MIN: ino=N index=N\"", ev.Body)
	}
	// The backing device's name is its major:minor; other bdis (nfs,
	// fuse) are not the traced device.
	dev, err := parseDevSep(bdi, ":")
	if err != nil || !a.wantDev(dev) || isFlusher(ev.Comm) {
		return nil
	}
	a.writer(ev, uint32(ino))
	return nil
}

// block follows one request through queue (Q), issue (D) and completion
// (C).
func (a *attributor) block(ev tracefs.BlockEvent) {
	b := ev.Block
	k := devSector{b.Dev(), b.Sector}
	switch ev.Action {
	case 'Q':
		a.queued[k] = append(a.queued[k], bio{t: ev.Time, pid: ev.Pid, comm: ev.Comm})
	case 'D':
		o := &IO{Issue: ev.Time, Major: b.Major, Minor: b.Minor, RWBS: b.RWBS, Sector: b.Sector, Sectors: b.Sectors, Pid: ev.Pid, Comm: ev.Comm, queued: ev.Time, Tag: ev.Tag, commit: a.committing}
		if q := a.queued[k]; len(q) > 0 {
			o.Pid, o.Comm, o.queued = q[0].pid, q[0].comm, q[0].t
			a.queued[k] = q[1:]
			if len(q) == 1 {
				delete(a.queued, k)
			}
		}
		// Bios merged into the request behind its first are done with.
		for s := b.Sector + 1; s < b.Sector+uint64(b.Sectors) && len(a.queued) > 0; s++ {
			delete(a.queued, devSector{k.dev, s})
		}
		a.issuing = true
		if b.Sectors == 0 {
			// A flush, counted here: its completion (sector
			// -1 in a live trace) does not name the request
			// issued, and the live capture does not record it.
			if isFlush(b.RWBS) {
				a.res.Flushes++
			}
			return
		}
		a.sequential(o)
		a.issued[k] = append(a.issued[k], o)
	case 'C':
		if b.Sectors == 0 {
			// A flush's completion, or the end of a write's flush
			// sequence after its data completed; only a trace of
			// completions alone (MOST's) counts flushes here.
			if !a.issuing && isFlush(b.RWBS) {
				a.res.Flushes++
			}
			return
		}
		var o *IO
		if q := a.issued[k]; len(q) > 0 {
			o = q[0]
			if len(q) == 1 {
				delete(a.issued, k)
			} else {
				a.issued[k] = q[1:]
			}
		} else {
			o = &IO{Major: b.Major, Minor: b.Minor, RWBS: b.RWBS, Sector: b.Sector, Sectors: b.Sectors, Pid: -1, Tag: ev.Tag}
			if a.format == "most" {
				// MOST's kernel put the submitter into every event.
				o.Pid, o.Comm = ev.Pid, ev.Comm
			}
			a.sequential(o)
			a.res.Unissued++
		}
		o.Kind, o.Given = ev.Kind, ev.Path
		if b.Sectors < o.Sectors {
			// A partial completion: the rest completes later.
			rest := *o
			rest.Sector, rest.Sectors = o.Sector+uint64(b.Sectors), o.Sectors-b.Sectors
			rk := devSector{k.dev, rest.Sector}
			a.issued[rk] = append(a.issued[rk], &rest)
			o.Sectors = b.Sectors
		}
		o.Complete = ev.Time
		a.res.IOs = append(a.res.IOs, *o)
	}
}

// detectFormat tells the three text formats apart by their first line
// that is not blank or a comment: MOST's TSV has tab-separated fields,
// blkparse's starts with major,minor, ftrace's with the task.
func detectFormat(br *bufio.Reader) string {
	data, _ := br.Peek(br.Size())
	for _, line := range strings.Split(string(data), "\n") {
		t := strings.TrimSpace(line)
		if t == "" || t[0] == '#' {
			continue
		}
		if strings.Count(t, "\t") >= 6 {
			return "most"
		}
		first, _, _ := strings.Cut(t, " ")
		if maj, min, ok := strings.Cut(first, ","); ok {
			if _, err := strconv.ParseUint(maj, 10, 32); err == nil {
				if _, err := strconv.ParseUint(min, 10, 32); err == nil {
					return "blkparse"
				}
			}
		}
		return "ftrace"
	}
	return "ftrace"
}

// process is the event's process id: the thread group id where the trace
// records it (record-tgid, atrace), else the thread's id.
func process(ev tracefs.Event) int {
	if ev.TGID > 0 {
		return ev.TGID
	}
	return ev.Pid
}

// sequential marks a request that starts where the previous one in its
// direction on its device ended.
func (a *attributor) sequential(o *IO) {
	key := dirKey{o.Major, o.Minor, o.Dir()}
	if end, ok := a.lastEnd[key]; ok && end == o.Sector {
		o.Sequential = true
	}
	a.lastEnd[key] = o.Sector + uint64(o.Sectors)
}

// keepDevice drops the requests of other devices: the one the meta names,
// else the one with the most requests.
func (a *attributor) keepDevice() {
	if a.meta.Major == 0 && a.meta.Minor == 0 {
		count := map[[2]uint32]int{}
		best, bestN := [2]uint32{}, -1
		for _, o := range a.res.IOs {
			d := [2]uint32{o.Major, o.Minor}
			count[d]++
			if count[d] > bestN {
				best, bestN = d, count[d]
			}
		}
		a.meta.Major, a.meta.Minor = best[0], best[1]
	}
	kept := a.res.IOs[:0]
	for _, o := range a.res.IOs {
		if o.Major == a.meta.Major && o.Minor == a.meta.Minor {
			kept = append(kept, o)
		}
	}
	a.res.IOs = kept
}

// blockOwner types one filesystem block at time t.
func (a *attributor) blockOwner(b uint64, t int64) (revmap.BlockType, uint32) {
	var e revmap.Extent
	if a.fs != nil {
		e = a.fs.Lookup(b)
	}
	switch e.Type {
	case revmap.Superblock, revmap.GroupDesc, revmap.ReservedGDT, revmap.BlockBitmap, revmap.InodeBitmap, revmap.InodeTable, revmap.Journal,
		revmap.AGF, revmap.AGI, revmap.AGFL: // fixed places: never a file's
		return e.Type, e.Ino
	}
	if ino, ok := a.hist.Owner(b, t); ok {
		switch {
		case ino == e.Ino && e.Type != revmap.Unknown:
			return e.Type, ino
		case a.dirs[ino]:
			return revmap.Directory, ino
		}
		return revmap.Data, ino
	}
	return e.Type, e.Ino
}

// resolve gives every request its block type, file, class and dirtier.
func (a *attributor) resolve() {
	bs := uint64(4096)
	if a.fs != nil && a.fs.BlockSize > 0 {
		bs = uint64(a.fs.BlockSize)
	}
	a.res.BlockSize = int64(bs)
	part := uint64(a.meta.PartitionStart)
	for i := range a.res.IOs {
		o := &a.res.IOs[i]
		if o.Sector < part {
			continue
		}
		first := (o.Sector - part) * 512 / bs
		last := ((o.Sector-part)*512 + uint64(o.Bytes()) - 1) / bs
		t := o.queued
		if t == 0 {
			t = o.Complete
		}
		best := 0
		for b := first; b <= last; b++ {
			typ, ino := a.blockOwner(b, t)
			o.TypeBlocks[typ]++
			if int(o.TypeBlocks[typ]) > best {
				best, o.Type = int(o.TypeBlocks[typ]), typ
			}
			if o.Ino == 0 && ino != 0 && ownsFile(typ) {
				o.Ino = ino
			}
		}
		if o.Ino == 0 {
			a.given(o)
			if o.Type == revmap.Journal && o.commit != 0 && isFlusher(o.Comm) {
				o.DirtyPid, o.DirtyComm = a.owners[o.commit].top()
			}
			continue
		}
		if name, ok := a.hist.NameOf(o.Ino, t); ok {
			o.File = name
		} else if a.fs != nil {
			o.File = a.fs.Path(o.Ino)
		}
		o.Deleted = a.hist.Unlinked(o.Ino) || a.fs != nil && !a.present[o.Ino]
		if o.File == "" {
			o.File = fmt.Sprintf("<inode %d>", o.Ino)
			o.Class = revmap.ClassOther
		} else {
			o.Class = revmap.Classify(o.File)
		}
		if o.Pid >= 0 && o.Write() && isFlusher(o.Comm) {
			ws := a.writers[o.Ino]
			for j := len(ws) - 1; j >= 0; j-- {
				if ws[j].t <= t {
					o.DirtyPid, o.DirtyComm = ws[j].pid, ws[j].comm
					break
				}
			}
		}
	}
}

// given attributes a request the map could not from what an imported MOST
// trace says: result.po's tag and path, else the class its pid carried.
func (a *attributor) given(o *IO) {
	o.Class = revmap.ClassNone
	switch o.Kind {
	case 'M':
		o.Type, o.TypeBlocks = revmap.Metadata, [revmap.NumBlockTypes]uint32{}
		o.TypeBlocks[revmap.Metadata] = uint32(o.Sectors / 8)
	case 'J':
		o.Type, o.TypeBlocks = revmap.Journal, [revmap.NumBlockTypes]uint32{}
		o.TypeBlocks[revmap.Journal] = uint32(o.Sectors / 8)
	case 'D':
		o.Type, o.TypeBlocks = revmap.Data, [revmap.NumBlockTypes]uint32{}
		o.TypeBlocks[revmap.Data] = uint32(o.Sectors / 8)
		if o.Given != "" && o.Given != "file-NONE" {
			o.File, o.Class = o.Given, revmap.Classify(o.Given)
		} else {
			o.Class = revmap.ClassOther
		}
	}
	if c, ok := mostTags[o.Tag]; ok && (o.Class == revmap.ClassNone || o.Class == revmap.ClassOther) {
		o.Class = c
	}
}

// mostTags are the classes MOST's kernel patch encoded in the pid.
var mostTags = map[int]revmap.Class{1: revmap.ClassJournal, 2: revmap.ClassJournal, 3: revmap.ClassTemp, 4: revmap.ClassTemp, 5: revmap.ClassDB}

// ownsFile reports a block type that belongs to one file (a directory is
// a file too): its owner names the request.
func ownsFile(t revmap.BlockType) bool {
	switch t {
	case revmap.Data, revmap.Directory, revmap.ExtentTree, revmap.IndirectMap, revmap.Xattr:
		return true
	}
	return false
}

// isFlush reports a request that flushes the device's cache (RWBS "F…"
// without data).
func isFlush(rwbs string) bool { return strings.HasPrefix(rwbs, "F") }

// isFlusher reports a kernel thread that writes on behalf of others: the
// writeback workers and the jbd2 journal thread.
func isFlusher(comm string) bool {
	return strings.HasPrefix(comm, "kworker") || strings.HasPrefix(comm, "jbd2") || strings.HasPrefix(comm, "flush-")
}
