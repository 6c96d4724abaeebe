package wire

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
)

func setDeathSignal(a *syscall.SysProcAttr) {
	a.Pdeathsig = syscall.SIGKILL
	a.Setpgid = true
}

// processAlive reports whether pid runs and is not a zombie waiting to be
// reaped.
func processAlive(pid int) bool {
	if pid <= 0 {
		return true // unknown: let go-plugin decide
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	// The state follows the parenthesised command name, which may itself
	// contain parentheses.
	i := bytes.LastIndexByte(stat, ')')
	return i < 0 || i+2 >= len(stat) || stat[i+2] != 'Z'
}
