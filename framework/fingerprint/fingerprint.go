// Package fingerprint describes the environment a run executes in — host,
// CPU, kernel, memory, Go and droidprof versions, and the filesystem under
// the storage directory — so that compare can flag runs that are not like
// for like. Everything is best effort: a field that cannot be determined is
// left empty rather than failing the run.
package fingerprint

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/droidprof/droidprof/framework/results"
	"github.com/droidprof/droidprof/storage/fsinfo"
)

// Version is the droidprof version. Release builds set it with
//
//	-ldflags "-X github.com/droidprof/droidprof/framework/fingerprint.Version=v1.2.3"
//
// When it is empty the module version from the build info is used, and
// "devel" when there is none.
var Version = "0.1.0"

// Commit is the VCS commit droidprof was built from. Builds made with
// -buildvcs=false (GOFLAGS on some machines) have no vcs.revision in their
// build info, so the commit can be set with
//
//	-ldflags "-X github.com/droidprof/droidprof/framework/fingerprint.Commit=$(git rev-parse HEAD)"
//
// When set it takes precedence over the build info.
var Commit = ""

// Collect fills a fingerprint of this machine. storageDir, when not empty, is
// the directory the experiment's I/O goes to; its filesystem type and mount
// options are recorded. StorageBackend, ConfigSHA256 and Plugins are left for
// the caller.
func Collect(storageDir string) results.Fingerprint {
	fp := results.Fingerprint{
		OS:        runtime.GOOS,
		Arch:      runtime.GOARCH,
		CPUs:      runtime.NumCPU(),
		GoVersion: runtime.Version(),
	}
	fp.Hostname, _ = os.Hostname()
	fp.Kernel = kernelRelease()
	fp.CPUModel = cpuModel()
	fp.MemoryBytes = memoryBytes()
	fp.DroidprofVersion, fp.DroidprofCommit = DroidprofVersion()
	if storageDir != "" {
		if abs, err := filepath.Abs(storageDir); err == nil {
			storageDir = abs
		}
		fp.StorageDir = storageDir
		fp.FSType, fp.MountOptions, _ = fsinfo.Describe(storageDir)
	}
	return fp
}

// AddVolume records a storage volume in fp and keeps the summary storage
// fields (backend, directory, filesystem, mount options) up to date: the
// volume's values when it is the only one, the distinct values of all
// volumes joined with ", " otherwise.
func AddVolume(fp *results.Fingerprint, v results.Volume) {
	fp.Volumes = append(fp.Volumes, v)
	join := func(get func(results.Volume) string) string {
		var out []string
		seen := map[string]bool{}
		for _, v := range fp.Volumes {
			if s := get(v); !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
		return strings.Join(out, ", ")
	}
	fp.StorageBackend = join(func(v results.Volume) string { return v.Backend })
	fp.StorageDir = join(func(v results.Volume) string { return v.Dir })
	fp.FSType = join(func(v results.Volume) string { return v.FSType })
	fp.MountOptions = join(func(v results.Volume) string { return v.MountOptions })
}

// DroidprofVersion reports the droidprof version and VCS commit of this
// binary (see Version and Commit). A commit built from a modified work tree
// ends in "-dirty".
func DroidprofVersion() (version, commit string) {
	bi, _ := debug.ReadBuildInfo()
	return versionFrom(bi, Version, Commit)
}

func versionFrom(bi *debug.BuildInfo, ldVersion, ldCommit string) (version, commit string) {
	version, commit = ldVersion, ldCommit
	if bi == nil {
		if version == "" {
			version = "devel"
		}
		return version, commit
	}
	if version == "" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		version = bi.Main.Version
	}
	if version == "" {
		version = "devel"
	}
	if commit == "" {
		var rev string
		var modified bool
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
		if rev != "" {
			commit = rev
			if modified {
				commit += "-dirty"
			}
		}
	}
	return version, commit
}

// PluginChecksum returns the lowercase hex SHA-256 of the file at path.
func PluginChecksum(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("checksum %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// parseMemInfo returns MemTotal from /proc/meminfo content, in bytes.
func parseMemInfo(r io.Reader) int64 {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		key, val, ok := strings.Cut(sc.Text(), ":")
		if !ok || strings.TrimSpace(key) != "MemTotal" {
			continue
		}
		f := strings.Fields(val)
		if len(f) == 0 {
			return 0
		}
		n, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			return 0
		}
		if len(f) > 1 && strings.EqualFold(f[1], "kB") {
			n *= 1024
		}
		return n
	}
	return 0
}

