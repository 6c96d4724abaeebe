package most

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"

	"github.com/droidprof/droidprof/framework/sdk"
	"github.com/droidprof/droidprof/storage/dbbench"
	"github.com/droidprof/droidprof/storage/fileio"
	"github.com/droidprof/droidprof/storage/revmap"
	"github.com/droidprof/droidprof/storage/tracefs"
	"golang.org/x/sys/unix"
)

// Artifact names a step leaves for the analyzer.
const (
	TraceFile = "trace.txt"      // ftrace text
	RawDir    = "trace.raw"      // capture = "raw": the ring-buffer pages and their format files
	BlkFile   = "blktrace.txt"   // the blk tracer's text (oracle = "blk")
	MetaFile  = "meta.json"      // Meta
	FSMapFile = "fsmap.json"     // FSMap
	NamesFile = "names.json"     // []revmap.NameEvent
	DataDir   = "droidprof-most" // the workload's directory on the volume
)

// Meta describes a step's trace.
type Meta struct {
	Source         string `json:"source"`           // live or import
	Format         string `json:"format,omitempty"` // ftrace (default), blkparse, most or auto
	Device         string `json:"device,omitempty"`
	Major          uint32 `json:"major"`
	Minor          uint32 `json:"minor"`
	FSType         string `json:"fs_type,omitempty"`
	PartitionStart int64  `json:"partition_start"` // sectors
	Clock          string `json:"clock,omitempty"`
	Lines          int64  `json:"lines"`
	Capture        string `json:"capture,omitempty"` // raw or text (live)
	Lost           int64  `json:"lost_events"`
	Overrun        int64  `json:"overrun_events"`
	Workload       string `json:"workload,omitempty"`
	WorkloadResult string `json:"workload_result,omitempty"`
	ElapsedNS      int64  `json:"elapsed_ns,omitempty"`
	// DecodeNS is how long decoding the raw pages to text took, after
	// the workload.
	DecodeNS int64    `json:"decode_ns,omitempty"`
	Warnings []string `json:"warnings,omitempty"`
	// Oracle compares the capture with the kernel's blktrace (oracle =
	// "blk").
	Oracle *OracleMatch `json:"oracle,omitempty"`
}

// FSMap is a filesystem's block map as a file: revmap.Map's extents and
// paths.
type FSMap struct {
	BlockSize uint32            `json:"block_size"`
	Blocks    uint64            `json:"blocks"`
	Extents   [][4]uint64       `json:"extents"` // start, length, block type, inode
	Paths     map[uint32]string `json:"paths"`
	// xfs's AG geometry, for its tracepoints' block numbers.
	AGBlocks uint32 `json:"ag_blocks,omitempty"`
	AGBlkLog uint8  `json:"ag_blk_log,omitempty"`
}

func fsMapOf(m *revmap.Map) *FSMap {
	f := &FSMap{BlockSize: m.BlockSize, Blocks: m.Blocks, Paths: m.Inodes(), AGBlocks: m.AGBlocks, AGBlkLog: m.AGBlkLog}
	for _, e := range m.Extents() {
		f.Extents = append(f.Extents, [4]uint64{e.Start, e.Len, uint64(e.Type), uint64(e.Ino)})
	}
	return f
}

// Map returns the revmap.Map the file describes.
func (f *FSMap) Map() *revmap.Map {
	ext := make([]revmap.Extent, len(f.Extents))
	for i, e := range f.Extents {
		ext[i] = revmap.Extent{Start: e[0], Len: e[1], Type: revmap.BlockType(e[2]), Ino: uint32(e[3])}
	}
	m := revmap.NewMap(f.BlockSize, f.Blocks, ext, f.Paths)
	m.AGBlocks, m.AGBlkLog = f.AGBlocks, f.AGBlkLog
	return m
}

// env is what a collector needs of its step, so tests call the collectors
// without the RPC machinery.
type env struct {
	OutDir     string
	StorageDir string
	Device     string
	FSType     string
	Keep       bool
	Progress   func(done, total float64, unit, message string)
	Log        func(level sdk.Level, msg string)
}

func stepEnv(step *sdk.Step) env {
	return env{
		OutDir: step.Dir, StorageDir: step.Storage.Dir, Device: step.Storage.Options["device"], FSType: step.Storage.FSType,
		Keep: step.Storage.Options["keep"] == "true", Progress: step.Progress,
		Log: func(level sdk.Level, msg string) { step.Log(level, msg) },
	}
}

func (e env) logf(level sdk.Level, format string, args ...any) {
	if e.Log != nil {
		e.Log(level, fmt.Sprintf(format, args...))
	}
}

