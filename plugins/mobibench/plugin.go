// Package mobibench is droidprof's Mobibench plugin (file I/O half): a
// collector that runs the storage/fileio engine exactly like Mobibench's shell
// version, a collector that runs the real fio with the equivalent job, and an
// analyzer that turns both into metrics and a Mobibench-vs-fio comparison.
//
// Both collectors take the same Config, so one experiment matrix can drive
// them side by side on the same storage directory.
package mobibench

import (
	"fmt"
	"strings"

	"github.com/droidprof/droidprof/framework/sdk"
	"github.com/droidprof/droidprof/framework/units"
	"github.com/droidprof/droidprof/storage/fileio"
)

// Version is the plugin version.
const Version = "0.1.0"

// Plugin returns the mobibench plugin.
func Plugin() *sdk.Plugin {
	return &sdk.Plugin{
		Name:        "mobibench",
		Version:     Version,
		Description: "Mobibench file I/O benchmark (all access and sync modes) and the equivalent fio job, side by side",
		Collectors: []sdk.Collector{
			{Name: "mobibench", Description: "Mobibench shell-version file benchmark on the step's storage directory", Config: Config{}, Run: collector(runMobibench)},
			{Name: "fio", Description: "the real fio binary running the job equivalent to the Mobibench config", Config: Config{}, Run: collector(runFio)},
		},
		Analyzers: []sdk.Analyzer{
			{Name: "mobibench", Description: "throughput, IOPS, CPU, context switches and latency per cell, and Mobibench/fio ratios", Config: AnalyzerConfig{}, Run: analyze},
		},
	}
}

// Config is the configuration of both collectors. The defaults are
// Mobibench's.
type Config struct {
	Preset     string   `json:"preset" doc:"named workload NAME[@SIZE] that decides access, sync and threads (and file_size when @SIZE is given), e.g. randwrite-fsync@16MiB; names: randwrite-fsync, seqwrite-buffered, seqwrite-direct, seqwrite-mmap, randwrite-fsync-4t, ...; empty: use those keys"`
	Access     int      `json:"access" doc:"access mode: 0 write (overwrite), 1 random write, 2 read, 3 random read, 4 append" default:"0" min:"0" max:"4"`
	Sync       int      `json:"sync" doc:"sync mode: 0 buffered, 1 O_SYNC, 2 fsync, 3 O_DIRECT, 4 O_SYNC|O_DIRECT, 5 mmap, 6 mmap+MS_ASYNC, 7 mmap+MS_SYNC, 8 fdatasync, 9 fbarrier, 10 fdatabarrier" default:"0" min:"0" max:"10"`
	Threads    int      `json:"threads" doc:"threads, each with its own file test.datN; the file size is divided among them" default:"1" min:"1" max:"100"`
	FileSize   sdk.Size `json:"file_size" doc:"total file size over all threads" default:"1MiB"`
	IOSize     sdk.Size `json:"io_size" doc:"size of one I/O (Mobibench's record)" default:"4KiB"`
	Overlap    int      `json:"overlap" doc:"percentage of random I/Os that revisit a record (Mobibench -v); fio: approximated by norandommap" default:"0" min:"0" max:"99"`
	DropCaches bool     `json:"drop_caches" doc:"sync and drop the page cache before the clock starts (needs root; fio also gets invalidate=1)" default:"false"`
	LatencyLog bool     `json:"latency_log" doc:"write latency.tsv with every I/O's latency (Mobibench -L)" default:"false"`
	IOPSLog    bool     `json:"iops_log" doc:"write iops.tsv with I/Os per second (Mobibench -k)" default:"false"`
	FioOptions []string `json:"fio_options" doc:"extra key=value lines for the fio job (fio collector only)"`
}

// defaultFileSize is Mobibench's default -f (1024 KB).
const defaultFileSize = sdk.Size(1 << 20)

// Preset is a named Mobibench workload.
type Preset struct {
	Name                  string
	Access, Sync, Threads int
	Description           string
}

// Presets are the workloads a preset key may name: the ones the paper and
// the side-by-side experiment use.
var Presets = []Preset{
	{"randwrite-fsync", 1, 2, 1, "random write + fsync per I/O (the paper's Fig. 10 workload)"},
	{"randwrite-fdatasync", 1, 8, 1, "random write + fdatasync per I/O"},
	{"randwrite-osync", 1, 1, 1, "random write, O_SYNC"},
	{"seqwrite-buffered", 0, 0, 1, "sequential overwrite, buffered, final fsync"},
	{"seqwrite-osync", 0, 1, 1, "sequential overwrite, O_SYNC"},
	{"seqwrite-direct", 0, 3, 1, "sequential overwrite, O_DIRECT"},
	{"seqwrite-mmap", 0, 5, 1, "sequential write through a shared mapping, final msync"},
	{"append-buffered", 4, 0, 1, "append into a new file, buffered, final fsync"},
	{"seqread-buffered", 2, 0, 1, "sequential read, buffered"},
	{"randread-buffered", 3, 0, 1, "random read, buffered"},
	{"randwrite-fsync-4t", 1, 2, 4, "random write + fsync per I/O, 4 threads"},
}

func presetByName(name string) (Preset, bool) {
	for _, p := range Presets {
		if p.Name == name {
			return p, true
		}
	}
	return Preset{}, false
}

// resolve applies the preset and returns the engine configuration. A key
// that disagrees with the preset and is not at its default is an error: the
// user asked for two different things.
func (c Config) resolve(dir string) (Config, fileio.Config, error) {
	if c.Preset != "" {
		name, size, hasSize := strings.Cut(c.Preset, "@")
		p, ok := presetByName(name)
		if !ok {
			names := make([]string, len(Presets))
			for i, p := range Presets {
				names[i] = p.Name
			}
			return c, fileio.Config{}, fmt.Errorf("unknown preset %q (have %v)", name, names)
		}
		if hasSize {
			n, err := units.ParseSize(size)
			if err != nil {
				return c, fileio.Config{}, fmt.Errorf("preset %q: %w", c.Preset, err)
			}
			if c.FileSize != defaultFileSize && c.FileSize != sdk.Size(n) {
				return c, fileio.Config{}, fmt.Errorf("preset %q sets file_size = %s, but the config also says file_size = %s", c.Preset, units.FormatSize(n), units.FormatSize(int64(c.FileSize)))
			}
			c.FileSize = sdk.Size(n)
		}
		for _, f := range []struct {
			key          string
			v, def, want int
		}{{"access", c.Access, 0, p.Access}, {"sync", c.Sync, 0, p.Sync}, {"threads", c.Threads, 1, p.Threads}} {
			if f.v != f.def && f.v != f.want {
				return c, fileio.Config{}, fmt.Errorf("preset %q sets %s = %d, but the config also says %s = %d", name, f.key, f.want, f.key, f.v)
			}
		}
		c.Access, c.Sync, c.Threads = p.Access, p.Sync, p.Threads
	}
	return c, fileio.Config{
		Dir: dir, Access: fileio.Access(c.Access), Sync: fileio.Sync(c.Sync), Threads: c.Threads,
		FileSize: int64(c.FileSize), IOSize: int64(c.IOSize), Overlap: c.Overlap, DropCaches: c.DropCaches,
	}, nil
}

// AnalyzerConfig configures the analyzer.
type AnalyzerConfig struct {
	Baseline string `json:"baseline" doc:"collector the ratio table divides by" default:"fio" enum:"fio,mobibench"`
}
