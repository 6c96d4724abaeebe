// Package most is droidprof's MOST plugin (paper 002 §3.2, the AndroStep
// Mobile Storage Analyzer): who wrote every block? It attributes each block
// request to the process that submitted it (and, for writeback, the one
// that dirtied the data), to the block type of the filesystem layout, to
// the file (block → inode → path, files deleted during the trace included)
// and to the file's type class — on a stock kernel, where MOST needed a
// patched one.
//
// The "most" collector traces the step's loop or device volume through a
// private tracefs instance (storage/tracefs) while it runs a workload in
// the same step (Mobibench's SQLite or file test, or any command), names
// files with fanotify and maps the filesystem at the end (storage/revmap).
// The "import" collector takes a trace captured elsewhere (ftrace text, as
// trace_pipe, atrace or Perfetto's text export print it). The analyzer
// attributes every request and draws the paper's tables and figures.
package most

import (
	"github.com/droidprof/droidprof/framework/sdk"
)

// Version is the plugin version.
const Version = "0.1.0"

// Plugin returns the most plugin.
func Plugin() *sdk.Plugin {
	return &sdk.Plugin{
		Name:        "most",
		Version:     Version,
		Description: "MOST: block I/O attributed to process, block type, file and file type, deleted files included",
		Collectors: []sdk.Collector{
			{Name: "most", Description: "trace the block I/O of the step's loop or device volume (root) while a workload runs, name files, map the filesystem", Config: Config{}, Run: collectLive},
			{Name: "import", Description: "analyse a block trace captured elsewhere (ftrace text as trace_pipe, atrace or Perfetto's text export print it; blkparse's default text; MOST's TSV), optionally with a filesystem map", Config: ImportConfig{}, Run: collectImport},
		},
		Analyzers: []sdk.Analyzer{
			{Name: "most", Description: "per-I/O table and distributions: file type × read/write (the paper's Fig. 14a), block type (Fig. 14b), process, request size, random vs sequential, sync vs buffered, latency per class", Config: AnalyzerConfig{}, Run: analyze},
		},
	}
}

// Config configures the live collector.
type Config struct {
	Workload    string       `json:"workload" doc:"what runs while the trace records: sqlite (Mobibench's DB test), file (Mobibench's file test), command, or none (trace for duration)" default:"sqlite" enum:"sqlite,file,command,none"`
	SQLite      SQLiteConfig `json:"sqlite" doc:"the SQLite workload (Mobibench -d)"`
	File        FileConfig   `json:"file" doc:"the file workload (Mobibench's file test)"`
	Command     []string     `json:"command" doc:"workload = command: the program and its arguments, run in the data directory on the volume"`
	Duration    string       `json:"duration" doc:"workload = none: how long to trace (a Go duration)" default:"1s"`
	BufferKB    int          `json:"buffer_kb" doc:"trace ring buffer per CPU in KiB; a buffer too small for the workload loses events, which the results report" default:"8192" min:"64"`
	Capture     string       `json:"capture" doc:"raw: the kernel's binary per-CPU ring-buffer pages spliced into files while the workload runs and decoded to trace.txt after it (the cheap way); text: the kernel's formatted trace_pipe, read and written as the workload runs" default:"raw" enum:"raw,text"`
	WakePercent int          `json:"wake_percent" doc:"how full (per cent) a CPU's ring buffer gets before the capture's reader is woken (buffer_percent); 0 wakes it at every event (text only: the raw capture moves whole pages and wakes at 1 % at the least)" default:"50" min:"0" max:"90"`
	Dirtier     string       `json:"dirtier" doc:"ext4: how writeback learns the process that dirtied the file: inode (writeback_dirty_inode_enqueue, once per inode going from clean to dirty — about 1 event per SQLite transaction; the process that made the inode dirty, whoever dirties more of it before it is written back) or page (writeback_dirty_folio, once per page going from clean to dirty — about 10 per transaction; the last process to dirty a clean page of the file)" default:"inode" enum:"inode,page"`
	Journal     string       `json:"journal" doc:"ext4: how the journal thread's commits learn their process: fsync (ext4_sync_file_enter, about 4 events per SQLite transaction; the process whose fsync or fdatasync forced the commit, else the one seen dirtying the most files or pages since the previous commit) or handles (jbd2_handle_start, about 10 per transaction, every mtime update among them; the process that started the most handles in the committed transaction)" default:"fsync" enum:"fsync,handles"`
	Names       bool         `json:"names" doc:"name files with fanotify while tracing, so files deleted before the end keep their names (retrospective mapping)" default:"true"`
	Oracle      string       `json:"oracle" doc:"blk: also trace the device with the kernel's own blktrace code (the blk ftrace tracer, top-level tracefs instance, one run at a time on the machine) and report how many requests the two traces share (sector, size, direction) in meta.json and the metrics" default:"none" enum:"none,blk"`
}

