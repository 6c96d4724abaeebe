package fsinfo

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// Describe reports the filesystem type and mount options (findmnt's OPTIONS:
// per-mount then per-superblock options) of the filesystem holding dir. If
// dir does not exist yet, its nearest existing ancestor is used.
//
// statfs(2) alone cannot tell ext2, ext3 and ext4 apart (they share the magic
// 0xEF53) and knows nothing of mount options, so the mount is looked up in
// /proc/self/mountinfo; the statfs magic is the fallback when mountinfo is
// unavailable or disagrees (e.g. dir is behind a mount namespace boundary).
func Describe(dir string) (fstype, mountOptions string, err error) {
	path, err := existingAncestor(dir)
	if err != nil {
		return "", "", err
	}
	var st unix.Statfs_t
	if err := unix.Statfs(path, &st); err != nil {
		return "", "", &os.PathError{Op: "statfs", Path: path, Err: err}
	}
	magic := uint32(st.Type)
	magicName := names[magic]

	f, err := os.Open("/proc/self/mountinfo")
	if err == nil {
		mounts, perr := ParseMountInfo(f)
		f.Close()
		if perr == nil {
			if m, ok := FindMount(mounts, path); ok && magicAgrees(magic, m.FSType) {
				return m.FSType, m.AllOptions(), nil
			}
		}
	}
	if magicName == "" {
		return fmt.Sprintf("unknown(%#x)", magic), "", nil
	}
	return magicName, "", nil
}

// existingAncestor makes dir absolute, resolves symbolic links and climbs to
// the nearest directory that exists.
func existingAncestor(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for p := abs; ; p = filepath.Dir(p) {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			return real, nil
		} else if !errors.Is(err, os.ErrNotExist) || p == filepath.Dir(p) {
			return "", err
		}
	}
}

// magicAgrees reports whether a mountinfo fstype is consistent with a statfs
// magic number. Unknown magics agree with anything.
func magicAgrees(magic uint32, fstype string) bool {
	name, ok := names[magic]
	if !ok {
		return true
	}
	switch magic {
	case 0xEF53:
		return fstype == "ext2" || fstype == "ext3" || fstype == "ext4" || fstype == "ext4dev"
	case 0x01021994: // tmpfs magic is shared by devtmpfs and a tmpfs rootfs
		return fstype == "tmpfs" || fstype == "devtmpfs" || fstype == "rootfs"
	case 0x858458f6:
		return fstype == "ramfs" || fstype == "rootfs"
	case 0x65735546:
		return fstype == "fuse" || fstype == "fuseblk" || strings.HasPrefix(fstype, "fuse.") || strings.HasPrefix(fstype, "fuseblk.")
	case 0x6969:
		return fstype == "nfs" || fstype == "nfs4"
	case 0x4d44:
		return fstype == "vfat" || fstype == "msdos" || fstype == "fat"
	case 0x5346544e, 0x7366746e:
		return fstype == "ntfs" || fstype == "ntfs3"
	case 0x27e0eb:
		return fstype == "cgroup"
	case 0xFF534D42, 0xFE534D42:
		return fstype == "cifs" || fstype == "smb3" || fstype == "smb2"
	}
	return fstype == name
}

// names maps statfs f_type magics (linux/magic.h) to the fstype names
// mount and /proc/self/mountinfo use.
var names = map[uint32]string{
	0xEF53:     "ext2/ext3/ext4",
	0x01021994: "tmpfs",
	0x58465342: "xfs",
	0x9123683E: "btrfs",
	0x794c7630: "overlay",
	0xF2F52010: "f2fs",
	0x2fc12fc1: "zfs",
	0xca451a4e: "bcachefs",
	0xE0F5E1E2: "erofs",
	0x73717368: "squashfs",
	0x3153464a: "jfs",
	0x52654973: "reiserfs",
	0x4d44:     "vfat",
	0x2011BAB0: "exfat",
	0x5346544e: "ntfs",
	0x7366746e: "ntfs3",
	0x9660:     "iso9660",
	0x858458f6: "ramfs",
	0x6969:     "nfs",
	0xFF534D42: "cifs",
	0xFE534D42: "smb2",
	0x00c36400: "ceph",
	0x01021997: "9p",
	0x65735546: "fuse",
	0x786f4256: "vboxsf",
	0x61756673: "aufs",
	0xf15f:     "ecryptfs",
	0x9fa0:     "proc",
	0x62656572: "sysfs",
	0x1cd1:     "devpts",
	0x27e0eb:   "cgroup",
	0x63677270: "cgroup2",
	0x64626720: "debugfs",
	0x74726163: "tracefs",
	0x73636673: "securityfs",
	0xcafe4a11: "bpf",
	0x958458f6: "hugetlbfs",
	0x19800202: "mqueue",
	0x6e736673: "nsfs",
	0x62656570: "configfs",
	0x6165676C: "pstore",
	0xde5e81e4: "efivarfs",
	0x0187:     "autofs",
	0x42494e4d: "binfmt_misc",
	0x65735543: "fusectl",
	0xf97cff8c: "selinuxfs",
}
