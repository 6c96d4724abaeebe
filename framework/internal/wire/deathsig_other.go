//go:build !linux

package wire

import "syscall"

func setDeathSignal(a *syscall.SysProcAttr) { a.Setpgid = true }

func processAlive(pid int) bool { return pid <= 0 || syscall.Kill(pid, 0) == nil }