func collectLive(ctx context.Context, step *sdk.Step) error {
	var cfg Config
	if err := step.Decode(&cfg); err != nil {
		return err
	}
	arts, err := runLive(ctx, cfg, stepEnv(step))
	if aerr := step.AddArtifacts(arts...); err == nil {
		err = aerr
	}
	return err
}

// ext4Events are the events that attribute blocks to inodes and processes.
var ext4Events = []string{
	"ext4/ext4_ext_map_blocks_exit", "ext4/ext4_ind_map_blocks_exit", "ext4/ext4_free_blocks",
	"ext4/ext4_unlink_enter",
	// The dirtier, once per inode going from clean to dirty (dirtier =
	// "inode"; ext4Capture swaps in the page event for "page"): ext4's
	// write_begin events said it at every write call, 21.9 per SQLite
	// transaction, the page event 10.1, this one 1.0 (BENCHMARKS.md
	// "Capture overhead").
	dirtyInodeEvent,
	// The journal thread's writes belong to the processes whose fsync
	// forced the commit (journal = "fsync"; ext4Capture swaps in
	// every handle's event for "handles").
	syncFileEvent, "jbd2/jbd2_start_commit", "jbd2/jbd2_end_commit",
}

// The journal commits' processes: from each fsync or fdatasync (about 4
// per SQLite transaction in DELETE mode), or from each journal handle
// (about 10: every mtime update is one; BENCHMARKS.md "Capture
// overhead").
const (
	syncFileEvent    = "ext4/ext4_sync_file_enter"
	handleStartEvent = "jbd2/jbd2_handle_start"
)

// The dirtier's events. The page one has no dev field: it is filtered by
// its backing device's name, "major:minor".
const (
	dirtyInodeEvent = "writeback/writeback_dirty_inode_enqueue"
	dirtyFolioEvent = "writeback/writeback_dirty_folio"
)

// ext4Capture are the events the live capture records on ext4:
// blockEvents and ext4Events with the dirtier's event of dirtier ("inode"
// or "page") and the journal's of journal ("fsync" or "handles").
func ext4Capture(dirtier, journal string) []string {
	evs := append(append([]string(nil), blockEvents...), ext4Events...)
	for i, ev := range evs {
		switch {
		case ev == dirtyInodeEvent && dirtier == "page":
			evs[i] = dirtyFolioEvent
		case ev == syncFileEvent && journal == "handles":
			evs[i] = handleStartEvent
		}
	}
	return evs
}

// xfsEvents are xfs's events that attribute blocks to inodes: extents
// entering an inode's extent list (insert) or changing there (a delayed
// allocation getting its blocks), and extents freed.
var xfsEvents = []string{"xfs/xfs_iext_insert", "xfs/xfs_bmap_post_update", "xfs/xfs_free_extent"}

// blockEvents are the block-layer events of a request's life. A request's
// submitter comes from block_getrq (one per request, in the context of
// the bio that made it) rather than block_bio_queue (one per bio, merged
// ones included).
var blockEvents = []string{"block/block_getrq", "block/block_rq_issue", "block/block_rq_complete"}

// deviceFilters are ftrace filters that keep each of events to the
// device major:minor.
func deviceFilters(events []string, major, minor uint32) map[string]string {
	f := map[string]string{}
	for _, ev := range events {
		f[ev] = fmt.Sprintf("dev == %d", tracefs.KernelDev(major, minor))
		switch ev {
		case dirtyFolioEvent:
			f[ev] = fmt.Sprintf(`name == "%d:%d"`, major, minor)
		case "block/block_rq_complete", "block/block_getrq":
			// Flushes are counted at issue; their completions and
			// the no-sector ones ending a write's flush sequence
			// (7 of a SQLite transaction's 14 completions), and
			// the requests made for flush bios (2 of its 9), give
			// the attribution nothing.
			f[ev] += " && nr_sector > 0"
		case "ext4/ext4_ext_map_blocks_exit", "ext4/ext4_ind_map_blocks_exit":
			// A lookup that found a hole maps nothing (a third of
			// them on SQLite); the attribution skips it.
			f[ev] += " && ret > 0"
		}
	}
	return f
}

