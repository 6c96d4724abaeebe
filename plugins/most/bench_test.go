package most

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/droidprof/droidprof/framework/sdk/stats"
	"github.com/droidprof/droidprof/storage/fileio"
	"github.com/droidprof/droidprof/storage/revmap"
	"github.com/droidprof/droidprof/storage/tracefs"
	"github.com/droidprof/droidprof/storage/volume"
	"github.com/droidprof/droidprof/storage/volume/volumetest"
	"golang.org/x/sys/unix"
)

// BenchmarkAttribute measures import + attribution of the recorded SQLite
// trace, repeated to 100 times its length, in events per second.
func BenchmarkAttribute(b *testing.B) {
	one, err := os.ReadFile(filepath.Join(fixture, TraceFile))
	if err != nil {
		b.Fatal(err)
	}
	trace := bytes.Repeat(one, 100)
	var fsm FSMap
	var names []revmap.NameEvent
	var meta Meta
	for name, v := range map[string]any{FSMapFile: &fsm, NamesFile: &names, MetaFile: &meta} {
		if err := readJSON(filepath.Join(fixture, name), v); err != nil {
			b.Fatal(err)
		}
	}
	m := fsm.Map()
	b.SetBytes(int64(len(trace)))
	b.ResetTimer()
	var events int64
	for i := 0; i < b.N; i++ {
		att, err := Attribute(bytes.NewReader(trace), meta, m, names)
		if err != nil {
			b.Fatal(err)
		}
		events += att.Events
	}
	b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkCaptureOverhead runs Mobibench's random write + fsync on an
// ext4 loop volume without and with the live capture and reports the
// workload's IOPS, for the capture's cost on the traced workload.
func BenchmarkCaptureOverhead(b *testing.B) {
	volumetest.NeedRoot(b, "ext4")
	for _, traced := range []bool{false, true} {
		name := "untraced"
		if traced {
			name = "traced"
		}
		b.Run(name, func(b *testing.B) {
			vol, err := volume.Open(context.Background(), volume.Spec{Backend: "loop", FS: "ext4", Size: 256 << 20, ImageDir: b.TempDir()})
			if err != nil {
				b.Fatal(err)
			}
			defer vol.Close()
			fc := fileio.Config{Dir: vol.Dir, Access: fileio.Access(1), Sync: fileio.Sync(2), Threads: 1, FileSize: 4 << 20, IOSize: 4096}
			var iops []float64
			for i := 0; i < b.N; i++ {
				var in *tracefs.Instance
				var c *tracefs.Capture
				if traced {
					dev := fmt.Sprintf("dev == %d", devOf(b, vol.Device))
					opts := tracefs.Options{Events: append(append([]string(nil), blockEvents...), ext4Events...), Filters: map[string]string{}, BufferKB: 8192, Clock: "mono"}
					for _, ev := range opts.Events {
						opts.Filters[ev] = dev
					}
					if in, err = tracefs.Open(opts); err != nil {
						b.Fatal(err)
					}
					if c, err = in.Start(io.Discard); err != nil {
						b.Fatal(err)
					}
				}
				r, err := fileio.Run(context.Background(), fc)
				if err != nil {
					b.Fatal(err)
				}
				iops = append(iops, r.IOPS())
				if traced {
					if _, err := c.Stop(); err != nil {
						b.Fatal(err)
					}
					in.Close()
				}
			}
			b.ReportMetric(stats.Median(iops), "IOPS")
		})
	}
}

func devOf(b *testing.B, dev string) uint64 {
	var st unix.Stat_t
	if err := unix.Stat(dev, &st); err != nil {
		b.Fatal(err)
	}
	return tracefs.KernelDev(unix.Major(uint64(st.Rdev)), unix.Minor(uint64(st.Rdev)))
}
