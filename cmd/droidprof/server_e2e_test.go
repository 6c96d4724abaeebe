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

// TestServeTokens: tokens made with serve token create --scope, listed
// without their secrets, and revoked by name while the server runs: the
// read token cannot push, the revoked one is refused at its next push.
func TestServeTokens(t *testing.T) {
	c := newCLI(t)
	c.linkTestPlugin()
	cfg := c.write("ok.hcl", `
experiment "tokens" {
  collect "testplug" "ok" {}
  analyze "testplug" {}
}`)
	id, _ := runID(t, c.ok("run", cfg))
	data := filepath.Join(c.dir, "srv")
	reader := strings.TrimSpace(c.ok("serve", "token", "create", "--data", data, "--name", "alice", "--scope", "read"))
	pusher := strings.TrimSpace(c.ok("serve", "token", "create", "--data", data, "--name", "ci"))
	if _, errOut, code := c.run("serve", "token", "create", "--data", data, "--scope", "admin"); code != 2 || !strings.Contains(errOut, "read or push") {
		t.Errorf("--scope admin: exit %d\n%s", code, errOut)
	}
	url, _ := startServer(t, c, data)
	if _, errOut, code := c.run("push", id, "--server", url, "--token", reader); code == 0 || !strings.Contains(errOut, "403") || !strings.Contains(errOut, "may only read") {
		t.Errorf("push with a read token: exit %d\n%s", code, errOut)
	}
	c.ok("push", id, "--server", url, "--token", pusher)
	list := c.ok("serve", "token", "list", "--data", data)
	lines := strings.Split(strings.TrimSpace(list), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "ID") || !strings.Contains(lines[0], "LAST USED") {
		t.Fatalf("token list:\n%s", list)
	}
	for _, tt := range []struct{ tok, name, scope string }{{reader, "alice", "read"}, {pusher, "ci", "push"}} {
		if strings.Contains(list, tt.tok[21:]) {
			t.Errorf("the list shows %s's secret:\n%s", tt.name, list)
		}
		found := false
		for _, l := range lines[1:] {
			f := strings.Fields(l)
			// ID NAME SCOPE CREATED(2) LAST-USED(2 or "-") REVOKED("-")
			if len(f) >= 7 && f[0] == tt.tok[4:20] && f[1] == tt.name && f[2] == tt.scope && f[5] != "-" && f[len(f)-1] == "-" {
				found = true
			}
		}
		if !found {
			t.Errorf("token %s (%s, used) is not listed as such:\n%s", tt.name, tt.scope, list)
		}
	}
	if out := c.ok("serve", "token", "revoke", "ci", "--data", data); !strings.Contains(out, "revoked token "+pusher[4:20]) {
		t.Errorf("revoke: %s", out)
	}
	if _, errOut, code := c.run("push", id, "--server", url, "--token", pusher); code == 0 || !strings.Contains(errOut, "401") {
		t.Errorf("push with the revoked token: exit %d\n%s", code, errOut)
	}
	if _, errOut, code := c.run("serve", "token", "revoke", "ci", "--data", data); code == 0 || !strings.Contains(errOut, "no unrevoked token") {
		t.Errorf("revoking twice: exit %d\n%s", code, errOut)
	}
}
