package runtime

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"syscall"
	"unicode"
)

// files is the VM's table of open files, behind java.io's descriptors
// (FileDescriptor.fd): 0-2 are the standard streams, which are not in it.
// Files still open when the VM stops are closed then, and the paths
// File.deleteOnExit named are removed, so a program leaves nothing behind.
type files struct {
	mu           sync.Mutex
	open         map[int32]*os.File
	next         int32
	deleteOnExit []string
}

// closeAll closes every open file and deletes the deleteOnExit paths, last
// registered first (as the Java platform does).
func (fs *files) closeAll() {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	for fd, f := range fs.open {
		f.Close()
		delete(fs.open, fd)
	}
	for i := len(fs.deleteOnExit) - 1; i >= 0; i-- {
		os.Remove(fs.deleteOnExit[i])
	}
	fs.deleteOnExit = nil
}

func (fs *files) add(f *os.File) int32 {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	if fs.open == nil {
		fs.open, fs.next = map[int32]*os.File{}, 3
	}
	fd := fs.next
	fs.next++
	fs.open[fd] = f
	return fd
}

func (fs *files) get(fd int32) *os.File {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	return fs.open[fd]
}

func (fs *files) remove(fd int32) *os.File {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	f := fs.open[fd]
	delete(fs.open, fd)
	return f
}

// errnoNames are the errno names Android's libcore puts in I/O messages.
var errnoNames = map[syscall.Errno]string{
	syscall.ENOENT: "ENOENT", syscall.EACCES: "EACCES", syscall.EEXIST: "EEXIST",
	syscall.EISDIR: "EISDIR", syscall.ENOTDIR: "ENOTDIR", syscall.ENOSPC: "ENOSPC",
	syscall.EROFS: "EROFS", syscall.EBADF: "EBADF", syscall.EINVAL: "EINVAL",
	syscall.ENOTEMPTY: "ENOTEMPTY", syscall.EPERM: "EPERM", syscall.EMFILE: "EMFILE",
}

// ioMessage renders err as libcore's ErrnoException does: "open failed:
// ENOENT (No such file or directory)".
func ioMessage(op string, err error) string {
	var errno syscall.Errno
	if !errors.As(err, &errno) {
		return op + " failed: " + err.Error()
	}
	name := errnoNames[errno]
	if name == "" {
		name = "errno " + errno.Error()
	}
	text := []rune(errno.Error())
	text[0] = unicode.ToUpper(text[0])
	return op + " failed: " + name + " (" + string(text) + ")"
}