// runLive traces the volume while the workload runs and writes the step's
// artifacts; it returns those written, also after an error.
func runLive(ctx context.Context, cfg Config, e env) (arts []sdk.Artifact, err error) {
	if e.Device == "" {
		return nil, errors.New(`most: the step's storage has no block device to trace; use a loop or device volume (storage { backend = "loop" }, root)`)
	}
	var st unix.Stat_t
	if err := unix.Stat(e.Device, &st); err != nil {
		return nil, fmt.Errorf("most: %w", err)
	}
	if st.Mode&unix.S_IFMT != unix.S_IFBLK {
		return nil, fmt.Errorf("most: %s is not a block device", e.Device)
	}
	if cfg.Capture == "" {
		cfg.Capture = "raw"
	}
	meta := Meta{Source: "live", Capture: cfg.Capture, Device: e.Device, Major: unix.Major(uint64(st.Rdev)), Minor: unix.Minor(uint64(st.Rdev)), FSType: e.FSType, Clock: "mono", Workload: cfg.Workload}
	opts := tracefs.Options{Events: blockEvents, BufferKB: cfg.BufferKB, Clock: "mono", RecordTGID: true, WakePercent: cfg.WakePercent}
	switch e.FSType {
	case "ext4":
		opts.Events = ext4Capture(cfg.Dirtier, cfg.Journal)
	case "xfs":
		opts.Events = append(append([]string(nil), blockEvents...), xfsEvents...)
	}
	opts.Filters = deviceFilters(opts.Events, meta.Major, meta.Minor)
	dataDir := filepath.Join(e.StorageDir, DataDir)
	if err := os.MkdirAll(dataDir, 0o755); err != nil {
		return nil, fmt.Errorf("most: data directory: %w", err)
	}
	defer func() {
		if !e.Keep {
			if rerr := os.RemoveAll(dataDir); rerr != nil && err == nil {
				err = fmt.Errorf("most: remove data directory: %w", rerr)
			}
		}
	}()
	add := func(name, kind, media, title string) {
		arts = append(arts, sdk.Artifact{Name: name, Kind: kind, MediaType: media, Title: title})
	}

	in, err := tracefs.Open(opts)
	if err != nil {
		return nil, err
	}
	// The instance goes on every path out, Ctrl-C included (the host
	// cancels ctx; a killed plugin's instance is reaped at the next Open).
	defer func() {
		if cerr := in.Close(); cerr != nil && err == nil {
			err = cerr
		}
	}()
	tf, err := os.Create(filepath.Join(e.OutDir, TraceFile))
	if err != nil {
		return nil, fmt.Errorf("most: %w", err)
	}
	bw := bufio.NewWriterSize(tf, 1<<20)
	var watch *revmap.Watcher
	if cfg.Names {
		if watch, err = revmap.Watch(dataDir); err != nil {
			e.logf(sdk.Warn, "no file names for deleted files: %v", err)
			meta.Warnings = append(meta.Warnings, err.Error())
		}
	}
	var orc *oracle
	if cfg.Oracle == "blk" {
		if orc, err = startOracle(e); err != nil {
			tf.Close()
			if watch != nil {
				watch.Stop()
			}
			return nil, err
		}
		// Stopped (and the top level given back) on every path.
		defer func() {
			if oerr := orc.close(); oerr != nil && err == nil {
				err = oerr
			}
		}()
	}
	capture, err := startCapture(in, cfg.Capture, filepath.Join(e.OutDir, RawDir), bw)
	if err != nil {
		tf.Close()
		if watch != nil {
			watch.Stop()
		}
		return nil, err
	}
	winStart := monoNow()
	start := time.Now()
	summary, werr := runWorkload(ctx, cfg, dataDir, e)
	meta.ElapsedNS = time.Since(start).Nanoseconds()
	meta.WorkloadResult = summary
	// Everything the workload dirtied reaches the device while the trace
	// still records: the writeback and journal commits are part of it.
	if fd, err := unix.Open(dataDir, unix.O_RDONLY|unix.O_DIRECTORY, 0); err == nil {
		if serr := unix.Syncfs(fd); serr != nil {
			meta.Warnings = append(meta.Warnings, "syncfs: "+serr.Error())
		}
		unix.Close(fd)
	}
	winEnd := monoNow()
	stats, cerr := capture.stop(bw)
	meta.Lines, meta.Lost, meta.Overrun, meta.DecodeNS = stats.Lines, stats.Lost, stats.Overrun, stats.DecodeNS
	if ferr := errors.Join(bw.Flush(), tf.Close()); ferr != nil {
		cerr = errors.Join(cerr, fmt.Errorf("most: write trace: %w", ferr))
	}
	add(TraceFile, sdk.KindRaw, "text/plain", "ftrace text of the block, ext4 and jbd2 events")
	if cfg.Capture == "raw" {
		e.logf(sdk.Info, "decoded %d events from the raw ring-buffer pages in %v", stats.Lines, time.Duration(stats.DecodeNS))
	}
	if stats.Unknown > 0 {
		meta.Warnings = append(meta.Warnings, fmt.Sprintf("%d records of event types without a saved format were skipped in decoding", stats.Unknown))
	}
	if orc != nil {
		m, oerr := orc.finish(filepath.Join(e.OutDir, TraceFile), winStart, winEnd)
		if oerr != nil {
			cerr = errors.Join(cerr, oerr)
		} else {
			meta.Oracle = m
			add(BlkFile, sdk.KindRaw, "text/plain", "the kernel's blk tracer on the same device (the oracle)")
			e.logf(sdk.Info, "blktrace oracle: %.2f %% of our %d requests and %.2f %% of blktrace's %d matched", m.OursPct, m.Ours, m.TheirsPct, m.Theirs)
		}
	}
	if watch != nil {
		names, nerr := watch.Stop()
		if nerr != nil {
			meta.Warnings = append(meta.Warnings, nerr.Error())
		}
		if err := writeJSON(filepath.Join(e.OutDir, NamesFile), names); err != nil {
			cerr = errors.Join(cerr, err)
		} else {
			add(NamesFile, sdk.KindRaw, "application/json", "files created, moved and deleted during the trace (fanotify)")
		}
	}
	if stats.Lost > 0 || stats.Overrun > 0 {
		e.logf(sdk.Warn, "the trace lost %d events (%d overrun): raise buffer_kb", stats.Lost, stats.Overrun)
	}
	// Mapped while the workload's files still exist.
	var m *revmap.Map
	var merr error
	switch e.FSType {
	case "ext4":
		m, merr = revmap.ReadExt4File(e.Device)
	case "xfs":
		m, merr = mapXFS(e.StorageDir, e.Device)
		meta.Warnings = append(meta.Warnings, "xfs: block types from our reader of the on-disk layout (AG headers, btrees, free list, inode chunks, log, directory, bmap btree, attribute and data blocks); files that exist at the end named; files deleted during the run from xfs's extent tracepoints and the fanotify names")
	case "btrfs":
		// The chunk tree for the classes, FIEMAP through it for the
		// files' data.
		m, merr = revmap.MapBtrfs(e.StorageDir, dataDir)
		meta.Warnings = append(meta.Warnings, "btrfs: blocks classed by chunk (data, metadata, system, mixed) from the chunk tree; data blocks of the workload's files that exist at the end mapped to them through it (FIEMAP's logical addresses); the trees inside metadata chunks, inline file data and deleted files are not attributed")
	default:
		meta.Warnings = append(meta.Warnings, fmt.Sprintf("%s: no block map (its FIEMAP offsets are not device offsets): block types and files are not attributed, processes and directions are", e.FSType))
	}
	if merr != nil {
		cerr = errors.Join(cerr, fmt.Errorf("most: map the filesystem: %w", merr))
	} else if m != nil {
		if err := writeJSON(filepath.Join(e.OutDir, FSMapFile), fsMapOf(m)); err != nil {
			cerr = errors.Join(cerr, err)
		} else {
			add(FSMapFile, sdk.KindRaw, "application/json", "the filesystem's block map at the end of the trace")
		}
	}
	if err := writeJSON(filepath.Join(e.OutDir, MetaFile), meta); err != nil {
		cerr = errors.Join(cerr, err)
	} else {
		add(MetaFile, sdk.KindRaw, "application/json", "what was traced and how")
	}
	return arts, errors.Join(werr, cerr)
}

