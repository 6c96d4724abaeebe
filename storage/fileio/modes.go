// Package fileio is the file I/O engine of Mobibench's shell version,
// rebuilt in Go on the real Linux storage stack: five access modes (write,
// random write, read, random read, append), eleven sync modes (buffered,
// O_SYNC, fsync, O_DIRECT, O_SYNC|O_DIRECT, three mmap variants, fdatasync and
// the BarrierFS calls), 1–100 threads with a file per thread, Mobibench's
// deterministic random record order, untimed prefill, the final sync inside
// the timed region, optional page-cache drop, CPU and context-switch
// accounting, and per-I/O latency capture.
//
// I/O goes through lseek(2)+write(2)/read(2), not pwrite/pread, because that
// is what Mobibench and fio's ioengine=sync issue: the system calls are the
// same, call for call, so the three can be compared and strace-checked.
// Sequential modes never seek (the file position advances by itself);
// random modes seek before every record, as Mobibench does.
//
// The mmap modes reserve the file's blocks with fallocate(2) before mapping
// it (Mobibench extends an append file sparsely): on a full disk the run
// fails untimed with "no space left on device" rather than dying of SIGBUS
// on the first store the filesystem cannot back.
package fileio

import "fmt"

// Access is Mobibench's access mode (-a).
type Access int

// Access modes, numbered as Mobibench numbers them.
const (
	Write     Access = 0 // sequential overwrite of a pre-filled file
	RandWrite Access = 1 // random overwrite, every record exactly once
	Read      Access = 2 // sequential read of a pre-filled file
	RandRead  Access = 3 // random read, every record exactly once
	Append    Access = 4 // unlink, then sequential writes into a new file
)

var accessNames = [...]string{"write", "randwrite", "read", "randread", "append"}

// String returns the short name of a (write, randwrite, read, randread, append).
func (a Access) String() string {
	if a.Valid() {
		return accessNames[a]
	}
	return fmt.Sprintf("access(%d)", int(a))
}

// Valid reports whether a is one of the five modes.
func (a Access) Valid() bool { return a >= Write && a <= Append }

// Random reports whether a visits records in the random order.
func (a Access) Random() bool { return a == RandWrite || a == RandRead }

// Writes reports whether a writes.
func (a Access) Writes() bool { return a == Write || a == RandWrite || a == Append }

// Sync is Mobibench's sync mode (-y).
type Sync int

// Sync modes, numbered as Mobibench numbers them.
const (
	Buffered     Sync = 0  // plain write(2)
	OSync        Sync = 1  // open with O_SYNC
	Fsync        Sync = 2  // fsync(2) after every write
	Direct       Sync = 3  // open with O_DIRECT, page-aligned buffer
	SyncDirect   Sync = 4  // O_SYNC|O_DIRECT
	Mmap         Sync = 5  // memcpy into a MAP_SHARED mapping
	MmapAsync    Sync = 6  // mmap + msync(record, MS_ASYNC) per record
	MmapSync     Sync = 7  // mmap + msync(record, MS_SYNC) per record
	Fdatasync    Sync = 8  // fdatasync(2) after every write
	Fbarrier     Sync = 9  // fbarrier(2), syscall 548: BarrierFS kernels only
	Fdatabarrier Sync = 10 // fdatabarrier(2), syscall 549: BarrierFS kernels only
)

var syncNames = [...]string{"buffered", "O_SYNC", "fsync", "O_DIRECT", "O_SYNC|O_DIRECT", "mmap", "mmap+MS_ASYNC", "mmap+MS_SYNC", "fdatasync", "fbarrier", "fdatabarrier"}

// String returns a readable name of s, e.g. "O_DIRECT".
func (s Sync) String() string {
	if s.Valid() {
		return syncNames[s]
	}
	return fmt.Sprintf("sync(%d)", int(s))
}

// Valid reports whether s is one of the eleven modes.
func (s Sync) Valid() bool { return s >= Buffered && s <= Fdatabarrier }

// Mapped reports whether s does its I/O through a memory mapping.
func (s Sync) Mapped() bool { return s == Mmap || s == MmapAsync || s == MmapSync }

// DirectIO reports whether s opens the file with O_DIRECT.
func (s Sync) DirectIO() bool { return s == Direct || s == SyncDirect }

// barrierSyscall returns the BarrierFS system call number of s, or 0.
func (s Sync) barrierSyscall() uintptr {
	switch s {
	case Fbarrier:
		return 548
	case Fdatabarrier:
		return 549
	}
	return 0
}
