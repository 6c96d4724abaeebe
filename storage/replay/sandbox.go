package replay

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// SandboxName is the directory under Options.Dir where everything happens;
// Mobibench uses the same name.
const SandboxName = "mobigen_temp"

// mirrorDir holds the mirrors of the script's real paths, so "/data/x" is
// SandboxName/root/data/x.
const mirrorDir = "root"

// Limits that keep a malformed or hostile script from filling the disk or
// the memory before the clock even starts.
const (
	maxIOSize  = 256 << 20 // one write or read
	maxPrefill = 4 << 30   // all pre-created bytes together
)

// filler is what writes write and pre-created files hold. Mobibench
// memsets its buffer with 0xcafe, which memset truncates to 0xfe.
const filler = 0xfe

// target is where one open of the script goes.
type target struct {
	path  string
	flags int
}

// plan is the pre-pass over the script: where each open and path call goes,
// and which files must exist before the clock starts.
type plan struct {
	sandbox string
	opens   map[int]target // by entry index
	paths   map[int]string // path calls, by entry index
	dirs    []string       // to create, parents first
	files   map[string]int64
	skipped []string // files that could not be pre-created (bad names, path conflicts)
	// warnings are positioned notes on script lines the replay cannot
	// issue as written on this filesystem (O_DIRECT refused).
	warnings []string
	name     string // the script's name, for warnings
	lines    map[int]int
}

// mirror maps a script path into the sandbox. Cleaning it as an absolute path
// first drops every leading "..", so no path can leave the mirror root, and
// the sandbox holds no symlinks that could lead elsewhere (the script cannot
// create any).
func mirror(sandbox, p string) string {
	return filepath.Join(sandbox, mirrorDir, filepath.Clean("/"+p))
}

// synthetic reports an open that Mobigen invented for an fd it first saw in a
// read or write (`open /data/data O_WRONLY|O_CREAT|O_TRUNC|O_LARGEFILE fd`).
// Its path is the only unquoted one with a leading slash (reduced real paths
// lose it), and its flags are made up: the file existed and had data.
func synthetic(e *Entry) bool { return !e.Quoted && strings.HasPrefix(e.Path, "/") }

// carried are the open flags a replayed open keeps from the trace because
// they change what the storage does: synchronous writes, the page cache
// bypassed, writes at the end.
var carried = []struct {
	name string
	bit  int
}{{"O_SYNC", unix.O_SYNC}, {"O_DSYNC", unix.O_DSYNC}, {"O_DIRECT", unix.O_DIRECT}, {"O_APPEND", unix.O_APPEND}}

func openFlags(e *Entry) int {
	extra := 0
	if !synthetic(e) {
		for _, c := range carried {
			if hasFlag(e.Flags, c.name) {
				extra |= c.bit
			}
		}
	}
	if strings.HasPrefix(e.Flags, "O_RDONLY") {
		return unix.O_RDONLY | unix.O_CLOEXEC | extra
	}
	// Mobibench opens everything else read-write (reads on a file the app
	// opened write-only would otherwise fail) and creates it. Unlike
	// Mobibench, which always truncates, O_TRUNC and O_APPEND are kept as
	// recorded, so that the reads of a database opened O_RDWR|O_CREAT find
	// the data it had.
	f := unix.O_RDWR | unix.O_CREAT | unix.O_CLOEXEC | extra
	if !synthetic(e) && hasFlag(e.Flags, "O_TRUNC") {
		f |= unix.O_TRUNC
	}
	if e.Ret < 0 {
		// The traced open failed; without O_CREAT ours fails the same way
		// unless the file exists in the sandbox.
		f &^= unix.O_CREAT | unix.O_TRUNC
	}
	return f
}

func hasFlag(flags, name string) bool {
	for f := range strings.SplitSeq(flags, "|") {
		if f == name {
			return true
		}
	}
	return false
}