// liveCapture is a running capture of either kind.
type liveCapture struct {
	text *tracefs.Capture
	raw  *tracefs.RawCapture
	dir  string
}

// captureStats is what either kind of capture says about its trace.
type captureStats struct {
	Lines, Lost, Overrun, DecodeNS int64
	// Wakeups are the raw capture's reader wakeups during the run.
	Wakeups int64
	// Unknown counts records of an event type without a saved format
	// (skipped by the decoder).
	Unknown int64
}

// startCapture starts the raw capture into dir, or the text capture to w.
func startCapture(in *tracefs.Instance, kind, dir string, w io.Writer) (*liveCapture, error) {
	if kind == "text" {
		c, err := in.Start(w)
		return &liveCapture{text: c}, err
	}
	c, err := in.StartRaw(dir)
	return &liveCapture{raw: c, dir: dir}, err
}

// stop stops the capture; a raw one's pages are then decoded to w as the
// text capture would have written them (a LOST line where the pages
// flag lost events).
func (c *liveCapture) stop(w io.Writer) (captureStats, error) {
	if c.text != nil {
		st, err := c.text.Stop()
		return captureStats{Lines: st.Lines, Lost: st.Lost, Overrun: st.Overrun}, err
	}
	rst, err := c.raw.Stop()
	st := captureStats{Overrun: rst.Overrun, Wakeups: rst.Wakeups}
	if err != nil {
		return st, err
	}
	t0 := time.Now()
	dst, err := tracefs.DecodeRaw(c.dir, w)
	st.DecodeNS = time.Since(t0).Nanoseconds()
	st.Lines, st.Lost, st.Unknown = dst.Events, dst.Lost, dst.Unknown
	if err != nil {
		return st, fmt.Errorf("most: decode the raw capture: %w", err)
	}
	return st, nil
}

