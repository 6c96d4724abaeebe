package server_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/droidprof/droidprof/framework/server"
	"github.com/droidprof/droidprof/framework/server/blobs"
	"github.com/droidprof/droidprof/framework/server/catalog"
	"github.com/droidprof/droidprof/framework/server/push"
)

// Environment of a server child: the test binary re-run as a server on
// the catalog childDSN and the blob store childBlobs.
const (
	childDSN   = "DROIDPROF_TEST_SERVER_DSN"
	childBlobs = "DROIDPROF_TEST_SERVER_BLOBS"
)

// serveChild is the server child: it prints its address and serves until
// it is killed.
func serveChild() {
	cat, err := catalog.Open(context.Background(), os.Getenv(childDSN))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	bs, err := blobs.Open(os.Getenv(childBlobs))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("http://%s\n", ln.Addr())
	http.Serve(ln, server.New(server.Config{Catalog: cat, Blobs: bs}))
	os.Exit(1)
}

// startChild starts a server child and returns its URL and process.
func startChild(t *testing.T, dsn, blobDir string) (string, *exec.Cmd) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childDSN+"="+dsn, childBlobs+"="+blobDir)
	cmd.Stderr = os.Stderr
	// The child dies with the test, even a test killed itself.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("the server child printed no address: %v", err)
	}
	return strings.TrimSpace(line), cmd
}

// killMidUpload is a transport that forwards 768 KiB of the first
// resumable upload, waits until the server has stored 256 KiB of it, and
// SIGKILLs the server: it dies with the file half received.
type killMidUpload struct {
	server  *exec.Cmd
	partial string // the server's partial-upload directory
	once    sync.Once
	t       *testing.T
}

func (k *killMidUpload) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method == http.MethodPatch && req.Body != nil {
		k.once.Do(func() {
			file := filepath.Join(k.partial, path.Base(req.URL.Path))
			req.Body = &killAfter{ReadCloser: req.Body, n: 768 << 10, kill: func() {
				if err := waitForSize(k.partial, file, 256<<10); err != nil {
					k.t.Error(err)
				}
				k.server.Process.Signal(syscall.SIGKILL)
				k.server.Wait()
			}}
		})
	}
	return http.DefaultTransport.RoundTrip(req)
}

// waitForSize blocks until file, in dir, has at least size bytes, woken by
// inotify at each write to dir's files.
func waitForSize(dir, file string, size int64) error {
	fd, err := unix.InotifyInit1(unix.IN_CLOEXEC)
	if err != nil {
		return fmt.Errorf("inotify: %w", err)
	}
	defer unix.Close(fd)
	if _, err := unix.InotifyAddWatch(fd, dir, unix.IN_MODIFY|unix.IN_CREATE); err != nil {
		return fmt.Errorf("inotify %s: %w", dir, err)
	}
	buf := make([]byte, 4096)
	for {
		if fi, err := os.Stat(file); err == nil && fi.Size() >= size {
			return nil
		}
		if _, err := unix.Read(fd, buf); err != nil {
			return fmt.Errorf("inotify %s: %w", dir, err)
		}
	}
}

// killAfter lets n bytes through, then kills the server.
type killAfter struct {
	io.ReadCloser
	n    int
	kill func()
}

func (k *killAfter) Read(p []byte) (int, error) {
	if k.n <= 0 {
		return 0, io.ErrUnexpectedEOF
	}
	if len(p) > k.n {
		p = p[:k.n]
	}
	n, err := k.ReadCloser.Read(p)
	if k.n -= n; k.n <= 0 {
		k.kill()
	}
	return n, err
}

// TestServerKilledMidPush: a server process killed with SIGKILL while a
// run's files arrive shows no half-stored run after its restart and keeps
// no unfinished temporary file; the push's retry stores the run whole,
// resuming the file it was receiving. On each catalog database.
func TestServerKilledMidPush(t *testing.T) {
	e := newEnv(t, server.Config{}) // the catalog, its token, the data dir
	dir := makeRun(t, run{id: "killed", experiment: "a", host: "h"})
	big := make([]byte, 1<<20)
	for i := range big {
		big[i] = byte(i * 7)
	}
	if err := os.WriteFile(filepath.Join(dir, "analysis", "big.bin"), big, 0o644); err != nil {
		t.Fatal(err)
	}
	url, srv := startChild(t, e.dsn, e.blobDir)
	kill := &killMidUpload{server: srv, partial: filepath.Join(e.blobDir, "partial"), t: t}
	c := &push.Client{Server: url, Token: e.token, Attempts: 1, HTTP: &http.Client{Transport: kill}}
	if _, err := c.Push(context.Background(), dir); err == nil {
		t.Fatal("a push to the killed server succeeded")
	}
	if ws, ok := srv.ProcessState.Sys().(syscall.WaitStatus); !ok || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("the server was not killed by SIGKILL: %v", srv.ProcessState)
	}
	url, _ = startChild(t, e.dsn, e.blobDir)
	resp, err := http.Get(url + "/api/v1/runs/killed")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("the half-pushed run after the restart: %d, want 404", resp.StatusCode)
	}
	if runs := e.list(""); len(runs) != 0 {
		t.Errorf("runs after the kill: %+v", runs)
	}
	if ents, err := os.ReadDir(filepath.Join(e.blobDir, "tmp")); err != nil || len(ents) != 0 {
		t.Errorf("temporary files left after the restart: %v %v", ents, err)
	}
	var offsets []string
	c.Server, c.HTTP = url, &http.Client{Transport: offsetRecorder{&offsets}}
	res, err := c.Push(context.Background(), dir)
	if err != nil || res.Outcome != "stored" {
		t.Fatalf("the retry: %+v %v", res, err)
	}
	if len(offsets) == 0 || offsets[0] == "0" {
		t.Errorf("the retry's uploads started at %v: the file cut short (the first) was not resumed", offsets)
	}
	t.Logf("the retry resumed the cut file at byte %s of %d", offsets[0], len(big))
	resp, err = http.Get(url + "/api/v1/runs/killed/files/analysis/big.bin")
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(got) != string(big) {
		t.Errorf("the resumed file: %d bytes, want %d, or other content", len(got), len(big))
	}
}

// offsetRecorder is a transport that records the Upload-Offset of each
// resumable upload.
type offsetRecorder struct{ offsets *[]string }

func (o offsetRecorder) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method == http.MethodPatch {
		*o.offsets = append(*o.offsets, req.Header.Get("Upload-Offset"))
	}
	return http.DefaultTransport.RoundTrip(req)
}
