package main

import (
	"bufio"
	"bytes"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/droidprof/droidprof/framework/results"
	"github.com/droidprof/droidprof/storage/volume/volumetest"
)

// TestInterruptedLoopRun: Ctrl-C while a step runs on a loop volume ends the
// run as interrupted and leaves no mount, loop device, image or mount point.
func TestInterruptedLoopRun(t *testing.T) {
	volumetest.NeedRoot(t, "ext4")
	c := newCLI(t)
	c.linkTestPlugin()
	c.env = append(c.env, "DROIDPROF_LOG_LEVEL=info")
	imageDir := t.TempDir()
	cfg := c.write("hang.hcl", `
experiment "hang" {
  repeat = 2
  storage {
    backend       = "loop"
    size          = "64MiB"
    image_dir     = "`+imageDir+`"
    mount_options = "data=journal"
  }
  collect "testplug" "hang" {}
}`)
	cmd := c.command("run", cfg)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// The runner logs when the volume is mounted, just before it starts
	// the collector on it.
	sc := bufio.NewScanner(stderr)
	var log []string
	for sc.Scan() {
		log = append(log, sc.Text())
		if strings.Contains(sc.Text(), "storage ready") {
			break
		}
	}
	cmd.Process.Signal(syscall.SIGINT)
	go func() {
		for sc.Scan() {
		}
	}()
	err = cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 130 {
		t.Fatalf("interrupted run: %v (want exit 130)\n%s\n%s", err, stdout.String(), strings.Join(log, "\n"))
	}
	_, dir := runID(t, stdout.String())
	res, err := results.Read(filepath.Join(dir, results.FileName))
	if err != nil || res.Status != results.StatusIncomplete {
		t.Fatalf("results after Ctrl-C: %v %+v", err, res)
	}
	if len(res.Fingerprint.Volumes) != 1 {
		t.Fatalf("volumes %+v", res.Fingerprint.Volumes)
	}
	for _, w := range res.Warnings {
		// The interrupted run names the cells it did not measure; any
		// other warning is about releasing the volume.
		if !strings.Contains(w, "lack repetitions") {
			t.Errorf("warning: %q", w)
		}
	}
	v := res.Fingerprint.Volumes[0]
	if v.FSType != "ext4" || !strings.Contains(v.MountOptions, "data=journal") {
		t.Errorf("volume %+v", v)
	}
	volumesReleased(t, res.Fingerprint.Volumes, imageDir)
	if pids := pluginProcesses(t); len(pids) > 0 {
		t.Errorf("plugin processes left behind: %v", pids)
	}
}

// volumesReleased checks that no volume of a finished run is still mounted,
// bound to a loop device or on disk, and that imageDir is empty.
func volumesReleased(t *testing.T, vols []results.Volume, imageDir string) {
	t.Helper()
	for _, v := range vols {
		volumetest.Released(t, v.Dir, v.Image, v.Device)
	}
	volumetest.EmptyDir(t, imageDir)
}
