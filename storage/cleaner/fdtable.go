package cleaner

import (
	"slices"
	"strings"

	"github.com/droidprof/droidprof/storage/replay"
	"github.com/droidprof/droidprof/storage/strace"
)

// fdTable is one fd table of the traced program: the fds a process (and
// the threads that share its table) has open, each naming the script fd of
// the open file it refers to. Two processes' fd 3 are different files, and
// a dup'd fd is the same open file (same position) under another number,
// so the script numbers open files, not fds.
type fdTable struct {
	fds    map[int64]int  // process fd → script fd
	ignore map[int64]bool // opened on a platform file
	users  int            // pids using the table
	root   bool           // the table of pids whose origin the log does not show
}

func newTable() *fdTable { return &fdTable{fds: map[int64]int{}, ignore: map[int64]bool{}} }

// spawn records a pid created by clone, fork or vfork in the log: it gets
// its parent's table (CLONE_FILES) or a copy of it (otherwise).
type spawn struct {
	parent int
	share  bool
}

// spawns finds the children the log shows being created, before the
// events are walked, because a child's first line may come before the
// line where its parent's clone returns.
func spawns(evs []strace.Event) map[int]spawn {
	out := map[int]spawn{}
	for _, ev := range evs {
		if ev.Kind != strace.Call || ev.RetVal <= 0 {
			continue
		}
		switch ev.Name {
		case "clone", "clone2", "clone3":
			out[int(ev.RetVal)] = spawn{parent: ev.PID, share: strings.Contains(ev.Args, "CLONE_FILES")}
		case "fork", "vfork":
			out[int(ev.RetVal)] = spawn{parent: ev.PID}
		}
	}
	return out
}

// table returns pid's fd table, made on first use: a child the log shows
// being created gets its parent's table as it is at that moment (shared or
// copied); any other pid shares the root table, as one process's threads
// attached without their creation do.
func (c *cleaner) table(pid int) *fdTable {
	if t, ok := c.tables[pid]; ok {
		return t
	}
	var t *fdTable
	if sp, ok := c.spawned[pid]; ok && sp.parent != pid {
		delete(c.spawned, pid) // a reused pid later is a new process
		pt := c.table(sp.parent)
		if sp.share {
			t = pt
		} else {
			t = newTable()
			for fd, sfd := range pt.fds {
				t.fds[fd] = sfd
				c.refs[sfd]++
			}
			for fd := range pt.ignore {
				t.ignore[fd] = true
			}
		}
	} else {
		if c.root == nil {
			c.root = newTable()
			c.root.root = true
		}
		t = c.root
	}
	t.users++
	c.tables[pid] = t
	return t
}

// bindFD makes fd of table t refer to a newly opened file and returns the
// script fd for it: the traced number when no other open file holds it,
// so single-process scripts keep the log's numbers.
func (c *cleaner) bindFD(ev strace.Event, t *fdTable, fd int64) int {
	c.releaseFD(ev, t, fd, false)
	delete(t.ignore, fd)
	sfd := int(fd)
	if c.refs[sfd] > 0 {
		for c.next = max(c.next, firstRenumbered); c.refs[c.next] > 0; c.next++ {
		}
		sfd = c.next
		c.renumbered++
	}
	c.refs[sfd] = 1
	t.fds[fd] = sfd
	return sfd
}

// firstRenumbered is the first script fd given to an open file whose
// traced number another process's open file already holds; far above
// what a program has open, so it never meets a traced number.
const firstRenumbered = 1 << 20

// releaseFD removes fd from table t, as close, dup2 onto it or the exit of
// the table's last user does. The open file is closed in the script (emit)
// when no fd of any table refers to it any more.
func (c *cleaner) releaseFD(ev strace.Event, t *fdTable, fd int64, emit bool) (sfd int, closed, ok bool) {
	sfd, ok = t.fds[fd]
	if !ok {
		return 0, false, false
	}
	delete(t.fds, fd)
	if c.refs[sfd]--; c.refs[sfd] > 0 {
		return sfd, false, true
	}
	delete(c.refs, sfd)
	if emit {
		c.emit(ev, replay.Entry{Call: replay.Close, FD: sfd})
	}
	return sfd, true, true
}

// dup handles dup, dup2, dup3 and fcntl(F_DUPFD): the new fd refers to the
// old one's open file; an fd dup2 replaces is closed first.
func (c *cleaner) dup(name string, ev strace.Event, args []string) {
	old, _, ok := fdArg(args, 0)
	if !ok {
		c.drop(ReasonBadArgs, ev.Name, c.warn(name, ev.Line, "%s: no fd", ev.Name))
		return
	}
	c.drop(ReasonDup, ev.Name, strace.Diag{})
	if ev.RetVal < 0 {
		return
	}
	t := c.table(ev.PID)
	nfd := ev.RetVal
	if nfd == old {
		return // dup2(fd, fd) changes nothing
	}
	c.releaseFD(ev, t, nfd, true)
	delete(t.ignore, nfd)
	switch sfd, ok := t.fds[old]; {
	case ok:
		t.fds[nfd] = sfd
		c.refs[sfd]++
	case t.ignore[old]:
		t.ignore[nfd] = true
	}
	// Otherwise old was open before the capture (a standard stream, say):
	// nfd stays unknown, and a call on it gets an inserted open.
}

// exit ends pid's use of its table; when it was the table's last user and
// the table is a process's own, its fds are closed as the kernel closes
// them at exit. The root table is left alone: the log may show a thread's
// exit without showing which threads share the table.
func (c *cleaner) exit(ev strace.Event) {
	t, ok := c.tables[ev.PID]
	if !ok {
		return
	}
	delete(c.tables, ev.PID)
	if t.users--; t.users > 0 || t.root {
		return
	}
	fds := make([]int64, 0, len(t.fds))
	for fd := range t.fds {
		fds = append(fds, fd)
	}
	slices.Sort(fds)
	for _, fd := range fds {
		c.releaseFD(ev, t, fd, true)
	}
}

// isDup tells the calls that duplicate an fd.
func isDup(ev strace.Event, args []string) bool {
	switch ev.Name {
	case "dup", "dup2", "dup3":
		return true
	case "fcntl", "fcntl64":
		return len(args) > 1 && strings.HasPrefix(strings.TrimSpace(args[1]), "F_DUPFD")
	}
	return false
}
