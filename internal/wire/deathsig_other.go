//go:build !linux

package wire

import "syscall"

func setDeathSignal(a *syscall.SysProcAttr) { a.Setpgid = true }
