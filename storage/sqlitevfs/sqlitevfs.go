// Package sqlitevfs registers the SQLite VFS that syncs the way Android's
// SQLite does.
//
// SQLite's unix VFS syncs a file with fsync(2) unless it is compiled with
// HAVE_FDATASYNC or -Dfdatasync=fdatasync. Android's platform SQLite (the
// one every app's database goes through) and distributions' libsqlite3 (the
// sqlite3 shell) are built that way; modernc.org/sqlite, like Mobibench's
// own static build, is not. fsync also writes the inode's new mtime, which
// on ext4 costs a journal commit per sync, so the choice moves fsync-bound
// SQLite cells by 20–35 % (plugins/mobibench/BENCHMARKS.md).
//
// The VFS registered here is SQLite's own unix VFS in every respect but
// one: where os_unix.c would call fsync — syncing a file, the directory of
// a journal just created, the directory of a master journal just deleted —
// it calls fdatasync, as os_unix.c built with fdatasync does. Each file it
// opens gets a copy of the unix I/O methods with its own xSync.
package sqlitevfs

import (
	"fmt"
	"path/filepath"
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"
	"modernc.org/libc"
	sqlite3 "modernc.org/sqlite/lib"
)

// Fdatasync is the name of the VFS whose syncs are fdatasync(2); open a
// database with it through the DSN "FILE?vfs=" + Fdatasync.
const Fdatasync = "droidprof-fdatasync"

var (
	registerOnce sync.Once
	registerErr  error

	// base is the unix VFS everything but the sync is delegated to.
	base *sqlite3.Tsqlite3_vfs

	// methods maps each set of I/O methods the unix VFS hands out to our
	// copy of it; both live in C memory for the life of the process.
	mu      sync.Mutex
	methods = map[uintptr]uintptr{}
)

// Register registers the Fdatasync VFS with the SQLite engine (once per
// process; later calls return the first call's result).
func Register() error {
	registerOnce.Do(func() { registerErr = register() })
	return registerErr
}

func register() error {
	tls := libc.NewTLS()
	defer tls.Close()
	name, err := libc.CString("unix")
	if err != nil {
		return err
	}
	defer libc.Xfree(tls, name)
	p := sqlite3.Xsqlite3_vfs_find(tls, name)
	if p == 0 {
		return fmt.Errorf("sqlitevfs: the SQLite engine has no unix VFS")
	}
	base = cPtr[sqlite3.Tsqlite3_vfs](p)

	v := cAlloc[sqlite3.Tsqlite3_vfs](tls)
	*v = *base
	v.FpNext = 0
	if v.FzName, err = libc.CString(Fdatasync); err != nil {
		return err
	}
	v.FxOpen = funcPtr(xOpen)
	v.FxDelete = funcPtr(xDelete)
	if rc := sqlite3.Xsqlite3_vfs_register(tls, uintptr(unsafe.Pointer(v)), 0); rc != sqlite3.SQLITE_OK {
		return fmt.Errorf("sqlitevfs: registering %s: SQLite error %d", Fdatasync, rc)
	}
	return nil
}

// cAlloc allocates a zeroed T in C memory, where the engine keeps its VFS
// and method tables; it is never freed, as registered VFSs live as long as
// the process.
func cAlloc[T any](tls *libc.TLS) *T {
	var zero T
	p := libc.Xcalloc(tls, 1, libc.Tsize_t(unsafe.Sizeof(zero)))
	if p == 0 {
		panic("sqlitevfs: out of C memory")
	}
	return cPtr[T](p)
}

// cPtr turns an address in C memory, which Go's collector neither scans
// nor moves, into a typed pointer.
func cPtr[T any](p uintptr) *T { return *(**T)(unsafe.Pointer(&p)) }

// funcPtr is how the translated C holds a function pointer: the pointer to
// the Go func value. Only top-level functions are passed, whose func values
// are static and never move.
func funcPtr(f any) uintptr {
	return (*[2]uintptr)(unsafe.Pointer(&f))[1]
}

// xOpen opens the file with the unix VFS, then swaps in the I/O methods
// whose xSync is ours.
func xOpen(tls *libc.TLS, pVfs, zName, pFile uintptr, flags int32, pOutFlags uintptr) int32 {
	open := *(*func(*libc.TLS, uintptr, uintptr, uintptr, int32, uintptr) int32)(unsafe.Pointer(&base.FxOpen))
	rc := open(tls, pVfs, zName, pFile, flags, pOutFlags)
	f := cPtr[sqlite3.Tsqlite3_file](pFile)
	if rc == sqlite3.SQLITE_OK && f.FpMethods != 0 {
		f.FpMethods = wrap(tls, f.FpMethods)
	}
	return rc
}

func wrap(tls *libc.TLS, orig uintptr) uintptr {
	mu.Lock()
	defer mu.Unlock()
	if w, ok := methods[orig]; ok {
		return w
	}
	m := cAlloc[sqlite3.Tsqlite3_io_methods](tls)
	*m = *cPtr[sqlite3.Tsqlite3_io_methods](orig)
	m.FxSync = funcPtr(xSync)
	w := uintptr(unsafe.Pointer(m))
	methods[orig] = w
	return w
}

// xDelete unlinks with the unix VFS and then, when asked, syncs the
// directory with fdatasync, as unixDelete built with fdatasync does
// (SQLite deletes a master journal so).
func xDelete(tls *libc.TLS, pVfs, zPath uintptr, dirSync int32) int32 {
	del := *(*func(*libc.TLS, uintptr, uintptr, int32) int32)(unsafe.Pointer(&base.FxDelete))
	if rc := del(tls, pVfs, zPath, 0); rc != sqlite3.SQLITE_OK || dirSync&1 == 0 {
		return rc
	}
	if syncDir(libc.GoString(zPath)) != nil {
		return sqlite3.SQLITE_IOERR_DIR_FSYNC
	}
	return sqlite3.SQLITE_OK
}

// syncDir fdatasyncs the directory of file. A directory that cannot be
// opened is no error, as in os_unix.c; a failing sync is returned.
func syncDir(file string) error {
	fd, err := unix.Open(filepath.Dir(file), unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil
	}
	defer unix.Close(fd)
	return unix.Fdatasync(fd)
}

// xSync is os_unix.c's unixSync built with fdatasync: sync the file's data,
// and if it was just created as a journal (DIRSYNC), its directory too,
// ignoring a directory that cannot be opened or synced, as SQLite does.
func xSync(tls *libc.TLS, id uintptr, flags int32) int32 {
	f := cPtr[sqlite3.TunixFile](id)
	if err := unix.Fdatasync(int(f.Fh)); err != nil {
		if errno, ok := err.(unix.Errno); ok {
			f.FlastErrno = int32(errno)
		}
		return sqlite3.SQLITE_IOERR_FSYNC
	}
	if f.FctrlFlags&sqlite3.UNIXFILE_DIRSYNC != 0 {
		syncDir(libc.GoString(f.FzPath)) // errors ignored, as unixSync does
		f.FctrlFlags &^= sqlite3.UNIXFILE_DIRSYNC
	}
	return sqlite3.SQLITE_OK
}
