// Package push uploads run directories to a droidprof results server
// (framework/server): the files are hashed, the blobs the server lacks are
// uploaded, then the run is stored in one request that names them all. Every
// request can be repeated, so a push cut short is completed by pushing
// again, and pushing a run twice stores it once.
package push

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/droidprof/droidprof/framework/results"
	"github.com/droidprof/droidprof/framework/runstore"
)

// Client pushes runs to one server.
type Client struct {
	// Server is the server's base URL (http://host:port).
	Server string
	// Token authenticates the pushes.
	Token string
	// HTTP is the client to use; nil means http.DefaultClient.
	HTTP *http.Client
	// Attempts bounds the tries of each request on a network error or a
	// 5xx answer (0: 5); the retries are what make a push survive a
	// server restart.
	Attempts int
	// Artifacts also pushes the steps' raw artifacts (traces, profiles).
	Artifacts bool
}

// File is a run file to push.
type File struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
	Size   int64  `json:"size"`
	abs    string
}

// Result is what a push did.
type Result struct {
	RunID string
	// Outcome is the server's word: stored, unchanged or replaced.
	Outcome string
	// Uploaded is how many files were sent; the others the server had.
	Uploaded, Files int
}

// Files lists the files of the run directory dir that a push sends:
// results.json, the configs and reports at its top, the analysis, and with
// artifacts the steps' files. Earlier analyses (kept by droidprof analyze),
// logs and the run's lock stay home.
func Files(dir string, artifacts bool) ([]File, error) {
	var out []File
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		top, _, nested := strings.Cut(rel, "/")
		if d.IsDir() {
			if rel == "." || top == runstore.AnalysisDir || (artifacts && top == runstore.StepsDir) {
				return nil
			}
			return fs.SkipDir
		}
		if !d.Type().IsRegular() || strings.HasPrefix(d.Name(), ".") || strings.HasSuffix(d.Name(), ".tmp") || (!nested && rel == runstore.LockFile) {
			return nil
		}
		sum, size, err := hashFile(p)
		if err != nil {
			return err
		}
		out = append(out, File{Path: rel, SHA256: sum, Size: size, abs: p})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("push %s: %w", dir, err)
	}
	return out, nil
}

func hashFile(p string) (string, int64, error) {
	f, err := os.Open(p)
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	return hex.EncodeToString(h.Sum(nil)), n, err
}

// Push uploads the run in dir: the files the server lacks (large ones
// resumed where an earlier push stopped), then the run.
func (c *Client) Push(ctx context.Context, dir string) (*Result, error) {
	res, err := results.Read(filepath.Join(dir, results.FileName))
	if err != nil {
		return nil, fmt.Errorf("push %s: %w", dir, err)
	}
	if res.Status == results.StatusRunning {
		return nil, fmt.Errorf("push %s: run %s is still running; push it when it has finished", dir, res.RunID)
	}
	files, err := Files(dir, c.Artifacts)
	if err != nil {
		return nil, err
	}
	out := &Result{RunID: res.RunID, Files: len(files)}
	for _, f := range files {
		sent, err := c.upload(ctx, f)
		if err != nil {
			return nil, fmt.Errorf("push %s: %s: %w", res.RunID, f.Path, err)
		}
		if sent {
			out.Uploaded++
		}
	}
	manifest, err := json.Marshal(map[string][]File{"files": files})
	if err != nil {
		return nil, err
	}
	code, body, err := c.do(ctx, http.MethodPut, "/api/v1/runs/"+url.PathEscape(res.RunID), func() (io.Reader, int64, func(), error) {
		return bytes.NewReader(manifest), int64(len(manifest)), func() {}, nil
	})
	if err != nil {
		return nil, fmt.Errorf("push %s: %w", res.RunID, err)
	}
	if code != http.StatusOK && code != http.StatusCreated {
		return nil, fmt.Errorf("push %s: %w", res.RunID, serverError(code, body))
	}
	var ans struct {
		Outcome string `json:"outcome"`
	}
	if err := json.Unmarshal(body, &ans); err != nil {
		return nil, fmt.Errorf("push %s: the server's answer: %w", res.RunID, err)
	}
	out.Outcome = ans.Outcome
	return out, nil
}