// parseCPUInfo extracts a CPU model name from /proc/cpuinfo content. x86 and
// some 32-bit ARM kernels give "model name"; arm64 kernels give only the
// implementer and part numbers, decoded here as lscpu does (several distinct
// cores, as in big.LITTLE systems, are joined with " + "); other
// architectures have their own fields (ppc "cpu", riscv "uarch"/"isa",
// mips "cpu model", s390 "vendor_id"/"machine").
func parseCPUInfo(r io.Reader) string {
	first := map[string]string{}
	var armCores []string
	seen := map[string]bool{}
	implementer := ""
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		key, val, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		key = strings.TrimSpace(key)
		val = strings.TrimSpace(val)
		if val == "" {
			continue
		}
		if _, ok := first[key]; !ok {
			first[key] = val
		}
		switch key {
		case "CPU implementer":
			implementer = val
		case "CPU part":
			name := armCoreName(implementer, val)
			if !seen[name] {
				seen[name] = true
				armCores = append(armCores, name)
			}
		}
	}
	if v := first["model name"]; v != "" {
		return v
	}
	if len(armCores) > 0 {
		return strings.Join(armCores, " + ")
	}
	for _, k := range []string{"Hardware", "Processor", "cpu model", "cpu", "uarch", "isa"} {
		if v := first[k]; v != "" {
			return v
		}
	}
	if v := first["vendor_id"]; v != "" {
		if m := first["machine"]; m != "" {
			return v + " " + m
		}
		return v
	}
	return ""
}

var armImplementers = map[uint64]string{
	0x41: "ARM", 0x42: "Broadcom", 0x43: "Cavium", 0x46: "Fujitsu", 0x48: "HiSilicon",
	0x4e: "NVIDIA", 0x50: "APM", 0x51: "Qualcomm", 0x53: "Samsung", 0x56: "Marvell",
	0x61: "Apple", 0x69: "Intel", 0x6d: "Microsoft", 0xc0: "Ampere",
}

// armParts names cores by implementer<<12 | part.
var armParts = map[uint64]string{
	0x41<<12 | 0xd03: "Cortex-A53", 0x41<<12 | 0xd04: "Cortex-A35", 0x41<<12 | 0xd05: "Cortex-A55",
	0x41<<12 | 0xd07: "Cortex-A57", 0x41<<12 | 0xd08: "Cortex-A72", 0x41<<12 | 0xd09: "Cortex-A73",
	0x41<<12 | 0xd0a: "Cortex-A75", 0x41<<12 | 0xd0b: "Cortex-A76", 0x41<<12 | 0xd0c: "Neoverse-N1",
	0x41<<12 | 0xd0d: "Cortex-A77", 0x41<<12 | 0xd40: "Neoverse-V1", 0x41<<12 | 0xd41: "Cortex-A78",
	0x41<<12 | 0xd44: "Cortex-X1", 0x41<<12 | 0xd46: "Cortex-A510", 0x41<<12 | 0xd47: "Cortex-A710",
	0x41<<12 | 0xd48: "Cortex-X2", 0x41<<12 | 0xd49: "Neoverse-N2", 0x41<<12 | 0xd4a: "Neoverse-E1",
	0x41<<12 | 0xd4b: "Cortex-A78C", 0x41<<12 | 0xd4d: "Cortex-A715", 0x41<<12 | 0xd4e: "Cortex-X3",
	0x41<<12 | 0xd4f: "Neoverse-V2", 0x41<<12 | 0xd80: "Cortex-A520", 0x41<<12 | 0xd81: "Cortex-A720",
	0x41<<12 | 0xd82: "Cortex-X4", 0x41<<12 | 0xd84: "Neoverse-V3", 0x41<<12 | 0xd8e: "Neoverse-N3",
	0x43<<12 | 0x0af: "ThunderX2", 0x46<<12 | 0x001: "A64FX", 0x48<<12 | 0xd01: "Kunpeng-920",
	0xc0<<12 | 0xac3: "Ampere-1", 0xc0<<12 | 0xac4: "Ampere-1a",
}

func armCoreName(implementer, part string) string {
	impl, err1 := strconv.ParseUint(implementer, 0, 16)
	p, err2 := strconv.ParseUint(part, 0, 16)
	if err1 != nil || err2 != nil {
		return strings.TrimSpace("implementer " + implementer + " part " + part)
	}
	vendor, ok := armImplementers[impl]
	if !ok {
		vendor = fmt.Sprintf("implementer %#x", impl)
	}
	if name, ok := armParts[impl<<12|p]; ok {
		return vendor + " " + name
	}
	return fmt.Sprintf("%s part %#x", vendor, p)
}
