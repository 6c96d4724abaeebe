package tracefs

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// lockHelperEnv makes the test binary, re-executed, take the blk tracer
// lock of the state file named by the variable, print "locked" and hold it
// until its stdin closes.
const lockHelperEnv = "DROIDPROF_TRACEFS_LOCK_HELPER"

// Two processes contend for the blk tracer: while one holds the lock the
// other waits its timeout and gets ErrTracerBusy naming the holder; once
// the holder lets go — by ending normally or by being killed — a waiting
// process gets the lock. Needs no root: the lock is a plain file.
func TestBlkLockTwoProcesses(t *testing.T) {
	for _, tc := range []struct {
		name    string
		release func(cmd *exec.Cmd, stdin interface{ Close() error })
	}{
		{"holder ends", func(_ *exec.Cmd, stdin interface{ Close() error }) { stdin.Close() }},
		{"holder killed", func(cmd *exec.Cmd, _ interface{ Close() error }) { cmd.Process.Kill() }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			saved := BlkStateFile
			BlkStateFile = filepath.Join(t.TempDir(), "blk.json")
			defer func() { BlkStateFile = saved }()

			exe, err := os.Executable()
			if err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(exe, "-test.run=^$")
			cmd.Env = append(os.Environ(), lockHelperEnv+"="+BlkStateFile)
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			stdin, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer func() {
				stdin.Close()
				cmd.Process.Kill()
				cmd.Wait()
			}()
			if line, err := bufio.NewReader(stdout).ReadString('\n'); err != nil || line != "locked\n" {
				t.Fatalf("helper: %q %v", line, err)
			}

			// Held by the helper: a second taker times out with
			// a clear error, and the reaper's try leaves it be.
			start := time.Now()
			l, err := lockBlk(200 * time.Millisecond)
			if l != nil {
				l.Close()
				t.Fatal("took the lock the helper holds")
			}
			if !errors.Is(err, ErrTracerBusy) {
				t.Fatalf("got %v, want ErrTracerBusy", err)
			}
			if waited := time.Since(start); waited < 200*time.Millisecond {
				t.Errorf("gave up after %v, before the 200ms timeout", waited)
			}
			if !strings.Contains(err.Error(), "process "+strconv.Itoa(cmd.Process.Pid)+" ") {
				t.Errorf("the error does not name the holder %d: %v", cmd.Process.Pid, err)
			}
			if l, err := lockBlk(-1); l != nil || err != nil {
				t.Fatalf("the reaper's try got %v, %v while the helper held the lock", l, err)
			}

			// A waiter started before the release gets the lock
			// once the helper lets go.
			got := make(chan error, 1)
			go func() {
				l, err := lockBlk(time.Minute)
				if l != nil {
					l.Close()
				}
				got <- err
			}()
			tc.release(cmd, stdin)
			if err := <-got; err != nil {
				t.Fatalf("waiting for the released lock: %v", err)
			}
		})
	}
}
