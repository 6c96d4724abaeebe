package trace

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkRecorderAdd is the record buffer's share of an event: one
// thread's events into a 65536-record buffer written to a file.
func BenchmarkRecorderAdd(b *testing.B) {
	f, err := os.Create(filepath.Join(b.TempDir(), RecordsFile))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	r, err := NewRecorder(f, 65536)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r.Add(Event{Thread: 1, Method: uint32(i & 63), Action: Action(i & 1), Wall: int64(i), CPU: int64(i)})
	}
	if err := r.Flush(); err != nil {
		b.Fatal(err)
	}
}
