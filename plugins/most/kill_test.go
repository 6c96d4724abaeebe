package most

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/droidprof/droidprof/storage/tracefs"
	"github.com/droidprof/droidprof/storage/volume"
	"github.com/droidprof/droidprof/storage/volume/volumetest"
)

// helperEnv makes the test binary, re-executed, run the live collector on
// a loop volume with a workload that never ends, to be killed mid-capture.
const helperEnv = "DROIDPROF_MOST_KILL_HELPER"

func TestMain(m *testing.M) {
	volumetest.ReapOnSignal(volume.Reap, tracefs.Reap)
	if dir := os.Getenv(helperEnv); dir != "" {
		vol, err := volume.Open(context.Background(), volume.Spec{Backend: "loop", FS: "ext4", Size: 64 << 20, ImageDir: dir})
		if err != nil {
			fmt.Println("error:", err)
			os.Exit(1)
		}
		fmt.Printf("%s %s %s\n", vol.Dir, vol.Image, vol.Device)
		cfg := defaultConfig()
		cfg.Workload = "command"
		cfg.Command = []string{"sh", "-c", "echo > ready; exec sleep 3600"}
		_, err = runLive(context.Background(), cfg, env{OutDir: dir, StorageDir: vol.Dir, Device: vol.Device, FSType: vol.FSType})
		fmt.Println("error: the workload ended:", err)
		os.Exit(1)
	}
	os.Exit(m.Run())
}

// kill -9 of the plugin in the middle of a capture: the next start
// (tracefs.Open, and the host's volume.Reap) leaves no tracefs instance,
// mount or loop device of it behind. Ctrl-C of a test binary (a capture
// benchmark stopped by hand) is cleaned up by the binary's own reaper
// (volumetest.ReapOnSignal), with no later start needed.
func TestKilledDuringCaptureIsReaped(t *testing.T) {
	volumetest.NeedRoot(t, "ext4")
	for _, tc := range []struct {
		name string
		sig  syscall.Signal
		// reap runs what the next droidprof's start runs, after the kill
		reap bool
	}{
		{"SIGKILL", syscall.SIGKILL, true},
		{"SIGINT", syscall.SIGINT, false},
	} {
		t.Run(tc.name, func(t *testing.T) { killDuringCapture(t, tc.sig, tc.reap) })
	}
}

func killDuringCapture(t *testing.T, sig syscall.Signal, reapAfter bool) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"="+dir)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	killed := false
	defer func() {
		if !killed {
			cmd.Process.Kill()
			cmd.Wait()
		}
	}()
	out := bufio.NewReader(stdout)
	line, err := out.ReadString('\n')
	f := strings.Fields(line)
	if err != nil || len(f) != 3 {
		t.Fatalf("helper: %q %v", line, err)
	}
	// The helper prints again only when it fails; its output ends when it
	// exits, and then waiting for the workload is pointless.
	ended := make(chan string, 1)
	go func() {
		rest, _ := io.ReadAll(out)
		ended <- string(rest)
	}()
	mountPoint, image, device := f[0], f[1], f[2]
	// The workload writes "ready" once the capture runs; nothing tells
	// another process about a file appearing there, so poll.
	ready := filepath.Join(mountPoint, DataDir, "ready")
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(ready); err == nil {
			break
		}
		select {
		case rest := <-ended:
			t.Fatalf("the helper ended before its workload started: %s", rest)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatal("the helper's workload never started")
		}
	}
	prefix := tracefs.Prefix + strconv.Itoa(cmd.Process.Pid) + "-"
	live, err := tracefs.Instances()
	if err != nil {
		t.Fatal(err)
	}
	if !hasPrefix(live, prefix) {
		t.Fatalf("no instance %s* while the helper captures: %v", prefix, live)
	}
	cmd.Process.Signal(sig)
	cmd.Wait()
	killed = true
	if reapAfter {
		// What the next droidprof does at its start.
		if err := volume.Reap(); err != nil {
			t.Error(err)
		}
		if err := tracefs.Reap(); err != nil {
			t.Error(err)
		}
	} else {
		// The reaper runs in a session of its own, which tells no one
		// when it is done: poll for the volume's mount and the
		// instance to go.
		for deadline := time.Now().Add(30 * time.Second); mounted(t, mountPoint) || hasInstance(t, prefix); time.Sleep(10 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatal("the interrupted binary's reaper left its volume mounted or its instance")
			}
		}
	}
	names, err := tracefs.Instances()
	if err != nil {
		t.Fatal(err)
	}
	if hasPrefix(names, prefix) {
		t.Errorf("instance %s* left after the reap: %v", prefix, names)
	}
	volumetest.Released(t, mountPoint, image, device)
}

// hasInstance reports whether a tracefs instance's name starts with prefix.
func hasInstance(t *testing.T, prefix string) bool {
	names, err := tracefs.Instances()
	if err != nil {
		t.Fatal(err)
	}
	return hasPrefix(names, prefix)
}

// mounted reports whether anything is mounted at dir.
func mounted(t *testing.T, dir string) bool {
	data, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) > 4 && f[4] == dir {
			return true
		}
	}
	return false
}

func hasPrefix(names []string, prefix string) bool {
	for _, n := range names {
		if strings.HasPrefix(n, prefix) {
			return true
		}
	}
	return false
}
