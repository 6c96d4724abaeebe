package fsinfo

import (
	"bufio"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
)

// Mount is one line of /proc/<pid>/mountinfo (see proc_pid_mountinfo(5)).
type Mount struct {
	ID, ParentID int
	Major, Minor uint32
	Root         string // root of the mount within its filesystem
	MountPoint   string // unescaped
	Options      string // per-mount (VFS) options
	FSType       string // e.g. "ext4", "fuse.sshfs"
	Source       string
	SuperOptions string // per-superblock (filesystem) options
}

// AllOptions returns the per-mount options followed by the per-superblock
// options, with "rw"/"ro" and other duplicates dropped from the latter — the
// same string as findmnt's OPTIONS column.
func (m Mount) AllOptions() string {
	var out []string
	seen := map[string]bool{}
	add := func(list string, dropRWRO bool) {
		for _, o := range strings.Split(list, ",") {
			if o == "" || seen[o] || (dropRWRO && (o == "rw" || o == "ro")) {
				continue
			}
			seen[o] = true
			out = append(out, o)
		}
	}
	add(m.Options, false)
	add(m.SuperOptions, true)
	return strings.Join(out, ",")
}

// ParseMountInfo parses the content of /proc/<pid>/mountinfo. Paths have their
// octal escapes (\040 for a space, \011, \012, \134) decoded.
func ParseMountInfo(r io.Reader) ([]Mount, error) {
	var mounts []Mount
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	line := 0
	for sc.Scan() {
		line++
		text := sc.Text()
		if strings.TrimSpace(text) == "" {
			continue
		}
		m, err := parseMountInfoLine(text)
		if err != nil {
			return nil, fmt.Errorf("mountinfo line %d: %w", line, err)
		}
		mounts = append(mounts, m)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("mountinfo: %w", err)
	}
	return mounts, nil
}

func parseMountInfoLine(text string) (Mount, error) {
	var m Mount
	f := strings.Split(text, " ")
	sep := -1
	for i := 6; i < len(f); i++ {
		if f[i] == "-" {
			sep = i
			break
		}
	}
	if len(f) < 7 || sep < 0 || len(f) < sep+3 {
		return m, fmt.Errorf("malformed line %q", text)
	}
	var err error
	if m.ID, err = strconv.Atoi(f[0]); err != nil {
		return m, fmt.Errorf("mount id %q: %w", f[0], err)
	}
	if m.ParentID, err = strconv.Atoi(f[1]); err != nil {
		return m, fmt.Errorf("parent id %q: %w", f[1], err)
	}
	maj, min, ok := strings.Cut(f[2], ":")
	if !ok {
		return m, fmt.Errorf("device %q: want major:minor", f[2])
	}
	ma, err1 := strconv.ParseUint(maj, 10, 32)
	mi, err2 := strconv.ParseUint(min, 10, 32)
	if err1 != nil || err2 != nil {
		return m, fmt.Errorf("device %q: want major:minor", f[2])
	}
	m.Major, m.Minor = uint32(ma), uint32(mi)
	m.Root = unescapeOctal(f[3])
	m.MountPoint = unescapeOctal(f[4])
	m.Options = f[5]
	m.FSType = unescapeOctal(f[sep+1])
	m.Source = unescapeOctal(f[sep+2])
	if len(f) > sep+3 {
		m.SuperOptions = strings.Join(f[sep+3:], " ")
	}
	return m, nil
}

// unescapeOctal decodes the kernel's \ooo escapes (seq_file mangle).
func unescapeOctal(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) && isOctal(s[i+1]) && isOctal(s[i+2]) && isOctal(s[i+3]) {
			v := (s[i+1]-'0')<<6 | (s[i+2]-'0')<<3 | (s[i+3] - '0')
			b.WriteByte(v)
			i += 3
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func isOctal(c byte) bool { return c >= '0' && c <= '7' }

// FindMount returns the mount that holds path: the one whose mount point is
// the longest path-component prefix of path. Where several mounts share that
// mount point (one mounted over another), the topmost wins. path should be
// absolute with symbolic links resolved.
func FindMount(mounts []Mount, path string) (Mount, bool) {
	path = filepath.Clean(path)
	best := -1
	bestLen := -1
	for i, m := range mounts {
		mp := filepath.Clean(m.MountPoint)
		if !pathHasPrefix(path, mp) {
			continue
		}
		switch {
		case len(mp) > bestLen:
			best, bestLen = i, len(mp)
		case len(mp) == bestLen && !isParentOf(mounts[i], mounts[best]):
			// Same mount point: a later mount is on top of an earlier one
			// unless it is the earlier one's parent.
			best = i
		}
	}
	if best < 0 {
		return Mount{}, false
	}
	return mounts[best], true
}

func isParentOf(a, b Mount) bool { return b.ParentID == a.ID }

func pathHasPrefix(path, prefix string) bool {
	if prefix == "/" {
		return strings.HasPrefix(path, "/")
	}
	return path == prefix || strings.HasPrefix(path, prefix+"/")
}