// registerFileNatives adds java.io.VMFiles, the file system calls behind
// File, FileInputStream, FileOutputStream, RandomAccessFile and
// FileChannel.
func registerFileNatives(vm *VM) {
	n := vm.natives
	reg := func(name string, f NativeFunc) { n["Ljava/io/VMFiles;->"+name] = f }
	str := func(t *Thread, a uint32) (string, bool) {
		if a == 0 {
			t.ThrowNPE("")
			return "", false
		}
		return vm.GoString(a), true
	}
	// bytes checks an array region and returns its memory.
	bytes := func(t *Thread, arr uint32, off, cnt int32) ([]byte, bool) {
		if arr == 0 {
			t.ThrowNPE("")
			return nil, false
		}
		if n := vm.ArrayLength(arr); off < 0 || cnt < 0 || off > n-cnt {
			t.ThrowNew("Ljava/lang/ArrayIndexOutOfBoundsException;", "")
			return nil, false
		}
		return vm.Heap.Bytes(arr+12+uint32(off), uint32(cnt)), true
	}
	file := func(t *Thread, fd int32) *os.File {
		f := vm.files.get(fd)
		if f == nil {
			t.ThrowNew("Ljava/io/IOException;", ioMessage("access", syscall.EBADF))
		}
		return f
	}
	// transfer decodes the (fd, byte[], off, len) arguments of the
	// read and write natives.
	transfer := func(t *Thread, a []uint32) (*os.File, []byte, bool) {
		f := file(t, int32(a[0]))
		if f == nil {
			return nil, nil, false
		}
		b, ok := bytes(t, a[1], int32(a[2]), int32(a[3]))
		return f, b, ok
	}

	// stat(path) returns 0 (missing), 1 (file), 2 (directory), 3 (other).
	reg("stat(Ljava/lang/String;)I", func(t *Thread, a []uint32) {
		p, ok := str(t, a[0])
		if !ok {
			return
		}
		t.Ret = 0
		if st, err := os.Stat(p); err == nil {
			switch {
			case st.Mode().IsRegular():
				t.Ret = 1
			case st.IsDir():
				t.Ret = 2
			default:
				t.Ret = 3
			}
		}
	})
	reg("length(Ljava/lang/String;)J", func(t *Thread, a []uint32) {
		if p, ok := str(t, a[0]); ok {
			t.Ret = 0
			if st, err := os.Stat(p); err == nil {
				t.Ret = uint64(st.Size())
			}
		}
	})
	reg("lastModified(Ljava/lang/String;)J", func(t *Thread, a []uint32) {
		if p, ok := str(t, a[0]); ok {
			t.Ret = 0
			if st, err := os.Stat(p); err == nil {
				t.Ret = uint64(st.ModTime().UnixMilli())
			}
		}
	})
	reg("access(Ljava/lang/String;I)Z", func(t *Thread, a []uint32) {
		if p, ok := str(t, a[0]); ok {
			t.Ret = succeeded(syscall.Access(p, a[1]))
		}
	})
	reg("delete(Ljava/lang/String;)Z", func(t *Thread, a []uint32) {
		if p, ok := str(t, a[0]); ok {
			t.Ret = succeeded(os.Remove(p))
		}
	})
	reg("deleteOnExit(Ljava/lang/String;)V", func(t *Thread, a []uint32) {
		if p, ok := str(t, a[0]); ok {
			vm.files.mu.Lock()
			vm.files.deleteOnExit = append(vm.files.deleteOnExit, p)
			vm.files.mu.Unlock()
		}
	})
	reg("mkdir(Ljava/lang/String;)Z", func(t *Thread, a []uint32) {
		if p, ok := str(t, a[0]); ok {
			t.Ret = succeeded(os.Mkdir(p, 0o777))
		}
	})
	reg("rename(Ljava/lang/String;Ljava/lang/String;)Z", func(t *Thread, a []uint32) {
		from, ok1 := str(t, a[0])
		if !ok1 {
			return
		}
		if to, ok := str(t, a[1]); ok {
			t.Ret = succeeded(os.Rename(from, to))
		}
	})
	reg("createNew(Ljava/lang/String;)Z", func(t *Thread, a []uint32) {
		p, ok := str(t, a[0])
		if !ok {
			return
		}
		f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		switch {
		case err == nil:
			f.Close()
			t.Ret = 1
		case errors.Is(err, fs.ErrExist):
			t.Ret = 0
		default:
			t.ThrowNew("Ljava/io/IOException;", ioMessage("open", err))
		}
	})
	reg("list(Ljava/lang/String;)[Ljava/lang/String;", func(t *Thread, a []uint32) {
		p, ok := str(t, a[0])
		if !ok {
			return
		}
		t.Ret = 0
		d, err := os.Open(p)
		if err != nil {
			return
		}
		names, err := d.Readdirnames(-1)
		d.Close()
		if err != nil {
			return
		}
		sort.Strings(names)
		t.Ret = uint64(t.newStringArray(names))
	})
	reg("canonicalize(Ljava/lang/String;)Ljava/lang/String;", func(t *Thread, a []uint32) {
		p, ok := str(t, a[0])
		if !ok {
			return
		}
		// Resolve the longest existing prefix's links; the rest is
		// cleaned lexically, as libcore's realpath does.
		rest := ""
		for q := filepath.Clean(p); ; q = filepath.Dir(q) {
			if r, err := filepath.EvalSymlinks(q); err == nil {
				p = filepath.Join(r, rest)
				break
			}
			if q == "/" || q == "." {
				p = filepath.Clean(p)
				break
			}
			rest = filepath.Join(filepath.Base(q), rest)
		}
		t.Ret = uint64(t.NewString(p))
	})

	// open(path, mode): mode 0 read, 1 write (truncate), 2 append, 3
	// read-write ("rw"), or a FileNotFoundException in libcore's words.
	reg("open(Ljava/lang/String;I)I", func(t *Thread, a []uint32) {
		p, ok := str(t, a[0])
		if !ok {
			return
		}
		flags := [...]int{os.O_RDONLY, os.O_WRONLY | os.O_CREATE | os.O_TRUNC, os.O_WRONLY | os.O_CREATE | os.O_APPEND, os.O_RDWR | os.O_CREATE}[a[1]&3]
		f, err := os.OpenFile(p, flags, 0o666)
		if err == nil && flags == os.O_RDONLY {
			// Reading a directory fails at open on Android (EISDIR).
			if st, serr := f.Stat(); serr == nil && st.IsDir() {
				f.Close()
				err = &fs.PathError{Op: "open", Path: p, Err: syscall.EISDIR}
			}
		}
		if err != nil {
			t.ThrowNew("Ljava/io/FileNotFoundException;", p+": "+ioMessage("open", err))
			return
		}
		t.Ret = uint64(uint32(vm.files.add(f)))
	})
	reg("close(I)V", func(t *Thread, a []uint32) {
		if f := vm.files.remove(int32(a[0])); f != nil {
			f.Close()
		}
	})
	// read returns the byte count, or -1 at the end of the file.
	reg("read(I[BII)I", func(t *Thread, a []uint32) {
		f, b, ok := transfer(t, a)
		if !ok {
			return
		}
		if len(b) == 0 {
			t.Ret = 0
			return
		}
		k, err := f.Read(b)
		switch {
		case k > 0:
			t.Ret = uint64(uint32(k))
		case err == io.EOF || err == nil:
			t.Ret = uint64(0xffffffff)
		default:
			t.ThrowNew("Ljava/io/IOException;", ioMessage("read", err))
		}
	})
	reg("write(I[BII)V", func(t *Thread, a []uint32) {
		if f, b, ok := transfer(t, a); ok {
			if _, err := f.Write(b); err != nil {
				t.ThrowNew("Ljava/io/IOException;", ioMessage("write", err))
			}
		}
	})
	// pwrite writes at an offset without moving the file pointer (a
	// MappedByteBuffer's stores go through it).
	reg("pwrite(I[BIIJ)V", func(t *Thread, a []uint32) {
		if f, b, ok := transfer(t, a); ok {
			if _, err := f.WriteAt(b, long(a, 4)); err != nil {
				t.ThrowNew("Ljava/io/IOException;", ioMessage("pwrite", err))
			}
		}
	})
	reg("pread(I[BIIJ)I", func(t *Thread, a []uint32) {
		f, b, ok := transfer(t, a)
		if !ok {
			return
		}
		k, err := f.ReadAt(b, long(a, 4))
		if err != nil && err != io.EOF {
			t.ThrowNew("Ljava/io/IOException;", ioMessage("pread", err))
			return
		}
		t.Ret = uint64(uint32(k))
	})
	// seek(fd, offset, whence) returns the new offset.
	reg("seek(IJI)J", func(t *Thread, a []uint32) {
		f := file(t, int32(a[0]))
		if f == nil {
			return
		}
		off, err := f.Seek(long(a, 1), int(a[3]))
		if err != nil {
			t.ThrowNew("Ljava/io/IOException;", ioMessage("lseek", err))
			return
		}
		t.Ret = uint64(off)
	})
	reg("size(I)J", func(t *Thread, a []uint32) {
		f := file(t, int32(a[0]))
		if f == nil {
			return
		}
		st, err := f.Stat()
		if err != nil {
			t.ThrowNew("Ljava/io/IOException;", ioMessage("fstat", err))
			return
		}
		t.Ret = uint64(st.Size())
	})
	reg("truncate(IJ)V", func(t *Thread, a []uint32) {
		f := file(t, int32(a[0]))
		if f == nil {
			return
		}
		if err := f.Truncate(long(a, 1)); err != nil {
			t.ThrowNew("Ljava/io/IOException;", ioMessage("ftruncate", err))
		}
	})
	reg("dup(I)I", func(t *Thread, a []uint32) {
		f := file(t, int32(a[0]))
		if f == nil {
			return
		}
		d, err := syscall.Dup(int(f.Fd()))
		if err != nil {
			t.ThrowNew("Ljava/io/IOException;", ioMessage("dup", err))
			return
		}
		t.Ret = uint64(uint32(vm.files.add(os.NewFile(uintptr(d), f.Name()))))
	})
	reg("sync(I)V", func(t *Thread, a []uint32) {
		if f := file(t, int32(a[0])); f != nil {
			if err := f.Sync(); err != nil {
				t.ThrowNew("Ljava/io/SyncFailedException;", ioMessage("fsync", err))
			}
		}
	})
}

// succeeded is a native's boolean result for err.
func succeeded(err error) uint64 {
	if err != nil {
		return 0
	}
	return 1
}
