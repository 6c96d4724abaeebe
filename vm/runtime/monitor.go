package runtime

import (
	"time"
)

// Lock word states (the top two bits of the second header word), after
// ART's LockWord: unlocked, thin-locked (owner thread id and recursion
// count), hashed (identity hash stored), inflated (monitor index).
const (
	lockStateShift = 30
	lockThin       = 1
	lockHash       = 2
	lockFat        = 3
	lockPayload    = 1<<lockStateShift - 1
	thinOwnerShift = 16
	thinCountMax   = 1<<thinOwnerShift - 1
)

// Monitor is an inflated lock: owner, recursion count, the identity hash
// it displaced and the threads in wait().
type Monitor struct {
	owner   *Thread
	count   int
	hash    uint32
	entryQ  []*Thread
	waitSet []*Thread
	obj     uint32
}

// Unlocked reports whether no thread holds the object at a's lock and
// its lock word is in the plain unlocked state (no hash, no monitor):
// then a monitor-enter and monitor-exit of it with nothing between them
// leave it as it was (the aot engine's lock elision, intrinsic.go).
func (vm *VM) Unlocked(a uint32) bool { return vm.lockWord(a) == 0 }

func (vm *VM) lockWord(a uint32) uint32       { return vm.Heap.U32(a + 4) }
func (vm *VM) setLockWord(a uint32, w uint32) { vm.Heap.SetU32(a+4, w) }

// inflate turns a's lock word into a monitor, keeping its state.
func (vm *VM) inflate(a uint32) *Monitor {
	w := vm.lockWord(a)
	if w>>lockStateShift == lockFat {
		return vm.monitors[w&lockPayload]
	}
	m := &Monitor{obj: a}
	switch w >> lockStateShift {
	case lockThin:
		tid := int(w&lockPayload) >> thinOwnerShift
		m.count = int(w&thinCountMax) + 1
		vm.threadsMu.Lock()
		for t := range vm.threads {
			if t.ID == tid {
				m.owner = t
			}
		}
		vm.threadsMu.Unlock()
	case lockHash:
		m.hash = w & lockPayload
	}
	vm.monitors = append(vm.monitors, m)
	vm.setLockWord(a, lockFat<<lockStateShift|uint32(len(vm.monitors)-1))
	return m
}

// MonitorEnter locks the object at a (not null), blocking while another
// thread owns it.
func (t *Thread) MonitorEnter(a uint32) {
	vm := t.VM
	w := vm.lockWord(a)
	switch w >> lockStateShift {
	case 0:
		vm.setLockWord(a, lockThin<<lockStateShift|uint32(t.ID)<<thinOwnerShift)
		return
	case lockThin:
		if int(w&lockPayload)>>thinOwnerShift == t.ID && w&thinCountMax < thinCountMax {
			vm.setLockWord(a, w+1)
			return
		}
	}
	m := vm.inflate(a)
	t.enter(m)
}

func (t *Thread) enter(m *Monitor) {
	for {
		if m.owner == nil {
			m.owner, m.count = t, 1
			return
		}
		if m.owner == t {
			m.count++
			return
		}
		m.entryQ = append(m.entryQ, t)
		t.PushRoot(m.obj)
		t.block(func() {
			select {
			case <-t.wake:
			case <-t.VM.done:
			}
		})
		t.PopRoots(1)
	}
}

// MonitorExit unlocks the object at a; a thread that does not own it gets
// IllegalMonitorStateException. It reports success.
func (t *Thread) MonitorExit(a uint32) bool {
	vm := t.VM
	w := vm.lockWord(a)
	switch w >> lockStateShift {
	case lockThin:
		if int(w&lockPayload)>>thinOwnerShift == t.ID {
			if w&thinCountMax == 0 {
				vm.setLockWord(a, 0)
			} else {
				vm.setLockWord(a, w-1)
			}
			return true
		}
	case lockFat:
		m := vm.monitors[w&lockPayload]
		if m.owner == t {
			m.count--
			if m.count == 0 {
				m.owner = nil
				m.wakeOne()
			}
			return true
		}
	}
	t.ThrowNew("Ljava/lang/IllegalMonitorStateException;", "did not lock monitor on object of type '"+vm.ClassOf(a).Name+"' before unlocking")
	return false
}

