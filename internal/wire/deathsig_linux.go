package wire

import "syscall"

func setDeathSignal(a *syscall.SysProcAttr) {
	a.Pdeathsig = syscall.SIGKILL
	a.Setpgid = true
}
