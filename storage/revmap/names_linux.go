package revmap

import (
	"encoding/binary"
	"errors"
	"fmt"
	"sync"

	"golang.org/x/sys/unix"
)

// NameEvent is a name created, removed or moved in the watched filesystem.
type NameEvent struct {
	Time  int64  // CLOCK_MONOTONIC nanoseconds when droidprof read it (trace_clock "mono")
	Op    string // create, delete, moved_from, moved_to
	Ino   uint32 // the inode the name refers to
	Dir   uint32 // the directory holding the name
	Name  string
	Pid   int
	IsDir bool // the name is a directory's
}

// Watcher records every name created, deleted or moved on one filesystem
// with fanotify (a filesystem mark reporting directory, name and target
// file handles; Linux 5.17+, root). With it the trace's inode numbers get
// names even for files deleted before the trace ends, on a stock kernel.
type Watcher struct {
	fd           int
	wakeR, wakeW int
	done         chan struct{}
	mu           sync.Mutex
	events       []NameEvent
	overflow     bool
	err          error
	stop         sync.Once
}

// Watch starts watching the filesystem that dir is on.
func Watch(dir string) (*Watcher, error) {
	fd, err := unix.FanotifyInit(unix.FAN_CLASS_NOTIF|unix.FAN_CLOEXEC|unix.FAN_NONBLOCK|unix.FAN_REPORT_DFID_NAME|unix.FAN_REPORT_FID|unix.FAN_REPORT_TARGET_FID, unix.O_RDONLY)
	if err != nil {
		return nil, fmt.Errorf("fanotify: init (needs root and Linux 5.17+): %w", err)
	}
	mask := uint64(unix.FAN_CREATE | unix.FAN_DELETE | unix.FAN_MOVED_FROM | unix.FAN_MOVED_TO | unix.FAN_ONDIR)
	if err := unix.FanotifyMark(fd, unix.FAN_MARK_ADD|unix.FAN_MARK_FILESYSTEM, mask, unix.AT_FDCWD, dir); err != nil {
		unix.Close(fd)
		return nil, fmt.Errorf("fanotify: mark the filesystem of %s: %w", dir, err)
	}
	var p [2]int
	if err := unix.Pipe2(p[:], unix.O_NONBLOCK|unix.O_CLOEXEC); err != nil {
		unix.Close(fd)
		return nil, fmt.Errorf("fanotify: wake pipe: %w", err)
	}
	w := &Watcher{fd: fd, wakeR: p[0], wakeW: p[1], done: make(chan struct{})}
	go w.run()
	return w, nil
}

func (w *Watcher) run() {
	defer close(w.done)
	buf := make([]byte, 1<<16)
	stopping := false
	for {
		if !stopping {
			fds := []unix.PollFd{{Fd: int32(w.fd), Events: unix.POLLIN}, {Fd: int32(w.wakeR), Events: unix.POLLIN}}
			if _, err := unix.Poll(fds, -1); err != nil {
				if errors.Is(err, unix.EINTR) {
					continue
				}
				w.fail(fmt.Errorf("fanotify: poll: %w", err))
				return
			}
			stopping = fds[1].Revents != 0
		}
		n, err := unix.Read(w.fd, buf)
		if n > 0 {
			var ts unix.Timespec
			_ = unix.ClockGettime(unix.CLOCK_MONOTONIC, &ts)
			evs, overflow, perr := parseFanotify(buf[:n], ts.Nano())
			w.mu.Lock()
			w.events = append(w.events, evs...)
			w.overflow = w.overflow || overflow
			w.mu.Unlock()
			if perr != nil {
				w.fail(perr)
				return
			}
			continue
		}
		if err != nil && !errors.Is(err, unix.EAGAIN) && !errors.Is(err, unix.EINTR) {
			w.fail(fmt.Errorf("fanotify: read: %w", err))
			return
		}
		if stopping {
			return
		}
	}
}

func (w *Watcher) fail(err error) {
	w.mu.Lock()
	w.err = err
	w.mu.Unlock()
}

// Stop ends the watch and returns what it saw. An event queue overflow
// (names lost) is an error, never silent.
func (w *Watcher) Stop() ([]NameEvent, error) {
	w.stop.Do(func() {
		_, _ = unix.Write(w.wakeW, []byte{1})
		<-w.done
		unix.Close(w.fd)
		unix.Close(w.wakeR)
		unix.Close(w.wakeW)
	})
	w.mu.Lock()
	defer w.mu.Unlock()
	err := w.err
	if w.overflow {
		err = errors.Join(err, errors.New("fanotify: event queue overflowed: some names were lost"))
	}
	return w.events, err
}

