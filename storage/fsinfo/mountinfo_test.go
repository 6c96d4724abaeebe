package fsinfo

import (
	"reflect"
	"strings"
	"testing"
)

// mountinfoFixture is a recorded /proc/self/mountinfo with the cases that
// matter: ext4 root, tmpfs, a mount point with escaped spaces and a
// backslash, optional fields, a fuse subtype, and /mnt/data over-mounted by a
// second filesystem.
const mountinfoFixture = `22 27 0:21 / /proc rw,nosuid,nodev,noexec,relatime shared:12 - proc proc rw
27 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw,discard,errors=remount-ro
30 27 0:27 / /dev/shm rw,nosuid,nodev shared:4 - tmpfs tmpfs rw,size=8192k,inode64
41 27 7:0 / /media/USB\040Stick rw,relatime shared:30 master:2 - vfat /dev/loop0 rw,fmask=0022,codepage=437
42 27 7:1 / /mnt/back\134slash\011tab rw,relatime - xfs /dev/loop1 rw,attr2,inode64,noquota
43 27 0:50 / /home/u/remote rw,nosuid,nodev,relatime - fuse.sshfs u@host:/srv rw,user_id=1000,group_id=1000
44 27 7:2 / /mnt/data rw,relatime - ext2 /dev/loop2 rw
45 44 7:3 /sub /mnt/data rw,noatime - btrfs /dev/loop3 rw,space_cache=v2,subvolid=257,subvol=/sub
46 27 0:60 / /var/lib/docker/overlay2/x/merged rw,relatime - overlay overlay rw,lowerdir=/a:/b,upperdir=/u,workdir=/w
`

func TestParseMountInfo(t *testing.T) {
	mounts, err := ParseMountInfo(strings.NewReader(mountinfoFixture))
	if err != nil {
		t.Fatal(err)
	}
	if len(mounts) != 9 {
		t.Fatalf("got %d mounts, want 9", len(mounts))
	}
	want := Mount{ID: 41, ParentID: 27, Major: 7, Minor: 0, Root: "/", MountPoint: "/media/USB Stick",
		Options: "rw,relatime", FSType: "vfat", Source: "/dev/loop0", SuperOptions: "rw,fmask=0022,codepage=437"}
	if !reflect.DeepEqual(mounts[3], want) {
		t.Errorf("mount 41 = %+v\nwant %+v", mounts[3], want)
	}
	if got := mounts[4].MountPoint; got != "/mnt/back\\slash\ttab" {
		t.Errorf("escaped mount point = %q", got)
	}
	if got := mounts[7].Root; got != "/sub" {
		t.Errorf("root = %q", got)
	}
}

func TestParseMountInfoErrors(t *testing.T) {
	for _, in := range []string{
		"27 1 254:0 / / rw,relatime ext4 /dev/vda rw\n", // no separator
		"x 1 254:0 / / rw - ext4 /dev/vda rw\n",
		"27 1 254 / / rw - ext4 /dev/vda rw\n",
		"27 1 254:0 / / rw -\n",
	} {
		if _, err := ParseMountInfo(strings.NewReader(in)); err == nil || !strings.Contains(err.Error(), "line 1") {
			t.Errorf("ParseMountInfo(%q) error = %v, want positioned error", in, err)
		}
	}
}

func TestFindMount(t *testing.T) {
	mounts, err := ParseMountInfo(strings.NewReader(mountinfoFixture))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path, wantType, wantOpts string
		wantID                   int
	}{
		{"/", "ext4", "rw,relatime,discard,errors=remount-ro", 27},
		{"/tmp/x", "ext4", "rw,relatime,discard,errors=remount-ro", 27},
		{"/procfoo", "ext4", "rw,relatime,discard,errors=remount-ro", 27}, // not under /proc
		{"/proc/self", "proc", "rw,nosuid,nodev,noexec,relatime", 22},
		{"/dev/shm", "tmpfs", "rw,nosuid,nodev,size=8192k,inode64", 30},
		{"/dev/shm/a/b/", "tmpfs", "rw,nosuid,nodev,size=8192k,inode64", 30},
		{"/media/USB Stick/photos", "vfat", "rw,relatime,fmask=0022,codepage=437", 41},
		{"/media/USB", "ext4", "rw,relatime,discard,errors=remount-ro", 27},
		{"/mnt/back\\slash\ttab/f", "xfs", "rw,relatime,attr2,inode64,noquota", 42},
		{"/home/u/remote/file", "fuse.sshfs", "rw,nosuid,nodev,relatime,user_id=1000,group_id=1000", 43},
		{"/mnt/data/db", "btrfs", "rw,noatime,space_cache=v2,subvolid=257,subvol=/sub", 45}, // over-mount wins
		{"/var/lib/docker/overlay2/x/merged/etc", "overlay", "rw,relatime,lowerdir=/a:/b,upperdir=/u,workdir=/w", 46},
	}
	for _, tt := range tests {
		m, ok := FindMount(mounts, tt.path)
		if !ok {
			t.Errorf("FindMount(%q): not found", tt.path)
			continue
		}
		if m.ID != tt.wantID || m.FSType != tt.wantType || m.AllOptions() != tt.wantOpts {
			t.Errorf("FindMount(%q) = id %d %s %q; want id %d %s %q", tt.path, m.ID, m.FSType, m.AllOptions(), tt.wantID, tt.wantType, tt.wantOpts)
		}
	}
	// The over-mount rule must not depend on line order.
	rev := []Mount{mounts[7], mounts[6], mounts[1]}
	if m, _ := FindMount(rev, "/mnt/data"); m.ID != 45 {
		t.Errorf("over-mount listed first: got id %d, want 45", m.ID)
	}
	if _, ok := FindMount(nil, "/x"); ok {
		t.Error("FindMount(nil) found a mount")
	}
}

func TestUnescapeOctal(t *testing.T) {
	for in, want := range map[string]string{
		`plain`:         "plain",
		`a\040b`:        "a b",
		`\040lead`:      " lead",
		`trail\040`:     "trail ",
		`nl\012x`:       "nl\nx",
		`bs\134`:        `bs\`,
		`not\08`:        `not\08`,
		`short\04`:      `short\04`,
		`two\040\040sp`: "two  sp",
	} {
		if got := unescapeOctal(in); got != want {
			t.Errorf("unescapeOctal(%q) = %q, want %q", in, got, want)
		}
	}
}
