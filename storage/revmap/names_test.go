package revmap

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/droidprof/droidprof/storage/volume"
	"github.com/droidprof/droidprof/storage/volume/volumetest"
)

func TestWatchNamesDeletedFiles(t *testing.T) {
	volumetest.NeedRoot(t, "ext4")
	vol, err := volume.Open(context.Background(), volume.Spec{Backend: "loop", FS: "ext4", Size: 32 << 20, ImageDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := vol.Close(); err != nil {
			t.Error(err)
		}
		volumetest.Released(t, vol.Dir, vol.Image, vol.Device)
	}()
	w, err := Watch(vol.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(vol.Dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(vol.Dir, "sub", "t.db-journal")
	if err := os.WriteFile(p, []byte("journal"), 0o644); err != nil {
		t.Fatal(err)
	}
	var st syscall.Stat_t
	if err := syscall.Stat(p, &st); err != nil {
		t.Fatal(err)
	}
	var dst syscall.Stat_t
	if err := syscall.Stat(filepath.Dir(p), &dst); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(p, p+"2"); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(p + "2"); err != nil {
		t.Fatal(err)
	}
	evs, err := w.Stop()
	if err != nil {
		t.Fatal(err)
	}
	want := []NameEvent{
		{Op: "create", Ino: uint32(dst.Ino), Dir: RootIno, Name: "sub", IsDir: true},
		{Op: "create", Ino: uint32(st.Ino), Dir: uint32(dst.Ino), Name: "t.db-journal"},
		{Op: "moved_from", Ino: uint32(st.Ino), Dir: uint32(dst.Ino), Name: "t.db-journal"},
		{Op: "moved_to", Ino: uint32(st.Ino), Dir: uint32(dst.Ino), Name: "t.db-journal2"},
		{Op: "delete", Ino: uint32(st.Ino), Dir: uint32(dst.Ino), Name: "t.db-journal2"},
	}
	if len(evs) != len(want) {
		t.Fatalf("got %d events %+v, want %d", len(evs), evs, len(want))
	}
	for i := range want {
		e := evs[i]
		e.Time, e.Pid = 0, 0
		if e != want[i] {
			t.Errorf("event %d: got %+v, want %+v", i, e, want[i])
		}
		if evs[i].Pid != os.Getpid() {
			t.Errorf("event %d: pid %d, want ours %d", i, evs[i].Pid, os.Getpid())
		}
	}
}