func newPlan(s *Script, sandbox string) (*plan, error) {
	p := &plan{sandbox: sandbox, opens: map[int]target{}, paths: map[int]string{}, files: map[string]int64{}, name: s.Name, lines: map[int]int{}}
	n := 0
	for i := range s.Entries {
		e := &s.Entries[i]
		switch {
		case e.Call == Open:
			path := mirror(sandbox, e.Path)
			if !e.Quoted {
				// Numbered over all opens in file order, as Mobibench's global
				// open_num counts them (there in issue order, which varies).
				path = filepath.Join(sandbox, "temp_"+strconv.Itoa(e.TID)+"_"+strconv.Itoa(n)+".dat")
			}
			n++
			p.opens[i] = target{path: path, flags: openFlags(e)}
			p.lines[i] = e.Line
		case e.Call.hasPath():
			p.paths[i] = mirror(sandbox, e.Path)
		case e.Call.isData():
			if e.Ret > maxIOSize {
				return nil, fmt.Errorf("%s:%d: %s of %d bytes is larger than the %d the replay allows", s.Name, e.Line, e.Call, e.Ret, maxIOSize)
			}
		}
	}
	return p, p.prepass(s)
}

// prepass walks the script in time order, simulating which file each
// original fd refers to and where its position is, to find the files that
// must exist before the clock starts and how many bytes the later reads need
// in them. Mirrors exist if any call on them succeeded in the trace; those
// only ever seen failing are left absent so the calls fail again.
func (p *plan) prepass(s *Script) error {
	order := make([]int, len(s.Entries))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return s.Entries[order[a]].Time < s.Entries[order[b]].Time })
	type simFD struct {
		path string
		pos  int64
		fill bool // reads may be served from pre-created bytes
	}
	fds := map[int64]*simFD{}
	need := map[string]int64{}
	exist := map[string]bool{}
	for _, i := range order {
		e := &s.Entries[i]
		switch e.Call {
		case Open:
			t := p.opens[i]
			if e.Ret < 0 {
				continue
			}
			if e.Quoted {
				exist[t.path] = true
			}
			fds[e.Ret] = &simFD{path: t.path, fill: t.flags&unix.O_TRUNC == 0}
		case Access, Stat64, Lstat64, Unlink:
			if e.Ret >= 0 { // the call shows the path existed
				exist[p.paths[i]] = true
			}
		case Close:
			delete(fds, int64(e.FD))
		case Write, Read:
			f := fds[int64(e.FD)]
			if f == nil || e.Ret <= 0 {
				continue
			}
			if e.Call == Read && f.fill {
				need[f.path] = max(need[f.path], f.pos+e.Ret)
			}
			f.pos += e.Ret
		case Lseek:
			if f := fds[int64(e.FD)]; f != nil && e.Ret >= 0 {
				f.pos = e.Ret
			}
		case Pread:
			if f := fds[int64(e.FD)]; f != nil && f.fill && e.Ret > 0 && e.Offset >= 0 {
				need[f.path] = max(need[f.path], e.Offset+e.Ret)
			}
		}
	}
	var total int64
	for path, n := range need {
		total += n
		if total > maxPrefill || total < 0 {
			return fmt.Errorf("%s: the reads need %d+ bytes of pre-created data, more than the %d the replay allows", s.Name, total, maxPrefill)
		}
		p.files[path] = n
	}
	for path := range exist {
		if _, ok := p.files[path]; !ok {
			p.files[path] = 0
		}
	}
	// A path that is the parent of another must be a directory (the script
	// stats /data/app and opens /data/app/x.apk).
	dirs := map[string]bool{filepath.Join(p.sandbox, mirrorDir): true}
	for path := range p.files {
		if len(path) >= unix.PathMax {
			// The kernel refuses it anyway; walking its thousands of parents
			// would only cost quadratic time.
			delete(p.files, path)
			p.skipped = append(p.skipped, path)
			continue
		}
		for d := filepath.Dir(path); len(d) > len(p.sandbox) && !dirs[d]; d = filepath.Dir(d) {
			dirs[d] = true
		}
	}
	sort.Strings(p.skipped)
	for d := range dirs {
		delete(p.files, d)
		p.dirs = append(p.dirs, d)
	}
	sort.Strings(p.dirs) // parents sort before their children
	return nil
}

