package mobibench

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/droidprof/droidprof/framework/sdk/sdktest"
	"github.com/droidprof/droidprof/internal/testenv"
	"golang.org/x/sys/unix"
)

// TestMappedModesOnAFullDisk: the mmap modes on a 2 MiB tmpfs with a 4 MiB
// file fail their step with "no space left on device", like the other
// modes, instead of killing the plugin with SIGBUS (which would kill this
// test binary, the plugin being served in-process).
func TestMappedModesOnAFullDisk(t *testing.T) {
	dir := t.TempDir()
	if err := unix.Mount("tmpfs", dir, "tmpfs", 0, "size=2m"); err != nil {
		testenv.SkipOrFail(t, "cannot mount a 2 MiB tmpfs here (needs root): %v", err)
	}
	t.Cleanup(func() { _ = unix.Unmount(dir, unix.MNT_DETACH) })
	c := sdktest.Start(t, Plugin())
	for _, tt := range []struct{ access, sync int }{{4, 5}, {1, 7}, {4, 0}} {
		t.Run(fmt.Sprintf("access%d-sync%d", tt.access, tt.sync), func(t *testing.T) {
			cfg := map[string]any{"access": tt.access, "sync": tt.sync, "file_size": 4 << 20, "io_size": 4096}
			_, err := c.Collect(context.Background(), "mobibench", cfg, sdktest.CollectOptions{StorageDir: dir})
			if err == nil || !strings.Contains(err.Error(), "no space left on device") {
				t.Fatalf("Collect = %v, want a no space left on device error", err)
			}
		})
	}
}
