package fileio

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/droidprof/droidprof/storage/cpustat"
	"github.com/droidprof/droidprof/storage/harness"
	"github.com/droidprof/droidprof/storage/pagecache"
	"golang.org/x/sys/unix"
)

// Run prepares the files, runs the benchmark and returns its measurements.
// It checks c first (see Check) and fails before touching any file when the
// combination is not supported. The data files stay in c.Dir afterwards (as
// with Mobibench); RemoveFiles deletes them.
//
// Timing follows Mobibench: every thread opens and prepares its file (untimed
// prefill, mapping, buffer), then waits at a barrier; when all are ready the
// page cache is dropped if asked, the clock starts, /proc/stat is read, and
// all threads are released together. Each thread does its records and, for
// writes, the final fsync (msync of the whole mapping in mmap modes); the
// clock stops when the slowest thread is done.
//
// Each worker runs on its own locked OS thread. While Run is active the
// process's GOMAXPROCS is raised to at least Threads+1, so that threads
// coming back from blocking system calls never wait for a Go scheduler slot,
// as they would not with pthreads.
func Run(ctx context.Context, c Config) (*Result, error) {
	plan, err := Check(c)
	if err != nil {
		return nil, err
	}
	res := &Result{Config: c, Plan: plan}
	res.Config.Progress = nil
	if c.Overlap > 0 && !c.Access.Random() {
		res.Warnings = append(res.Warnings, fmt.Sprintf("overlap %d%% has no effect on access mode %d (%s): only random modes use the record order", c.Overlap, int(c.Access), c.Access))
	}
	var order []int64
	if c.Access.Random() {
		order = RecordOrder(plan.Records, c.Overlap)
	}

	defer harness.RaiseProcs(c.Threads + 1)()

	var (
		ready, done sync.WaitGroup
		start       = make(chan struct{})
		run         runState
	)
	workers := make([]*worker, c.Threads)
	for i := range workers {
		workers[i] = &worker{id: i, c: &c, plan: &plan, order: order, run: &run}
	}
	ready.Add(len(workers))
	done.Add(len(workers))
	for _, w := range workers {
		go func() {
			defer done.Done()
			w.main(&ready, start)
		}()
	}
	ready.Wait()
	var prepErrs []error
	for _, w := range workers {
		if w.err != nil {
			prepErrs = append(prepErrs, w.err)
		}
	}
	if len(prepErrs) > 0 {
		run.abort.Store(true)
		close(start)
		done.Wait()
		return nil, errors.Join(prepErrs...)
	}

	if c.DropCaches {
		if err := pagecache.Drop(); err != nil {
			res.Warnings = append(res.Warnings, "page cache NOT dropped, results include cached data: "+err.Error())
		} else {
			res.CachesDropped = true
		}
	}

	stopWatch := harness.Watch(ctx, &run.abort, func() (n int64) {
		for _, w := range workers {
			n += w.done.Load()
		}
		return n
	}, plan.Records*int64(c.Threads), c.Progress)
	run.base = time.Now()
	cpu0, cpuErr := cpustat.Read()
	close(start)
	done.Wait()
	cpu1, cpuErr1 := cpustat.Read()
	res.Elapsed = time.Since(run.base)
	stopWatch()
	res.Start = run.base

	var runErrs []error
	for _, w := range workers {
		// A failing thread stops the others; report the failure, not the
		// stops it caused.
		if w.err != nil && !errors.Is(w.err, context.Canceled) {
			runErrs = append(runErrs, w.err)
		}
		res.Threads = append(res.Threads, w.result)
	}
	if err := ctx.Err(); err != nil && run.abort.Load() {
		return nil, fmt.Errorf("benchmark interrupted: %w", err)
	}
	if len(runErrs) > 0 {
		return nil, errors.Join(runErrs...)
	}
	if err := errors.Join(cpuErr, cpuErr1); err != nil {
		res.Warnings = append(res.Warnings, "no CPU accounting: "+err.Error())
	} else {
		res.CPU = cpustat.Between(cpu0, cpu1)
	}
	for _, t := range res.Threads {
		res.Switches = res.Switches.Add(t.Switches)
		res.Faults = res.Faults.Add(t.Faults)
		res.IOs += t.IOs
	}
	res.Bytes = res.IOs * c.IOSize
	return res, nil
}

// runState is shared by the workers of one run.
type runState struct {
	base  time.Time   // the clock start; written before start is closed
	abort atomic.Bool // set on preparation failure or cancellation
}

// ThreadResult is what one worker measured.
type ThreadResult struct {
	File      string           `json:"file"`
	IOs       int64            `json:"ios"`
	Elapsed   time.Duration    `json:"elapsed_ns"`    // from the clock start to this thread's end
	FinalSync time.Duration    `json:"final_sync_ns"` // the closing fsync/msync
	Switches  cpustat.Switches `json:"ctx_switches"`
	Faults    cpustat.Faults   `json:"page_faults"`
	// Ends[i] is when I/O i completed, in ns since the clock start. The
	// latency of I/O i is Ends[i]-Ends[i-1] (Begin for i=0): the time from the
	// previous completion, which covers the lseek of random modes. Empty with
	// NoLatency.
	Ends  []int64 `json:"-"`
	Begin int64   `json:"-"` // when this thread started its first I/O, ns since the clock start
}

