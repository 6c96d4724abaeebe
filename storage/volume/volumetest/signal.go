package volumetest

import (
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"
)

// reaperEnv names, in a test binary started as a reaper, the pid of the
// interrupted test binary whose leftovers it releases.
const reaperEnv = "DROIDPROF_TEST_REAPER_FOR"

// ReapOnSignal makes an interrupted test binary (Ctrl-C, SIGTERM: a long
// benchmark stopped by hand) leave no mount, loop device or tracefs
// instance behind, as droidprof itself does. A test binary exits at once
// on such a signal, its deferred cleanups unrun; so on the signal it
// starts a copy of itself as a reaper and exits, and the reaper waits for
// it to be gone and runs reapers (volume.Reap, tracefs.Reap: they release
// what dead processes held). Call it first in TestMain: in the reaper it
// does not return.
func ReapOnSignal(reapers ...func() error) {
	if s := os.Getenv(reaperEnv); s != "" {
		os.Exit(reap(s, reapers))
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	go func() {
		s := <-sig
		if exe, err := os.Executable(); err == nil {
			cmd := exec.Command(exe, "-test.run=^$")
			cmd.Env = append(os.Environ(), reaperEnv+"="+strconv.Itoa(os.Getpid()))
			cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
			// Its own session: the terminal's next Ctrl-C is not for it.
			cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
			if err := cmd.Start(); err != nil {
				fmt.Fprintln(os.Stderr, "test reaper:", err)
			}
		}
		os.Exit(128 + int(s.(syscall.Signal)))
	}()
}

// reap waits for the process named by pid to exit and runs reapers; it
// returns the exit code.
func reap(pid string, reapers []func() error) int {
	p, err := strconv.Atoi(pid)
	if err != nil {
		fmt.Fprintln(os.Stderr, "test reaper:", err)
		return 1
	}
	if fd, err := unix.PidfdOpen(p, 0); err == nil {
		// A pidfd polls readable when its process has exited.
		for {
			_, err := unix.Poll([]unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}, -1)
			if err != unix.EINTR {
				break
			}
		}
		unix.Close(fd)
	}
	code := 0
	for _, r := range reapers {
		if err := r(); err != nil {
			fmt.Fprintln(os.Stderr, "test reaper:", err)
			code = 1
		}
	}
	return code
}
