package tracefs

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/droidprof/droidprof/internal/testenv"
	"github.com/droidprof/droidprof/storage/volume"
	"github.com/droidprof/droidprof/storage/volume/volumetest"
	"golang.org/x/sys/unix"
)

// helperEnv makes the test binary, re-executed, open an instance, print its
// name and wait to be killed: an abandoned instance, as a killed droidprof
// leaves one.
const helperEnv = "DROIDPROF_TRACEFS_HELPER"

func TestMain(m *testing.M) {
	volumetest.ReapOnSignal(volume.Reap, Reap)
	if dev := os.Getenv(blkHelperEnv); dev != "" {
		in, err := OpenBlkTracer(dev, BlkOptions{})
		if err != nil {
			fmt.Println("error:", err)
			os.Exit(1)
		}
		if _, err := in.Start(io.Discard); err != nil {
			fmt.Println("error:", err)
			os.Exit(1)
		}
		fmt.Println("ready")
		io.Copy(io.Discard, os.Stdin)
		os.Exit(2)
	}
	if state := os.Getenv(lockHelperEnv); state != "" {
		BlkStateFile = state
		lock, err := lockBlk(0)
		if err != nil {
			fmt.Println("error:", err)
			os.Exit(1)
		}
		fmt.Println("locked")
		// Holds the lock until the test closes our stdin, then
		// gives it back by exiting (or is killed holding it).
		io.Copy(io.Discard, os.Stdin)
		lock.Close()
		os.Exit(0)
	}
	if os.Getenv(helperEnv) == "1" {
		in, err := Open(Options{Events: []string{"block/block_rq_issue"}})
		if err != nil {
			fmt.Println("error:", err)
			os.Exit(1)
		}
		fmt.Printf("%s %s\n", in.Name, in.mounted)
		// Alive until killed: the test holds our stdin open and never
		// writes (a bare select{} would be a deadlock the runtime ends).
		io.Copy(io.Discard, os.Stdin)
		os.Exit(2)
	}
	os.Exit(m.Run())
}

func needRoot(t testing.TB) {
	t.Helper()
	if os.Geteuid() != 0 {
		testenv.SkipOrFail(t, "kernel tracing needs root")
	}
	if _, err := os.Stat("/sys/kernel/tracing"); err != nil {
		testenv.SkipOrFail(t, "no tracefs in this kernel: %v", err)
	}
}

// leftBehind checks that no instance of this process and no private mount
// remain.
func leftBehind(t *testing.T, pids []int, names ...string) {
	t.Helper()
	mounts, err := readMounts()
	if err != nil {
		t.Fatal(err)
	}
	// Only the mounts of the processes under test: other packages' tests
	// run at the same time (go test runs packages in parallel) and may
	// hold private mounts of their own.
	for _, m := range mounts {
		for _, pid := range pids {
			if m.FSType == "tracefs" && strings.HasPrefix(filepath.Base(m.MountPoint), fmt.Sprintf("%s%d-", mountPrefix, pid)) {
				t.Errorf("private tracefs mount %s left behind", m.MountPoint)
			}
		}
	}
	if len(names) == 0 {
		return
	}
	// Look through a mount of our own: the instance may outlive mounts.
	root, mounted, err := mountTracefs()
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if mounted != "" {
			unmountPrivate(mounted)
		}
	}()
	for _, n := range names {
		if _, err := os.Stat(filepath.Join(root, "instances", n)); err == nil {
			t.Errorf("instance %s left behind", n)
		}
	}
}