type worker struct {
	id     int
	c      *Config
	plan   *Plan
	order  []int64
	run    *runState
	err    error
	result ThreadResult

	fd    int
	mem   []byte // the mapping, in mmap modes
	buf   []byte // page-aligned I/O buffer
	alloc []byte // backing store of buf

	_    [64]byte // keep done on its own cache line
	done atomic.Int64
	_    [56]byte
}

func (w *worker) main(ready *sync.WaitGroup, start <-chan struct{}) {
	// The thread is never unlocked: when the goroutine ends, the thread ends
	// with it, and no later goroutine inherits its accounting.
	runtime.LockOSThread()
	w.fd = -1
	defer w.close()
	w.err = w.prepare()
	ready.Done()
	<-start
	if w.err != nil || w.run.abort.Load() {
		return
	}
	if err := w.loop(); err != nil {
		w.err = fmt.Errorf("thread %d (%s): %w", w.id, w.result.File, err)
		w.run.abort.Store(true)
	}
}

func (w *worker) prepare() error {
	c, p := w.c, w.plan
	path := FileName(c.Dir, w.id)
	w.result.File = path
	fail := func(err error) error { return fmt.Errorf("thread %d: prepare %s: %w", w.id, path, err) }
	if c.Access == Append {
		if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fail(err)
		}
	} else if err := Prefill(path, p.FileBytes); err != nil {
		return fail(err)
	}
	flags := unix.O_RDWR | unix.O_CREAT | unix.O_CLOEXEC
	switch c.Sync {
	case OSync:
		flags |= unix.O_SYNC
	case Direct:
		flags |= unix.O_DIRECT
	case SyncDirect:
		flags |= unix.O_SYNC | unix.O_DIRECT
	}
	fd, err := unix.Open(path, flags, 0o644)
	if err != nil {
		return fail(err)
	}
	w.fd = fd
	if c.Sync.Mapped() {
		if err := reserveFile(fd, p.FileBytes); err != nil {
			return fail(err)
		}
		if w.mem, err = unix.Mmap(fd, 0, int(p.FileBytes), unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED); err != nil {
			return fail(fmt.Errorf("mmap: %w", err))
		}
	}
	page := int64(os.Getpagesize())
	align := max(page, p.DirectAlign)
	w.alloc = make([]byte, c.IOSize+align)
	off := int64(0)
	if r := int64(uintptrOf(w.alloc)) % align; r != 0 {
		off = align - r
	}
	w.buf = w.alloc[off : off+c.IOSize]
	for i := range w.buf {
		w.buf[i] = FillByte
	}
	if !c.NoLatency {
		w.result.Ends = make([]int64, p.Records)
		for i := range w.result.Ends { // fault the pages in now, not during the run
			w.result.Ends[i] = -1
		}
	}
	return nil
}

// reserveFile gives the file of a mapped mode its length and its blocks
// before it is mapped. A new (append) file needs a length to be mapped
// (Mobibench writes its last record for that), and a store into a mapped
// page the filesystem cannot back — a hole on a full disk, also one left in
// a file of full length by an earlier run — raises SIGBUS, which kills a Go
// program with a runtime dump. fallocate instead fails here, untimed, with
// ENOSPC. Filesystems without fallocate get a sparse length, and
// mappedIO's fault handling reports a full disk.
var reserveFile = func(fd int, size int64) error {
	err := unix.Fallocate(fd, 0, 0, size)
	if errors.Is(err, unix.EOPNOTSUPP) || errors.Is(err, unix.ENOSYS) {
		return extendFile(fd, size)
	}
	if err != nil {
		return fmt.Errorf("reserve %d bytes for the mapping: %w", size, err)
	}
	return nil
}

// extendFile makes the file at least size bytes long, sparsely.
func extendFile(fd int, size int64) error {
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return err
	}
	if st.Size < size {
		if err := unix.Ftruncate(fd, size); err != nil {
			return fmt.Errorf("extend to %d bytes for the mapping: %w", size, err)
		}
	}
	return nil
}

func (w *worker) close() {
	if w.mem != nil {
		_ = unix.Munmap(w.mem)
		w.mem = nil
	}
	if w.fd >= 0 {
		_ = unix.Close(w.fd)
		w.fd = -1
	}
}

// loop is the timed part of one thread.
func (w *worker) loop() error {
	c, n := w.c, w.plan.Records
	base := w.run.base
	sw0, pf0, err := cpustat.ThreadUsage()
	if err != nil {
		return err
	}
	ends := w.result.Ends
	capture := !c.NoLatency
	w.result.Begin = int64(time.Since(base))
	var ioErr error
	switch {
	case c.Sync.Mapped():
		ioErr = w.mappedIO(n, ends, capture)
	default:
		ioErr = w.fileIO(n, ends, capture)
	}
	if ioErr != nil {
		return ioErr
	}
	if c.Access.Writes() {
		t := time.Now()
		if c.Sync.Mapped() {
			err = sysMsync(w.mem, unix.MS_SYNC)
		} else {
			err = sysFd(unix.SYS_FSYNC, w.fd)
		}
		if err != nil {
			return fmt.Errorf("final sync: %w", err)
		}
		w.result.FinalSync = time.Since(t)
	}
	w.result.Elapsed = time.Since(base)
	sw1, pf1, err := cpustat.ThreadUsage()
	if err != nil {
		return err
	}
	w.result.Switches = sw1.Sub(sw0)
	w.result.Faults = pf1.Sub(pf0)
	return nil
}

