package revmap

import (
	"context"
	"testing"

	"github.com/droidprof/droidprof/storage/volume"
	"github.com/droidprof/droidprof/storage/volume/volumetest"
	"golang.org/x/sys/unix"
)

// FIEMAP's map of an ext4 volume agrees with our on-disk reader on every
// data block of every file.
func TestMapFilesAgreesWithExt4Reader(t *testing.T) {
	volumetest.NeedRoot(t, "ext4")
	vol, err := volume.Open(context.Background(), volume.Spec{Backend: "loop", FS: "ext4", Size: 64 << 20, ImageDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer vol.Close()
	populate(t, vol.Dir)
	fd, err := unix.Open(vol.Dir, unix.O_RDONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	unix.Syncfs(fd)
	unix.Close(fd)
	fm, err := MapFiles(vol.Dir, vol.Dir)
	if err != nil {
		t.Fatal(err)
	}
	em, err := ReadExt4File(vol.Device)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, e := range fm.Extents() {
		for b := e.Start; b < e.Start+e.Len; b++ {
			x := em.Lookup(b)
			if x.Ino != e.Ino || x.Type != Data || em.Path(x.Ino) != fm.Path(e.Ino) {
				t.Fatalf("block %d: FIEMAP inode %d %q, our reader inode %d %v %q", b, e.Ino, fm.Path(e.Ino), x.Ino, x.Type, em.Path(x.Ino))
			}
			checked++
		}
	}
	var want uint64
	for _, e := range em.Extents() {
		if e.Type == Data && e.Ino >= 11 {
			want += e.Len
		}
	}
	if uint64(checked) != want || checked == 0 {
		t.Errorf("FIEMAP maps %d data blocks, our reader %d", checked, want)
	}
}