func TestCaptureLoopVolume(t *testing.T) {
	needRoot(t)
	volumetest.NeedRoot(t, "ext4")
	vol, err := volume.Open(context.Background(), volume.Spec{Backend: "loop", FS: "ext4", Size: 64 << 20, ImageDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer vol.Close()
	var st unix.Stat_t
	if err := unix.Stat(vol.Device, &st); err != nil {
		t.Fatal(err)
	}
	major, minor := unix.Major(uint64(st.Rdev)), unix.Minor(uint64(st.Rdev))
	filter := fmt.Sprintf("dev == %d", KernelDev(major, minor))
	events := []string{"block/block_rq_issue", "block/block_rq_complete"}
	in, err := Open(Options{Events: events, Filters: map[string]string{events[0]: filter, events[1]: filter}, BufferKB: 1024})
	if err != nil {
		t.Fatal(err)
	}
	name := in.Name
	defer func() {
		if err := in.Close(); err != nil {
			t.Error(err)
		}
		leftBehind(t, []int{os.Getpid()}, name)
	}()
	if live, err := Instances(); err != nil || !slices.Contains(live, name) {
		t.Fatalf("instance %s not listed: %v %v", name, live, err)
	}
	// A live instance survives a Reap by anyone.
	if err := Reap(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(in.Dir); err != nil {
		t.Fatalf("Reap removed a live instance: %v", err)
	}
	var out bytes.Buffer
	c, err := in.Start(&out)
	if err != nil {
		t.Fatal(err)
	}
	const size = 1 << 20
	f, err := os.Create(filepath.Join(vol.Dir, "f"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(make([]byte, size)); err != nil {
		t.Fatal(err)
	}
	if err := f.Sync(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	stats, err := c.Stop()
	if err != nil {
		t.Fatal(err)
	}
	r := NewReader(&out)
	var written, issued, completed int64
	for {
		ev, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		b, err := ParseBlock(ev.Name, ev.Body)
		if err != nil {
			t.Fatal(err)
		}
		if b.Major != major || b.Minor != minor {
			t.Fatalf("event of device %d,%d passed the filter for %d,%d", b.Major, b.Minor, major, minor)
		}
		switch ev.Name {
		case "block_rq_issue":
			issued++
		case "block_rq_complete":
			completed++
			if b.Write() {
				written += int64(b.Sectors) * 512
			}
		}
	}
	if stats.Lines == 0 || stats.Lost != 0 || stats.Overrun != 0 {
		t.Errorf("stats %+v", stats)
	}
	// Not equal in general: ext4's lazy inode-table init may have a request
	// in flight when the capture starts or stops.
	if issued == 0 || completed == 0 {
		t.Errorf("issued %d, completed %d", issued, completed)
	}
	if written < size {
		t.Errorf("completed writes cover %d bytes, the file alone has %d", written, size)
	}
}

func TestOverrunReported(t *testing.T) {
	needRoot(t)
	// A buffer of 4 KiB per CPU cannot hold what a burst of marker writes
	// produces before anyone reads: the loss must show.
	in, err := Open(Options{BufferKB: 4})
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	if err := in.SetTracing(true); err != nil {
		t.Fatal(err)
	}
	m, err := os.OpenFile(filepath.Join(in.Dir, "trace_marker"), os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2000; i++ {
		fmt.Fprintf(m, "droidprof overrun test %d\n", i)
	}
	m.Close()
	var out bytes.Buffer
	c, err := in.Start(&out)
	if err != nil {
		t.Fatal(err)
	}
	stats, err := c.Stop()
	if err != nil {
		t.Fatal(err)
	}
	if stats.Lost == 0 && stats.Overrun == 0 {
		t.Fatalf("2000 markers into 4 KiB: no loss reported (%+v)", stats)
	}
}

// startHelper re-executes the test binary with env ("NAME=value") set, so
// that its TestMain plays a helper process, and returns it with the first
// line it printed. The helper lives until it is killed or the test ends
// (its stdin closes). When it fails (no line, or a line starting
// "error"), it is ended and err is set.
func startHelper(t *testing.T, env string) (*exec.Cmd, string, error) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), env)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close() })
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err == nil && strings.HasPrefix(line, "error") {
		err = errors.New("the helper failed")
	}
	if err != nil {
		cmd.Process.Kill()
		cmd.Wait()
	}
	return cmd, line, err
}

func TestReapAbandoned(t *testing.T) {
	needRoot(t)
	cmd, line, err := startHelper(t, helperEnv+"=1")
	if err != nil {
		t.Fatalf("helper: %q %v", line, err)
	}
	fields := strings.Fields(line)
	name := fields[0]
	if live, _ := Instances(); len(live) > 0 && !slices.Contains(live, name) {
		t.Errorf("helper's instance %s not listed in %v", name, live)
	}
	// Still alive: Reap must leave it.
	if err := Reap(); err != nil {
		t.Fatal(err)
	}
	if len(fields) > 1 {
		if _, err := os.Stat(filepath.Join(fields[1], "instances", name)); err != nil {
			t.Fatalf("Reap removed the live helper's instance: %v", err)
		}
	}
	cmd.Process.Kill()
	cmd.Wait()
	if err := Reap(); err != nil {
		t.Fatal(err)
	}
	leftBehind(t, []int{os.Getpid(), cmd.Process.Pid}, name)
}