func (w *worker) stamp(b []byte, rec, seq int64) {
	binary.LittleEndian.PutUint64(b[0:8], uint64(rec))
	binary.LittleEndian.PutUint64(b[8:16], uint64(seq))
}

func (w *worker) fileIO(n int64, ends []int64, capture bool) error {
	c, fd, buf := w.c, w.fd, w.buf
	random, writes := c.Access.Random(), c.Access.Writes()
	stamp := c.Stamp && writes && len(buf) >= 16
	barrier := c.Sync.barrierSyscall()
	base := w.run.base
	for i := int64(0); i < n; i++ {
		if w.run.abort.Load() {
			return context.Canceled
		}
		rec := i
		if random {
			rec = w.order[i]
			if err := sysSeek(fd, rec*c.IOSize); err != nil {
				return fmt.Errorf("lseek to record %d: %w", rec, err)
			}
		}
		if writes {
			if stamp {
				w.stamp(buf, rec, i)
			}
			m, err := sysWrite(fd, buf)
			if err != nil {
				return fmt.Errorf("write record %d: %w", rec, err)
			}
			if m != len(buf) {
				return fmt.Errorf("write record %d: short write of %d of %d bytes", rec, m, len(buf))
			}
			switch c.Sync {
			case Fsync:
				err = sysFd(unix.SYS_FSYNC, fd)
			case Fdatasync:
				err = sysFd(unix.SYS_FDATASYNC, fd)
			case Fbarrier, Fdatabarrier:
				err = sysFd(barrier, fd)
			}
			if err != nil {
				return fmt.Errorf("sync after record %d: %w", rec, err)
			}
		} else {
			m, err := sysRead(fd, buf)
			if err != nil {
				return fmt.Errorf("read record %d: %w", rec, err)
			}
			if m <= 0 {
				return fmt.Errorf("read record %d: unexpected end of file", rec)
			}
		}
		if capture {
			ends[i] = int64(time.Since(base))
		}
		w.done.Add(1)
		w.result.IOs++
	}
	return nil
}

func (w *worker) mappedIO(n int64, ends []int64, capture bool) (err error) {
	c, mem, buf := w.c, w.mem, w.buf
	random, writes := c.Access.Random(), c.Access.Writes()
	stamp := c.Stamp && writes && len(buf) >= 16
	size := c.IOSize
	page := int64(os.Getpagesize())
	base := w.run.base
	// A page the kernel cannot provide (no space for it, a read error, the
	// file truncated by someone else) faults with SIGBUS; this thread's
	// error is better than the whole process dying.
	var rec int64
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			f, ok := r.(interface{ Addr() uintptr })
			if !ok {
				panic(r)
			}
			err = w.mappingFault(rec, f.Addr())
		}
	}()
	for i := int64(0); i < n; i++ {
		if w.run.abort.Load() {
			return context.Canceled
		}
		rec = i
		if random {
			rec = w.order[i]
		}
		record := mem[rec*size : rec*size+size]
		// msync needs a page-aligned start: sync the pages the record covers.
		pages := mem[rec*size&^(page-1) : rec*size+size]
		if writes {
			if stamp {
				w.stamp(buf, rec, i)
			}
			copy(record, buf)
			switch c.Sync {
			case MmapAsync:
				err = sysMsync(pages, unix.MS_ASYNC)
			case MmapSync:
				err = sysMsync(pages, unix.MS_SYNC)
			}
			if err != nil {
				return fmt.Errorf("msync record %d: %w", rec, err)
			}
		} else {
			copy(buf, record)
		}
		if capture {
			ends[i] = int64(time.Since(base))
		}
		w.done.Add(1)
		w.result.IOs++
	}
	return nil
}

// mappingFault describes a fault on the mapping while accessing record rec:
// a full filesystem as ENOSPC, anything else as a bus error.
func (w *worker) mappingFault(rec int64, addr uintptr) error {
	what := "read"
	if w.c.Access.Writes() {
		what = "write"
	}
	off := int64(addr) - int64(uintptrOf(w.mem))
	var fs unix.Statfs_t
	if err := unix.Fstatfs(w.fd, &fs); err == nil && int64(fs.Bavail)*int64(fs.Bsize) < int64(os.Getpagesize()) {
		return fmt.Errorf("%s record %d: the filesystem has no block left for the mapped page at offset %d: %w", what, rec, off, unix.ENOSPC)
	}
	return fmt.Errorf("%s record %d: bus error on the mapped page at offset %d (the file shrank, or its page could not be read)", what, rec, off)
}
