package replay

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestLseekPositions checks where plain writes land after the script's
// lseeks, by the sizes of the files they leave. The replay seeks to the
// traced position, so a SEEK_END whose traced file was longer than ours
// still puts the write where the trace had it.
func TestLseekPositions(t *testing.T) {
	tests := []struct {
		name   string
		script string
		size   int64
	}{
		{"no seek", "0 0 open \"/f\" O_RDWR|O_CREAT|O_TRUNC 3\n0 1 write 3 4096\n0 2 write 3 10\n", 4106},
		{"back to the start", "0 0 open \"/f\" O_RDWR|O_CREAT|O_TRUNC 3\n0 1 write 3 4096\n0 2 lseek 3 0 SEEK_SET 0\n0 3 write 3 10\n", 4096},
		{"relative", "0 0 open \"/f\" O_RDWR|O_CREAT|O_TRUNC 3\n0 1 write 3 4096\n0 2 lseek 3 -4000 SEEK_CUR 96\n0 3 write 3 4010\n", 4106},
		{"past the end", "0 0 open \"/f\" O_RDWR|O_CREAT|O_TRUNC 3\n0 1 write 3 10\n0 2 lseek 3 0 SEEK_END 8192\n0 3 write 3 10\n", 8202},
		{"failed seek not issued", "0 0 open \"/f\" O_RDWR|O_CREAT|O_TRUNC 3\n0 1 write 3 100\n0 2 lseek 3 -1 SEEK_SET -1\n0 3 write 3 10\n", 110},
		{"read after seek", "0 0 open \"/f\" O_RDWR|O_CREAT|O_TRUNC 3\n0 1 write 3 100\n0 2 lseek 3 50 SEEK_SET 50\n0 3 read 3 50\n0 4 write 3 1\n", 101},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			s := parse(t, tt.script)
			res, err := Replay(context.Background(), s, Options{Dir: dir, Keep: true})
			if err != nil {
				t.Fatal(err)
			}
			if res.Errors != 0 {
				t.Fatalf("%d calls failed: %+v", res.Errors, res.Calls)
			}
			fi, err := os.Stat(filepath.Join(dir, SandboxName, mirrorDir, "f"))
			if err != nil {
				t.Fatal(err)
			}
			if fi.Size() != tt.size {
				t.Errorf("file size %d, want %d", fi.Size(), tt.size)
			}
		})
	}
}
