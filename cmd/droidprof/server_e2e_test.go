package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/droidprof/droidprof/framework/server/catalog"
	"github.com/droidprof/droidprof/framework/server/push"
)

// startServer runs `droidprof serve` on a free loopback port and returns its
// URL and process; the address is read from its first line of output.
func startServer(t *testing.T, c *cli, data string) (string, *exec.Cmd) {
	t.Helper()
	cmd := c.command("serve", "--addr", "127.0.0.1:0", "--data", data)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("serve printed no address: %v", err)
	}
	url, ok := strings.CutPrefix(strings.TrimSpace(line), "serving on ")
	if !ok {
		t.Fatalf("serve: %q", line)
	}
	go io.Copy(io.Discard, stdout)
	return url, cmd
}

func listRuns(t *testing.T, url string) []catalog.Run {
	t.Helper()
	resp, err := http.Get(url + "/api/v1/runs")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var runs []catalog.Run
	if err := json.NewDecoder(resp.Body).Decode(&runs); err != nil {
		t.Fatal(err)
	}
	return runs
}

// TestServePushBrowse: a run made with droidprof run is pushed with
// droidprof push to droidprof serve, twice (stored once), and its page
// shows its metric.
func TestServePushBrowse(t *testing.T) {
	c := newCLI(t)
	c.linkTestPlugin()
	cfg := c.write("ok.hcl", `
experiment "pushed" {
  repeat = 2
  collect "testplug" "ok" {
    value = 7
  }
  analyze "testplug" {}
}`)
	id, _ := runID(t, c.ok("run", cfg))
	data := filepath.Join(c.dir, "srv")
	token := strings.TrimSpace(c.ok("serve", "token", "create", "--data", data, "--name", "laptop"))
	if !strings.HasPrefix(token, "dpt_") {
		t.Fatalf("token: %q", token)
	}
	url, _ := startServer(t, c, data)
	if _, errOut, code := c.run("push", id, "--server", url, "--token", "dpt_0000000000000000_00"); code == 0 || !strings.Contains(errOut, "401") {
		t.Errorf("push with a bad token: exit %d\n%s", code, errOut)
	}
	if out := c.ok("push", id, "--server", url, "--token", token); !strings.Contains(out, id+" stored") {
		t.Errorf("first push:\n%s", out)
	}
	c.env = append(c.env, "DROIDPROF_SERVER="+url, "DROIDPROF_TOKEN="+token)
	if out := c.ok("push", id); !strings.Contains(out, id+" unchanged (0 of") {
		t.Errorf("second push:\n%s", out)
	}
	runs := listRuns(t, url)
	if len(runs) != 1 || runs[0].ID != id || runs[0].PushedBy != "laptop" {
		t.Fatalf("runs on the server: %+v", runs)
	}
	resp, err := http.Get(url + "/runs/" + id)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(page), "pushed") || !strings.Contains(string(page), ">value<") {
		t.Errorf("run page: %d\n%s", resp.StatusCode, page)
	}
}

// killingTransport kills the server after forwarding part of the first
// blob upload: the server dies with the upload half received.
type killingTransport struct {
	server *exec.Cmd
	once   sync.Once
}

func (k *killingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method == http.MethodPatch && strings.Contains(req.URL.Path, "/blobs/") && req.Body != nil {
		var killed bool
		k.once.Do(func() { killed = true })
		if killed {
			req.Body = &killAfter{ReadCloser: req.Body, n: 64, kill: func() { k.server.Process.Kill(); k.server.Wait() }}
		}
	}
	return http.DefaultTransport.RoundTrip(req)
}

// killAfter lets n bytes through, then kills the server before the rest.
type killAfter struct {
	io.ReadCloser
	n    int
	kill func()
	done bool
}

func (k *killAfter) Read(p []byte) (int, error) {
	if k.done {
		return 0, io.ErrUnexpectedEOF
	}
	if len(p) > k.n {
		p = p[:k.n]
	}
	n, err := k.ReadCloser.Read(p)
	k.n -= n
	if k.n <= 0 {
		k.done = true
		k.kill()
	}
	return n, err
}

// TestServerKilledMidPush: the server killed with SIGKILL while a run's
// files are arriving shows no half-stored run after its restart, keeps no
// unfinished temporary file, and the push's retry stores the run (resuming
// the file it was receiving).
func TestServerKilledMidPush(t *testing.T) {
	c := newCLI(t)
	c.linkTestPlugin()
	cfg := c.write("ok.hcl", `
experiment "killed" {
  collect "testplug" "ok" {}
  analyze "testplug" {}
}`)
	_, dir := runID(t, c.ok("run", cfg))
	// A file large enough to be sent in several reads.
	if err := os.WriteFile(filepath.Join(dir, "analysis", "big.bin"), make([]byte, 1<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(c.dir, "srv")
	token := strings.TrimSpace(c.ok("serve", "token", "create", "--data", data))
	url, srv := startServer(t, c, data)
	client := &push.Client{Server: url, Token: token, Attempts: 1, HTTP: &http.Client{Transport: &killingTransport{server: srv}}}
	if _, err := client.Push(context.Background(), dir); err == nil {
		t.Fatal("push to a killed server succeeded")
	}
	url, _ = startServer(t, c, data)
	if runs := listRuns(t, url); len(runs) != 0 {
		t.Fatalf("after the kill: %+v", runs)
	}
	if ents, err := os.ReadDir(filepath.Join(data, "blobs", "tmp")); err != nil || len(ents) != 0 {
		t.Errorf("partial uploads left after the restart: %v %v", ents, err)
	}
	client.Server, client.HTTP = url, nil
	res, err := client.Push(context.Background(), dir)
	if err != nil || res.Outcome != "stored" {
		t.Fatalf("retry: %+v %v", res, err)
	}
	if runs := listRuns(t, url); len(runs) != 1 {
		t.Errorf("after the retry: %+v", runs)
	}
}