// create makes the sandbox and the files the plan needs, filled with filler
// bytes. Any previous sandbox is removed first: stale mirrors would make
// calls succeed that failed in the trace.
func (p *plan) create() error {
	if err := os.RemoveAll(p.sandbox); err != nil {
		return fmt.Errorf("remove old sandbox: %w", err)
	}
	if err := os.MkdirAll(p.sandbox, 0o755); err != nil {
		return fmt.Errorf("sandbox: %w", err)
	}
	for _, d := range p.dirs {
		if err := os.Mkdir(d, 0o755); err != nil && !os.IsExist(err) {
			if !badName(err) {
				return fmt.Errorf("sandbox: %w", err)
			}
			p.skipped = append(p.skipped, d)
		}
	}
	buf := make([]byte, 1<<20)
	for i := range buf {
		buf[i] = filler
	}
	names := make([]string, 0, len(p.files))
	for f := range p.files {
		names = append(names, f)
	}
	sort.Strings(names)
	for _, name := range names {
		if err := prefill(name, p.files[name], buf); err != nil {
			if !badName(err) {
				return fmt.Errorf("sandbox: %w", err)
			}
			p.skipped = append(p.skipped, name)
		}
	}
	return p.checkDirect()
}

// maxWarnings bounds the O_DIRECT warnings of one replay; the rest are
// counted in the last one.
const maxWarnings = 20

// checkDirect finds out, before the clock starts, whether the sandbox's
// filesystem accepts O_DIRECT (tmpfs before Linux 6.6, ramfs and some FUSE
// filesystems refuse it with EINVAL). If it does not, the script's O_DIRECT
// opens are replayed without it, each with a warning naming its line: the
// alternative, an open failing during the replay, would drop every later
// call on that file.
func (p *plan) checkDirect() error {
	var idx []int
	for i, t := range p.opens {
		if t.flags&unix.O_DIRECT != 0 {
			idx = append(idx, i)
		}
	}
	if len(idx) == 0 {
		return nil
	}
	probe := filepath.Join(p.sandbox, ".odirect-probe")
	fd, err := unix.Open(probe, unix.O_RDWR|unix.O_CREAT|unix.O_EXCL|unix.O_DIRECT|unix.O_CLOEXEC, 0o600)
	if err == nil {
		unix.Close(fd)
		return os.Remove(probe)
	}
	if !errors.Is(err, unix.EINVAL) {
		return fmt.Errorf("sandbox: O_DIRECT probe: %w", err)
	}
	os.Remove(probe) // some filesystems create the file before refusing the flag
	sort.Ints(idx)
	for n, i := range idx {
		t := p.opens[i]
		t.flags &^= unix.O_DIRECT
		p.opens[i] = t
		switch {
		case n < maxWarnings:
			p.warnings = append(p.warnings, fmt.Sprintf("%s:%d: the filesystem under %s refuses O_DIRECT (EINVAL); this open is replayed without it", p.name, p.lines[i], p.sandbox))
		case n == maxWarnings:
			p.warnings = append(p.warnings, fmt.Sprintf("%s: %d more O_DIRECT opens replayed without it", p.name, len(idx)-maxWarnings))
		}
	}
	return nil
}

// badName tells a script path the filesystem cannot hold (a NUL byte, a
// component too long, a file where a directory should be) from a real
// failure such as a full disk: the former only makes that path's calls fail
// during the replay, where they are counted.
func badName(err error) bool {
	for _, e := range []error{unix.EINVAL, unix.ENAMETOOLONG, unix.ENOTDIR, unix.EISDIR, unix.EEXIST, unix.ENOENT} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

func prefill(name string, size int64, buf []byte) error {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	for size > 0 {
		n := min(size, int64(len(buf)))
		if _, err := f.Write(buf[:n]); err != nil {
			f.Close()
			return err
		}
		size -= n
	}
	return f.Close()
}
