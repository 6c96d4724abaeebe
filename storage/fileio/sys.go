package fileio

import (
	"os"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The timed loop issues its system calls raw (RawSyscall, no entersyscall /
// exitsyscall): the worker's OS thread simply blocks in the kernel, as a
// pthread in Mobibench does, instead of going through the Go scheduler's
// syscall hand-off, in which a blocking call can lose its P to sysmon and
// must win one back (futex wake-ups, extra context switches) before the next
// I/O. Run raises GOMAXPROCS above the worker count, so a worker blocked in
// the kernel never starves the rest of the process; a garbage collection
// that starts meanwhile waits for the call to return (the loop allocates
// nothing, so none is triggered by it). rawSyscalls=false switches back to
// the ordinary wrappers, for comparison.
var rawSyscalls = os.Getenv("DROIDPROF_FILEIO_GO_SYSCALLS") != "1"

func errnoErr(e unix.Errno) error {
	if e == 0 {
		return nil
	}
	return e
}

func sysWrite(fd int, b []byte) (int, error) {
	if !rawSyscalls {
		return unix.Write(fd, b)
	}
	n, _, e := unix.RawSyscall(unix.SYS_WRITE, uintptr(fd), uintptr(unsafe.Pointer(unsafe.SliceData(b))), uintptr(len(b)))
	return int(n), errnoErr(e)
}

func sysRead(fd int, b []byte) (int, error) {
	if !rawSyscalls {
		return unix.Read(fd, b)
	}
	n, _, e := unix.RawSyscall(unix.SYS_READ, uintptr(fd), uintptr(unsafe.Pointer(unsafe.SliceData(b))), uintptr(len(b)))
	return int(n), errnoErr(e)
}

func sysSeek(fd int, off int64) error {
	if !rawSyscalls {
		_, err := unix.Seek(fd, off, 0)
		return err
	}
	_, _, e := unix.RawSyscall(unix.SYS_LSEEK, uintptr(fd), uintptr(off), 0)
	return errnoErr(e)
}

// sysFd calls a one-argument fd system call: fsync, fdatasync, or the
// BarrierFS calls.
func sysFd(nr uintptr, fd int) error {
	if !rawSyscalls {
		_, _, e := unix.Syscall(nr, uintptr(fd), 0, 0)
		return errnoErr(e)
	}
	_, _, e := unix.RawSyscall(nr, uintptr(fd), 0, 0)
	return errnoErr(e)
}

func sysMsync(b []byte, flags int) error {
	if !rawSyscalls {
		return unix.Msync(b, flags)
	}
	_, _, e := unix.RawSyscall(unix.SYS_MSYNC, uintptr(unsafe.Pointer(unsafe.SliceData(b))), uintptr(len(b)), uintptr(flags))
	return errnoErr(e)
}

// uintptrOf returns the address of b's first byte, for alignment.
func uintptrOf(b []byte) uintptr { return uintptr(unsafe.Pointer(unsafe.SliceData(b))) }