// parseFanotify decodes a buffer of fanotify events reported with
// FAN_REPORT_DFID_NAME|FAN_REPORT_TARGET_FID (fanotify(7)).
func parseFanotify(b []byte, now int64) (evs []NameEvent, overflow bool, err error) {
	le := binary.LittleEndian
	for off := 0; off < len(b); {
		if len(b)-off < 24 {
			return evs, overflow, fmt.Errorf("fanotify: event at offset %d: %d bytes left, the header needs 24", off, len(b)-off)
		}
		evLen, metaLen := int(le.Uint32(b[off:])), int(le.Uint16(b[off+6:]))
		mask := le.Uint64(b[off+8:])
		pid := int(int32(le.Uint32(b[off+20:])))
		if evLen < metaLen || metaLen < 24 || off+evLen > len(b) {
			return evs, overflow, fmt.Errorf("fanotify: event at offset %d: length %d, metadata %d", off, evLen, metaLen)
		}
		if fd := int32(le.Uint32(b[off+16:])); fd >= 0 {
			unix.Close(int(fd))
		}
		if mask&unix.FAN_Q_OVERFLOW != 0 {
			overflow = true
		}
		var child, dir uint32
		var name string
		var oldDir uint32
		var oldName string
		for ri := off + metaLen; ri+4 <= off+evLen; {
			typ, ilen := b[ri], int(le.Uint16(b[ri+2:]))
			if ilen < 4 || ri+ilen > off+evLen {
				return evs, overflow, fmt.Errorf("fanotify: info record at offset %d: length %d", ri, ilen)
			}
			rec := b[ri+4 : ri+ilen]
			ino, nm := fidRecord(rec, typ != unix.FAN_EVENT_INFO_TYPE_FID)
			switch typ {
			case unix.FAN_EVENT_INFO_TYPE_FID:
				child = ino
			case unix.FAN_EVENT_INFO_TYPE_DFID_NAME, 12: // 12: NEW_DFID_NAME
				dir, name = ino, nm
			case unix.FAN_EVENT_INFO_TYPE_OLD_DFID_NAME:
				oldDir, oldName = ino, nm
			}
			ri += ilen
		}
		base := NameEvent{Time: now, Ino: child, Pid: pid, IsDir: mask&unix.FAN_ONDIR != 0}
		add := func(op string, d uint32, n string) {
			e := base
			e.Op, e.Dir, e.Name = op, d, n
			evs = append(evs, e)
		}
		// fanotify merges queued events with the same object, directory
		// and name into one with several mask bits (a file created and
		// renamed away, one renamed in and deleted): one event per bit, in
		// the order they can have happened.
		if mask&unix.FAN_CREATE != 0 {
			add("create", dir, name)
		}
		if mask&unix.FAN_MOVED_TO != 0 {
			add("moved_to", dir, name)
		}
		if mask&unix.FAN_MOVED_FROM != 0 {
			if oldName != "" {
				add("moved_from", oldDir, oldName)
			} else {
				add("moved_from", dir, name)
			}
		}
		if mask&unix.FAN_DELETE != 0 {
			add("delete", dir, name)
		}
		off += evLen
	}
	return evs, overflow, nil
}

// fidRecord reads an fsid and file handle (and, withName, the name after
// it) and returns the inode number the handle encodes.
func fidRecord(rec []byte, withName bool) (uint32, string) {
	le := binary.LittleEndian
	if len(rec) < 16 {
		return 0, ""
	}
	hb, htype := int(le.Uint32(rec[8:])), int32(le.Uint32(rec[12:]))
	h := rec[16:]
	if hb > len(h) {
		return 0, ""
	}
	var ino uint32
	switch {
	case (htype == 1 || htype == 2) && hb >= 4: // FILEID_INO32_GEN(_PARENT): ext4, xfs
		ino = le.Uint32(h)
	case hb >= 8: // 64-bit object ids first (btrfs, xfs large inodes)
		ino = uint32(le.Uint64(h))
	}
	var name string
	if withName {
		rest := h[hb:]
		for i, c := range rest {
			if c == 0 {
				rest = rest[:i]
				break
			}
		}
		name = string(rest)
	}
	return ino, name
}
