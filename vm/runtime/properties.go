package runtime

import (
	"os"
	goruntime "runtime"
	"strings"
)

// vmProperties are the system properties only the VM knows, as key/value
// pairs for System.vmProperties: the class paths (DEX file names joined
// with ':'), the machine as Linux's uname names it, the kernel release
// and the working directory. The platform's fixed values are in System.java.
func (vm *VM) vmProperties() []string {
	names := func(files []*DexFile) string {
		var s []string
		for _, f := range files {
			s = append(s, f.Name)
		}
		return strings.Join(s, ":")
	}
	// os.arch is what ART reports: the kernel's machine name.
	arch := map[string]string{"amd64": "x86_64", "arm64": "aarch64", "386": "i686", "arm": "armv7l", "riscv64": "riscv64"}[goruntime.GOARCH]
	if arch == "" {
		arch = goruntime.GOARCH
	}
	release := ""
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		release = strings.TrimSpace(string(b))
	}
	dir, err := os.Getwd()
	if err != nil {
		dir = "/"
	}
	return []string{
		"java.boot.class.path", names(vm.bootFiles),
		"java.class.path", names(vm.appFiles),
		"os.arch", arch,
		"os.version", release,
		"user.dir", dir,
	}
}

// newStringArray makes a String[] of ss (0 with an exception pending).
func (t *Thread) newStringArray(ss []string) uint32 {
	arr := t.NewArrayOf("[Ljava/lang/String;", int32(len(ss)))
	if arr == 0 {
		return 0
	}
	t.PushRoot(arr)
	defer t.PopRoots(1)
	for i, s := range ss {
		str := t.NewString(s)
		if str == 0 {
			return 0
		}
		t.VM.storeElem(t.Root(0), i, str)
	}
	return t.Root(0)
}
