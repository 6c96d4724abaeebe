package fingerprint

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

func TestVersionFrom(t *testing.T) {
	settings := func(kv ...string) []debug.BuildSetting {
		var s []debug.BuildSetting
		for i := 0; i < len(kv); i += 2 {
			s = append(s, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return s
	}
	tests := []struct {
		name                string
		bi                  *debug.BuildInfo
		ldVersion, ldCommit string
		wantVer, wantCommit string
	}{
		{"no build info", nil, "", "", "devel", ""},
		{"no build info, ldflags", nil, "v1.0.0", "abc", "v1.0.0", "abc"},
		{"devel module, buildvcs=false", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "", "", "devel", ""},
		{"buildvcs=false, commit from ldflags", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "", "0123abc", "devel", "0123abc"},
		{"vcs clean", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: settings("vcs.revision", "deadbeef", "vcs.modified", "false")}, "", "", "devel", "deadbeef"},
		{"vcs dirty", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: settings("vcs.revision", "deadbeef", "vcs.modified", "true")}, "", "", "devel", "deadbeef-dirty"},
		{"module version", &debug.BuildInfo{Main: debug.Module{Version: "v0.4.1"}}, "", "", "v0.4.1", ""},
		{"ldflags win", &debug.BuildInfo{Main: debug.Module{Version: "v0.4.1"}, Settings: settings("vcs.revision", "deadbeef")}, "v0.5.0", "cafe", "v0.5.0", "cafe"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, c := versionFrom(tt.bi, tt.ldVersion, tt.ldCommit)
			if v != tt.wantVer || c != tt.wantCommit {
				t.Errorf("versionFrom = %q, %q; want %q, %q", v, c, tt.wantVer, tt.wantCommit)
			}
		})
	}
}

func TestPluginChecksum(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name    string
		content []byte
	}{
		{"empty", nil},
		{"small", []byte("droidprof")},
		{"large", []byte(strings.Repeat("0123456789abcdef", 1<<16))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(dir, tt.name)
			if err := os.WriteFile(p, tt.content, 0o755); err != nil {
				t.Fatal(err)
			}
			got, err := PluginChecksum(p)
			if err != nil {
				t.Fatal(err)
			}
			sum := sha256.Sum256(tt.content)
			if want := hex.EncodeToString(sum[:]); got != want {
				t.Errorf("PluginChecksum = %s, want %s", got, want)
			}
		})
	}
	if _, err := PluginChecksum(filepath.Join(dir, "missing")); err == nil {
		t.Error("PluginChecksum of a missing file: want error")
	}
	// Known answer: the SHA-256 of no bytes.
	if got, _ := PluginChecksum(filepath.Join(dir, "empty")); got != "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" {
		t.Errorf("sha256 of empty file = %s", got)
	}
}

func TestParseMemInfo(t *testing.T) {
	tests := []struct {
		in   string
		want int64
	}{
		{"MemTotal:       16318480 kB\nMemFree:          551100 kB\n", 16318480 * 1024},
		{"MemFree: 1 kB\nMemTotal: 2048 kB\n", 2048 * 1024},
		{"MemTotal: 4096\n", 4096},
		{"MemFree: 1 kB\n", 0},
		{"MemTotal: lots kB\n", 0},
		{"", 0},
	}
	for _, tt := range tests {
		if got := parseMemInfo(strings.NewReader(tt.in)); got != tt.want {
			t.Errorf("parseMemInfo(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

func TestParseCPUInfo(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"x86", "processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Intel(R) Xeon(R) CPU @ 2.20GHz\n\nprocessor\t: 1\nmodel name\t: Intel(R) Xeon(R) CPU @ 2.20GHz\n",
			"Intel(R) Xeon(R) CPU @ 2.20GHz"},
		{"arm64 server", "processor\t: 0\nBogoMIPS\t: 243.75\nFeatures\t: fp asimd\nCPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x3\nCPU part\t: 0xd0c\nCPU revision\t: 1\n\nprocessor\t: 1\nCPU implementer\t: 0x41\nCPU part\t: 0xd0c\n",
			"ARM Neoverse-N1"},
		{"arm64 big.LITTLE", "processor\t: 0\nCPU implementer\t: 0x41\nCPU part\t: 0xd05\n\nprocessor\t: 1\nCPU implementer\t: 0x41\nCPU part\t: 0xd05\n\nprocessor\t: 6\nCPU implementer\t: 0x41\nCPU part\t: 0xd0b\n",
			"ARM Cortex-A55 + ARM Cortex-A76"},
		{"arm64 unknown part", "CPU implementer\t: 0x51\nCPU part\t: 0x804\n", "Qualcomm part 0x804"},
		{"arm64 unknown implementer", "CPU implementer\t: 0x99\nCPU part\t: 0x001\n", "implementer 0x99 part 0x1"},
		{"arm32 model name", "processor\t: 0\nmodel name\t: ARMv7 Processor rev 4 (v7l)\nCPU implementer\t: 0x41\nCPU part\t: 0xd03\nHardware\t: BCM2835\n", "ARMv7 Processor rev 4 (v7l)"},
		{"arm32 hardware only", "Processor\t: ARMv7 Processor rev 10 (v7l)\nHardware\t: Freescale i.MX6\n", "Freescale i.MX6"},
		{"ppc64le", "processor\t: 0\ncpu\t\t: POWER9 (raw), altivec supported\nclock\t\t: 2166.000000MHz\n", "POWER9 (raw), altivec supported"},
		{"riscv", "processor\t: 0\nhart\t\t: 0\nisa\t\t: rv64imafdc\nmmu\t\t: sv39\nuarch\t\t: sifive,u74-mc\n", "sifive,u74-mc"},
		{"s390x", "vendor_id       : IBM/S390\n# processors    : 2\nmachine         : 8561\n", "IBM/S390 8561"},
		{"empty", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := parseCPUInfo(strings.NewReader(tt.in)); got != tt.want {
				t.Errorf("parseCPUInfo = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestCollect(t *testing.T) {
	dir := t.TempDir()
	fp := Collect(dir)
	if fp.OS != runtime.GOOS || fp.Arch != runtime.GOARCH {
		t.Errorf("OS/Arch = %s/%s", fp.OS, fp.Arch)
	}
	if fp.GoVersion != runtime.Version() {
		t.Errorf("GoVersion = %q", fp.GoVersion)
	}
	if fp.CPUs != runtime.NumCPU() || fp.CPUs < 1 {
		t.Errorf("CPUs = %d", fp.CPUs)
	}
	if fp.DroidprofVersion == "" {
		t.Error("DroidprofVersion empty")
	}
	if h, _ := os.Hostname(); fp.Hostname != h {
		t.Errorf("Hostname = %q, want %q", fp.Hostname, h)
	}
	if fp.StorageDir != dir {
		t.Errorf("StorageDir = %q, want %q", fp.StorageDir, dir)
	}
	if runtime.GOOS == "linux" {
		if fp.Kernel == "" || fp.CPUModel == "" || fp.MemoryBytes <= 0 || fp.FSType == "" || fp.MountOptions == "" {
			t.Errorf("Linux fingerprint has empty fields: %+v", fp)
		}
		if out, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
			if want := strings.TrimSpace(string(out)); fp.Kernel != want {
				t.Errorf("Kernel = %q, want %q", fp.Kernel, want)
			}
		}
	}
	if fp := Collect(""); fp.StorageDir != "" || fp.FSType != "" {
		t.Errorf("Collect(\"\") filled storage fields: %+v", fp)
	}
}