// SQLiteConfig is the sqlite block.
type SQLiteConfig struct {
	Op           string `json:"op" doc:"insert, update or delete (Mobibench -d)" default:"insert" enum:"insert,update,delete"`
	Transactions int    `json:"transactions" doc:"transactions (Mobibench -n)" default:"100" min:"1"`
	Tables       int    `json:"tables" doc:"tables per database (-T)" default:"3" min:"1" max:"20"`
	JournalMode  string `json:"journal_mode" doc:"PRAGMA journal_mode (-j)" default:"DELETE" enum:"DELETE,TRUNCATE,PERSIST,WAL,MEMORY,OFF"`
	Synchronous  string `json:"synchronous" doc:"PRAGMA synchronous (-s)" default:"FULL" enum:"OFF,NORMAL,FULL"`
	SyncCall     string `json:"sync_call" doc:"fdatasync (Android's SQLite) or fsync (Mobibench's static build)" default:"fdatasync" enum:"fdatasync,fsync"`
}

// FileConfig is the file block.
type FileConfig struct {
	Access   int      `json:"access" doc:"access mode: 0 write, 1 random write, 2 read, 3 random read, 4 append" default:"1" min:"0" max:"4"`
	Sync     int      `json:"sync" doc:"sync mode: 0 buffered, 1 O_SYNC, 2 fsync, 3 O_DIRECT, 4 O_SYNC|O_DIRECT, 5 mmap, 6 mmap+MS_ASYNC, 7 mmap+MS_SYNC, 8 fdatasync" default:"2" min:"0" max:"8"`
	FileSize sdk.Size `json:"file_size" doc:"file size" default:"4MiB"`
	IOSize   sdk.Size `json:"io_size" doc:"size of one I/O" default:"4KiB"`
}

// ImportConfig configures the import collector.
type ImportConfig struct {
	Trace          string `json:"trace" doc:"the trace file: ftrace text (block_rq_issue/block_rq_complete, optionally block_getrq or block_bio_queue, writeback_dirty_inode_enqueue or writeback_dirty_folio, and ext4 events), blkparse's default text, or MOST's TSV (result.p or result.po); a relative path is taken from droidprof's working directory" required:"true"`
	Format         string `json:"format" doc:"the trace's format: ftrace, blkparse, most, or auto (told from its first line)" default:"auto" enum:"auto,ftrace,blkparse,most"`
	FSMap          string `json:"fsmap" doc:"a filesystem map (fsmap.json, as the most collector writes it) for block types and files; empty: process, R/W and sizes only"`
	Names          string `json:"names" doc:"the names seen during the trace (names.json, as the most collector writes it), for files deleted before its end"`
	Device         string `json:"device" doc:"major,minor of the traced device to keep (e.g. 179,0); empty: the device with the most requests"`
	PartitionStart int64  `json:"partition_start" doc:"first sector of the filesystem on the traced device (MOST hard-coded 2048 for its phone's partition)" default:"0" min:"0"`
}

// AnalyzerConfig configures the analyzer.
type AnalyzerConfig struct {
	TableRows int `json:"table_rows" doc:"rows of the per-I/O table shown in the report (the whole table is in most-io.tsv)" default:"20" min:"0"`
}
