// Package procwait lets tests check that a process they expect to end (a
// plugin's grandchild, a killed plugin) really does, without leaving it
// behind when it does not.
package procwait

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Gone waits until process pid has ended (or is a zombie nobody reaped
// yet), and kills it and returns an error if that takes longer than timeout.
func Gone(pid int, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		stat, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
		if err != nil || strings.Contains(string(stat), ") Z ") {
			return nil
		}
		time.Sleep(20 * time.Millisecond)
	}
	syscall.Kill(pid, syscall.SIGKILL)
	return fmt.Errorf("process %d outlived its plugin", pid)
}