// upload sends f unless the server has it, resuming from what the server
// kept of an earlier attempt: a large artifact cut short is not sent again
// from its start. sent is false when the server had the file.
func (c *Client) upload(ctx context.Context, f File) (sent bool, err error) {
	attempts := c.attempts()
	var last error
	for i := 0; i < attempts; i++ {
		if i > 0 {
			if err := backoff(ctx, i); err != nil {
				return sent, err
			}
		}
		hdr, code, _, err := c.once(ctx, http.MethodHead, "/api/v1/blobs/"+f.SHA256, nil, nil)
		if err != nil {
			last = err
			continue
		}
		if code == http.StatusOK {
			return sent, nil
		}
		if code != http.StatusNotFound {
			// A HEAD answer has no body to say why: say what the
			// status means.
			why := map[int]string{
				http.StatusUnauthorized: "the server refused the token (missing, invalid or revoked)",
				http.StatusForbidden:    "the token may only read; pushing needs a push token (droidprof serve token create --scope push)",
			}[code]
			if why == "" {
				why = http.StatusText(code)
			}
			return sent, fmt.Errorf("server: %s (HTTP %d)", why, code)
		}
		off, _ := strconv.ParseInt(hdr.Get("Upload-Offset"), 10, 64)
		fh, err := os.Open(f.abs)
		if err != nil {
			return sent, err
		}
		if _, err := fh.Seek(off, io.SeekStart); err != nil {
			fh.Close()
			return sent, err
		}
		sent = true
		_, code, body, err := c.once(ctx, http.MethodPatch, "/api/v1/blobs/"+f.SHA256, io.LimitReader(fh, f.Size-off), map[string]string{
			"Upload-Offset": strconv.FormatInt(off, 10), "Upload-Length": strconv.FormatInt(f.Size, 10),
		})
		fh.Close()
		switch {
		case err != nil:
			last = err
		case code == http.StatusOK || code == http.StatusCreated:
			return sent, nil
		case code == http.StatusAccepted || code == http.StatusConflict || code >= 500 && code != http.StatusInsufficientStorage:
			// Incomplete, or another offset than ours: ask again.
			last = serverError(code, body)
		default:
			return sent, serverError(code, body)
		}
	}
	return sent, fmt.Errorf("after %d attempts: %w", attempts, last)
}

func (c *Client) attempts() int {
	if c.Attempts <= 0 {
		return 5
	}
	return c.Attempts
}

func backoff(ctx context.Context, i int) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(time.Duration(1<<min(i, 6)) * 100 * time.Millisecond):
		return nil
	}
}

// once sends one request with a body of known length (the rest of r).
func (c *Client) once(ctx context.Context, method, path string, r io.Reader, headers map[string]string) (http.Header, int, []byte, error) {
	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	req, err := http.NewRequestWithContext(ctx, method, strings.TrimRight(c.Server, "/")+path, r)
	if err != nil {
		return nil, 0, nil, err
	}
	if n, err := strconv.ParseInt(headers["Upload-Offset"], 10, 64); err == nil {
		size, _ := strconv.ParseInt(headers["Upload-Length"], 10, 64)
		req.ContentLength = size - n
	}
	req.Header.Set("Authorization", "Bearer "+c.Token)
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, 0, nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	return resp.Header, resp.StatusCode, data, err
}

// serverError turns an error answer into an error with the server's message.
func serverError(code int, body []byte) error {
	var e struct {
		Error string `json:"error"`
	}
	if json.Unmarshal(body, &e) == nil && e.Error != "" {
		return fmt.Errorf("server: %s (HTTP %d)", e.Error, code)
	}
	return fmt.Errorf("server: HTTP %d %s", code, strings.TrimSpace(string(body)))
}

// do sends a request, retrying on network errors and 5xx answers; body
// makes a fresh request body for each attempt.
func (c *Client) do(ctx context.Context, method, path string, body func() (io.Reader, int64, func(), error)) (int, []byte, error) {
	attempts := c.attempts()
	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	var last error
	for i := 0; i < attempts; i++ {
		if i > 0 {
			if err := backoff(ctx, i); err != nil {
				return 0, nil, err
			}
		}
		var r io.Reader
		var size int64
		done := func() {}
		if body != nil {
			var err error
			if r, size, done, err = body(); err != nil {
				return 0, nil, err
			}
		}
		req, err := http.NewRequestWithContext(ctx, method, strings.TrimRight(c.Server, "/")+path, r)
		if err != nil {
			done()
			return 0, nil, err
		}
		req.ContentLength = size
		req.Header.Set("Authorization", "Bearer "+c.Token)
		if method == http.MethodPut && strings.HasPrefix(path, "/api/v1/runs/") {
			req.Header.Set("Content-Type", "application/json")
		}
		resp, err := hc.Do(req)
		done()
		if err != nil {
			if ctx.Err() != nil {
				return 0, nil, ctx.Err()
			}
			last = err
			continue
		}
		data, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		resp.Body.Close()
		if err != nil {
			last = err
			continue
		}
		if resp.StatusCode >= 500 && resp.StatusCode != http.StatusInsufficientStorage {
			last = serverError(resp.StatusCode, data)
			continue
		}
		return resp.StatusCode, data, nil
	}
	return 0, nil, fmt.Errorf("after %d attempts: %w", attempts, errors.Join(last))
}