func (m *Monitor) wakeOne() {
	if len(m.entryQ) > 0 {
		next := m.entryQ[0]
		m.entryQ = m.entryQ[1:]
		select {
		case next.wake <- struct{}{}:
		default:
		}
	}
}

// ownedMonitor returns a's monitor if t holds its lock (inflating it: wait
// and notify need the monitor).
func (t *Thread) ownedMonitor(a uint32) *Monitor {
	vm := t.VM
	w := vm.lockWord(a)
	switch w >> lockStateShift {
	case lockThin:
		if int(w&lockPayload)>>thinOwnerShift != t.ID {
			return nil
		}
	case lockFat:
	default:
		return nil
	}
	m := vm.inflate(a)
	if m.owner != t {
		return nil
	}
	return m
}

// Wait implements Object.wait: release the monitor, wait for notify, a
// timeout (0 = none) or an interrupt, then take the monitor back.
func (t *Thread) Wait(a uint32, d time.Duration) {
	m := t.ownedMonitor(a)
	if m == nil {
		t.ThrowNew("Ljava/lang/IllegalMonitorStateException;", "object not locked by thread before wait()")
		return
	}
	if t.interrupted {
		t.interrupted = false
		t.ThrowNew("Ljava/lang/InterruptedException;", "")
		return
	}
	count := m.count
	m.owner, m.count = nil, 0
	m.wakeOne()
	m.waitSet = append(m.waitSet, t)
	// Drain a stale wake-up so that only a notify (or timeout) ends
	// this wait.
	select {
	case <-t.wake:
	default:
	}
	t.sleep(d, true)
	for i, w := range m.waitSet {
		if w == t {
			m.waitSet = append(m.waitSet[:i], m.waitSet[i+1:]...)
			break
		}
	}
	t.enter(m)
	m.count = count
	if t.interrupted {
		t.interrupted = false
		t.ThrowNew("Ljava/lang/InterruptedException;", "")
	}
}

// Notify wakes one (or all) threads waiting on a.
func (t *Thread) Notify(a uint32, all bool) {
	m := t.ownedMonitor(a)
	if m == nil {
		t.ThrowNew("Ljava/lang/IllegalMonitorStateException;", "object not locked by thread before notify()")
		return
	}
	for len(m.waitSet) > 0 {
		w := m.waitSet[0]
		m.waitSet = m.waitSet[1:]
		select {
		case w.wake <- struct{}{}:
		default:
		}
		if !all {
			break
		}
	}
}

// IdentityHash returns a's identity hash code, assigning one on first
// use; it survives locking and (later) moving.
func (vm *VM) IdentityHash(a uint32) int32 {
	if a == 0 {
		return 0
	}
	w := vm.lockWord(a)
	switch w >> lockStateShift {
	case lockHash:
		return int32(w & lockPayload)
	case lockFat:
		m := vm.monitors[w&lockPayload]
		if m.hash == 0 {
			m.hash = vm.nextHash()
		}
		return int32(m.hash)
	case lockThin:
		m := vm.inflate(a)
		m.hash = vm.nextHash()
		return int32(m.hash)
	}
	h := vm.nextHash()
	vm.setLockWord(a, lockHash<<lockStateShift|h)
	return int32(h)
}

// nextHash is a xorshift sequence, like ART's GenerateIdentityHashCode:
// deterministic per VM, never 0.
func (vm *VM) nextHash() uint32 {
	for {
		x := vm.hashSeed
		if x == 0 {
			x = 0x2545F491
		}
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		vm.hashSeed = x
		if h := x & lockPayload; h != 0 {
			return h
		}
	}
}