// mapXFS maps the xfs filesystem mounted at mount from its device, frozen
// meanwhile so that its metadata is in place, and names its files.
func mapXFS(mount, dev string) (*revmap.Map, error) {
	thaw, err := revmap.FreezeFS(mount)
	if err != nil {
		return nil, err
	}
	m, err := revmap.ReadXFSFile(dev)
	if terr := thaw(); terr != nil {
		return nil, errors.Join(err, terr)
	}
	if err != nil {
		return nil, err
	}
	names, err := revmap.Names(mount, mount)
	if err != nil {
		return nil, err
	}
	named := revmap.NewMap(m.BlockSize, m.Blocks, m.Extents(), names)
	named.AGBlocks, named.AGBlkLog = m.AGBlocks, m.AGBlkLog
	return named, nil
}

// runWorkload runs the configured workload in dir and returns a one-line
// summary of it.
func runWorkload(ctx context.Context, cfg Config, dir string, e env) (string, error) {
	switch cfg.Workload {
	case "sqlite":
		op, err := dbbench.ParseOp(cfg.SQLite.Op)
		if err != nil {
			return "", err
		}
		dc, _, err := dbbench.Config{
			Dir: dir, Op: op, Transactions: cfg.SQLite.Transactions, Tables: cfg.SQLite.Tables, Threads: 1,
			Journal: cfg.SQLite.JournalMode, Sync: cfg.SQLite.Synchronous, SyncCall: cfg.SQLite.SyncCall, KeepFiles: true,
			Progress: func(done, total int64) {
				if e.Progress != nil {
					e.Progress(float64(done), float64(total), "transactions", "SQLite "+cfg.SQLite.Op)
				}
			},
		}.Normalize()
		if err != nil {
			return "", err
		}
		r, err := dbbench.Run(ctx, dc)
		if err != nil {
			return "", fmt.Errorf("most: SQLite workload: %w", err)
		}
		return fmt.Sprintf("SQLite %s, journal %s, synchronous %s: %d transactions, %.1f transactions/s", dc.Op, dc.Journal, dc.Sync, r.Transactions, r.TPS()), nil
	case "file":
		fc := fileio.Config{Dir: dir, Access: fileio.Access(cfg.File.Access), Sync: fileio.Sync(cfg.File.Sync), Threads: 1,
			FileSize: int64(cfg.File.FileSize), IOSize: int64(cfg.File.IOSize)}
		r, err := fileio.Run(ctx, fc)
		if err != nil {
			return "", fmt.Errorf("most: file workload: %w", err)
		}
		return fmt.Sprintf("file access %d sync %d: %.0f IOPS, %.1f KB/s", cfg.File.Access, cfg.File.Sync, r.IOPS(), r.KBps()), nil
	case "command":
		if len(cfg.Command) == 0 {
			return "", errors.New("most: workload = command, but command is empty")
		}
		cmd := exec.CommandContext(ctx, cfg.Command[0], cfg.Command[1:]...)
		cmd.Dir = dir
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
		cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
		out, err := cmd.CombinedOutput()
		if err != nil {
			return "", fmt.Errorf("most: command %v: %w\n%s", cfg.Command, err, out)
		}
		return fmt.Sprintf("command %v", cfg.Command), nil
	case "none":
		d, err := time.ParseDuration(cfg.Duration)
		if err != nil {
			return "", fmt.Errorf("most: duration: %w", err)
		}
		// Tracing for a fixed time is the workload itself here.
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
			return "", ctx.Err()
		}
		return fmt.Sprintf("traced for %v", d), nil
	}
	return "", fmt.Errorf("most: unknown workload %q", cfg.Workload)
}

func writeJSON(path string, v any) error {
	data, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		return fmt.Errorf("most: encode %s: %w", filepath.Base(path), err)
	}
	if err := os.WriteFile(path, append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("most: %w", err)
	}
	return nil
}

func readJSON(path string, v any) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("most: %w", err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("most: %s: %w", path, err)
	}
	return nil
}
