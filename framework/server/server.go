// Package server is droidprof's results server: machines push runs to it
// (`droidprof push`), and people and scripts browse, compare and rank them
// (`droidprof serve`). The runs' rows live in a catalog database
// (framework/server/catalog), their files in a content-addressed directory
// (framework/server/blobs); the web UI is framework/server/web.
//
// # JSON API
//
// Every response is JSON (errors are {"error": "..."} with a 4xx/5xx
// status) except file downloads. Writes need "Authorization: Bearer TOKEN"
// with a push token (tokens: `droidprof serve token create --scope
// read|push`; a read token gets 403 on a write); reads need a token of
// either scope too when the server runs with --private. Browsers sign in
// instead (GET/POST /signin, a form taking a token): that sets an
// HttpOnly, SameSite=Strict cookie naming a server-side session bound to
// the token, which reads accept; POST /signout ends it (both refuse a form
// posted from another origin). Revoking a token
// (`droidprof serve token revoke`) refuses it, and ends its sessions, at
// once.
//
// A disk that fills up answers 507 Insufficient Storage naming the cause;
// nothing half-stored remains and the same push completes once there is
// space again.
//
//	GET  /api/v1/runs?experiment=&plugin=&host=&device=&fs=&since=&until=&limit=
//	     the runs, newest first; since/until are RFC 3339 times or dates
//	     (2026-11-28); answer: [run, …] (catalog.Run)
//	GET  /api/v1/runs/{id}
//	     {"run": run, "files": [{path, sha256, size}, …], "results": results.json}
//	GET  /api/v1/runs/{id}/files/{path}
//	     one of the run's files as pushed
//	GET  /api/v1/compare?a=ID&b=ID
//	     the comparison droidprof compare --format json prints (the same
//	     statistics: framework/compare)
//	GET  /api/v1/experiments
//	     ["name", …]
//	GET  /api/v1/metrics?experiment=
//	     the metric keys of an experiment's runs, for ranking
//	GET  /api/v1/rank?experiment=&metric=&by=host|device
//	     the hosts (default) or devices ranked on a metric, best first
//	     (catalog.Ranking); a run's device is its "device" label, else its
//	     fingerprint's CPU model, else its host
//	HEAD /api/v1/blobs/{sha256}                      (token)
//	     200 if the server has the content, 404 if not, with
//	     Upload-Offset: the bytes a resumable upload has stored so far
//	PUT  /api/v1/blobs/{sha256}                      (token)
//	     body: the content; checked against the hash and the size limit;
//	     201 stored, 200 had it already
//	PATCH /api/v1/blobs/{sha256}                     (token)
//	     a resumable upload: headers Upload-Offset (where the body starts)
//	     and Upload-Length (the whole size); 202 with the new offset while
//	     incomplete, 201 when the content is complete and matches its hash,
//	     409 with Upload-Offset when the offset is not the server's. Bytes
//	     received before a connection drops (or the server dies) are kept,
//	     so the upload resumes from there
//	PUT  /api/v1/runs/{id}                           (token)
//	     body: {"files": [{"path", "sha256", "size"}, …]} naming blobs
//	     pushed before, results.json among them; the run appears at once
//	     with all its files, or not at all. Answer {"run_id", "outcome":
//	     "stored" | "unchanged" | "replaced"}; 409 with "missing" when
//	     blobs are not on the server yet.
//
// A push is thus: hash the files, upload the blobs the server lacks (HEAD
// tells, and how much of each it has), PUT the run. Every step can be repeated, so an interrupted push
// is completed by pushing again, and a run pushed twice is stored once.
package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/droidprof/droidprof/framework/compare"
	"github.com/droidprof/droidprof/framework/results"
	"github.com/droidprof/droidprof/framework/server/blobs"
	"github.com/droidprof/droidprof/framework/server/catalog"
	"github.com/droidprof/droidprof/framework/server/web"
	"github.com/droidprof/droidprof/framework/stats"
	"github.com/hashicorp/go-hclog"
)

// Default limits.
const (
	DefaultMaxBlob     = 1 << 30  // one uploaded file
	DefaultMaxResults  = 64 << 20 // results.json, which the server parses
	DefaultMaxManifest = 8 << 20  // the file list of a run
	maxFiles           = 100_000
	maxPathLen         = 1024
)

// Config configures a Server.
type Config struct {
	Catalog *catalog.Catalog
	Blobs   *blobs.Store
	// Private makes reads need a token too.
	Private bool
	// MaxBlob bounds one uploaded file (0: DefaultMaxBlob).
	MaxBlob int64
	Logger  hclog.Logger
}

// Server serves the API and the web UI.
type Server struct {
	cfg Config
	mux *http.ServeMux
}

// New returns a server for cfg.
func New(cfg Config) *Server {
	if cfg.MaxBlob <= 0 {
		cfg.MaxBlob = DefaultMaxBlob
	}
	if cfg.Logger == nil {
		cfg.Logger = hclog.NewNullLogger()
	}
	s := &Server{cfg: cfg, mux: http.NewServeMux()}
	read, write := s.reader, s.writer
	s.mux.Handle("GET /api/v1/runs", read(s.listRuns))
	s.mux.Handle("GET /api/v1/runs/{id}", read(s.getRun))
	s.mux.Handle("GET /api/v1/runs/{id}/files/{path...}", read(s.getFile))
	s.mux.Handle("GET /api/v1/compare", read(s.compareRuns))
	s.mux.Handle("GET /api/v1/experiments", read(s.experiments))
	s.mux.Handle("GET /api/v1/metrics", read(s.metrics))
	s.mux.Handle("GET /api/v1/rank", read(s.rank))
	s.mux.Handle("HEAD /api/v1/blobs/{sha}", write(s.headBlob))
	s.mux.Handle("PUT /api/v1/blobs/{sha}", write(s.putBlob))
	s.mux.Handle("PATCH /api/v1/blobs/{sha}", write(s.patchBlob))
	s.mux.Handle("PUT /api/v1/runs/{id}", write(s.putRun))
	s.mux.Handle("/api/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fail(w, http.StatusNotFound, fmt.Errorf("no API endpoint %s %s", r.Method, r.URL.Path))
	}))
	ui := web.New(s, s)
	// Signing in, and the style sheet of its page, need no token.
	for _, p := range []string{"GET /signin", "POST /signin", "POST /signout", "GET /static/"} {
		s.mux.Handle(p, ui)
	}
	s.mux.Handle("/", s.reader(func(w http.ResponseWriter, r *http.Request) error {
		if tok, ok := r.Context().Value(tokenKey{}).(catalog.Token); ok && r.Header.Get("Authorization") == "" {
			r = r.WithContext(web.WithUser(r.Context(), tok.Name))
		}
		ui.ServeHTTP(w, r)
		return nil
	}))
	return s
}

// ServeHTTP serves the API and the UI.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.mux.ServeHTTP(w, r) }

// httpError is an error with its HTTP status.
type httpError struct {
	code int
	err  error
	// challenge is the WWW-Authenticate header of a 401.
	challenge string
}

func (e *httpError) Error() string { return e.err.Error() }
func (e *httpError) Unwrap() error { return e.err }

// StatusCode is the HTTP status of the error; the web UI answers with it.
func (e *httpError) StatusCode() int { return e.code }

func errorf(code int, format string, args ...any) error {
	return &httpError{code: code, err: fmt.Errorf(format, args...)}
}

type handler func(w http.ResponseWriter, r *http.Request) error

// reader serves a read: anyone's on a public server; on a private one, a
// token's — in the Authorization header, or the browser session a sign-in
// made. A browser asking for a page without either is sent to sign in.
func (s *Server) reader(h handler) http.Handler {
	if !s.cfg.Private {
		return s.run(h)
	}
	return s.run(func(w http.ResponseWriter, r *http.Request) error {
		tok, err := s.authenticate(r, true)
		if errors.Is(err, errNoCredentials) && r.Method == http.MethodGet && !strings.HasPrefix(r.URL.Path, "/api/") {
			http.Redirect(w, r, "/signin?next="+url.QueryEscape(r.URL.RequestURI()), http.StatusSeeOther)
			return nil
		}
		if err != nil {
			return err
		}
		return h(w, r.WithContext(context.WithValue(r.Context(), tokenKey{}, tok)))
	})
}

// writer serves a request that must carry a push token in its
// Authorization header. A browser session is not enough: every write is a
// script's or droidprof push's, and a cookie sent along with a forged form
// must not be able to write.
func (s *Server) writer(h handler) http.Handler {
	return s.run(func(w http.ResponseWriter, r *http.Request) error {
		tok, err := s.authenticate(r, false)
		if err != nil {
			return err
		}
		if !tok.Scope.Allows(catalog.ScopePush) {
			return errorf(http.StatusForbidden, "token %q (%s) may only read; pushing needs a push token (droidprof serve token create --scope push)", tok.Name, tok.ID)
		}
		return h(w, r.WithContext(context.WithValue(r.Context(), tokenKey{}, tok)))
	})
}

// errNoCredentials is a request that carries neither a token nor a session.
var errNoCredentials = errors.New("this needs a token: send Authorization: Bearer TOKEN (create one with droidprof serve token create), or sign in at /signin")

// authenticate finds the token of r: its Authorization header, or, when
// cookies count, its session cookie.
func (s *Server) authenticate(r *http.Request, cookies bool) (catalog.Token, error) {
	auth := r.Header.Get("Authorization")
	if auth == "" && cookies {
		if c, err := r.Cookie(web.SessionCookie); err == nil {
			tok, err := s.cfg.Catalog.CheckSession(r.Context(), c.Value)
			if errors.Is(err, catalog.ErrNoSession) {
				return tok, errNoCredentials // signed out, expired or revoked: sign in again
			}
			return tok, err
		}
	}
	raw, ok := strings.CutPrefix(auth, "Bearer ")
	if !ok || raw == "" {
		if auth == "" {
			return catalog.Token{}, &httpError{code: http.StatusUnauthorized, err: errNoCredentials, challenge: `Bearer realm="droidprof"`}
		}
		return catalog.Token{}, &httpError{code: http.StatusUnauthorized, err: errors.New("the Authorization header must be Bearer TOKEN"), challenge: `Bearer realm="droidprof"`}
	}
	tok, err := s.cfg.Catalog.CheckToken(r.Context(), raw)
	if errors.Is(err, catalog.ErrBadToken) {
		return tok, &httpError{code: http.StatusUnauthorized, err: err, challenge: `Bearer realm="droidprof", error="invalid_token"`}
	}
	return tok, err
}

// SignIn starts a browser session for a token; the web UI's sign-in form
// calls it.
func (s *Server) SignIn(ctx context.Context, token string) (string, error) {
	tok, err := s.cfg.Catalog.CheckToken(ctx, token)
	if err != nil {
		return "", err
	}
	return s.cfg.Catalog.CreateSession(ctx, tok, SessionTTL)
}

// SignOut ends a browser session.
func (s *Server) SignOut(ctx context.Context, sid string) error {
	return s.cfg.Catalog.DeleteSession(ctx, sid)
}

// SessionTTL is how long a browser stays signed in.
const SessionTTL = 7 * 24 * time.Hour

type tokenKey struct{}

func (s *Server) run(h handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		err := h(w, r)
		if err == nil {
			return
		}
		code := http.StatusInternalServerError
		var he *httpError
		var mbe *http.MaxBytesError
		switch {
		case errors.As(err, &he):
			code = he.code
			if he.challenge != "" {
				w.Header().Set("WWW-Authenticate", he.challenge)
			}
		case errors.Is(err, catalog.ErrNotFound):
			code = http.StatusNotFound
		case errors.Is(err, blobs.ErrTooLarge), errors.As(err, &mbe):
			code = http.StatusRequestEntityTooLarge
		case errors.Is(err, blobs.ErrMismatch), errors.Is(err, blobs.ErrBadHash):
			code = http.StatusBadRequest
		case errors.Is(err, errNoCredentials):
			code = http.StatusUnauthorized
		case errors.Is(err, blobs.ErrNoSpace), errors.Is(err, catalog.ErrFull):
			code = http.StatusInsufficientStorage
		}
		if code >= 500 {
			s.cfg.Logger.Error("request failed", "method", r.Method, "path", r.URL.Path, "error", err)
		}
		if strings.HasPrefix(r.URL.Path, "/api/") || r.Method != http.MethodGet {
			fail(w, code, err)
			return
		}
		http.Error(w, err.Error(), code)
	})
}

func fail(w http.ResponseWriter, code int, err error) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(map[string]string{"error": err.Error()})
}

func reply(w http.ResponseWriter, code int, v any) error {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// runIDRE is what a run ID may look like: the run store's IDs and any
// name safe as a directory name.
var runIDRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$`)

func checkRunID(id string) error {
	if !runIDRE.MatchString(id) {
		return errorf(http.StatusBadRequest, "invalid run ID %q: letters, digits, '.', '_' and '-' only, at most 128", id)
	}
	return nil
}

// checkPath accepts a run-relative, slash-separated, clean path that stays
// inside the run directory.
func checkPath(p string) error {
	switch {
	case p == "" || len(p) > maxPathLen:
		return errorf(http.StatusBadRequest, "file path %q: empty or longer than %d bytes", p, maxPathLen)
	case strings.HasPrefix(p, "/") || strings.Contains(p, `\`) || strings.ContainsRune(p, 0):
		return errorf(http.StatusBadRequest, "file path %q: must be relative to the run directory, with / separators", p)
	case path.Clean(p) != p || p == "." || p == ".." || strings.HasPrefix(p, "../"):
		return errorf(http.StatusBadRequest, "file path %q: must stay inside the run directory (no .., no ./, no //)", p)
	}
	return nil
}

func (s *Server) headBlob(w http.ResponseWriter, r *http.Request) error {
	h := r.PathValue("sha")
	if !blobs.ValidHash(h) {
		return errorf(http.StatusBadRequest, "%q: %w", h, blobs.ErrBadHash)
	}
	if !s.cfg.Blobs.Has(h) {
		w.Header().Set("Upload-Offset", strconv.FormatInt(s.cfg.Blobs.Offset(h), 10))
		w.WriteHeader(http.StatusNotFound)
		return nil
	}
	w.WriteHeader(http.StatusOK)
	return nil
}

func (s *Server) putBlob(w http.ResponseWriter, r *http.Request) error {
	h := r.PathValue("sha")
	if r.ContentLength > s.cfg.MaxBlob {
		return errorf(http.StatusRequestEntityTooLarge, "blob %s: %d bytes is over the server's limit of %d", h, r.ContentLength, s.cfg.MaxBlob)
	}
	created, err := s.cfg.Blobs.Put(h, r.Body, s.cfg.MaxBlob)
	if err != nil {
		return err
	}
	code := http.StatusOK
	if created {
		code = http.StatusCreated
	}
	return reply(w, code, map[string]any{"sha256": h, "created": created})
}

// patchBlob appends to a resumable upload: Upload-Offset says where the body
// starts, Upload-Length how large the whole file is.
func (s *Server) patchBlob(w http.ResponseWriter, r *http.Request) error {
	h := r.PathValue("sha")
	off, err1 := strconv.ParseInt(r.Header.Get("Upload-Offset"), 10, 64)
	size, err2 := strconv.ParseInt(r.Header.Get("Upload-Length"), 10, 64)
	if err1 != nil || err2 != nil || off < 0 || size < 0 || off > size {
		return errorf(http.StatusBadRequest, "blob %s: a resumable upload needs Upload-Offset and Upload-Length headers (bytes, offset ≤ length)", h)
	}
	if size > s.cfg.MaxBlob {
		return errorf(http.StatusRequestEntityTooLarge, "blob %s: %d bytes is over the server's limit of %d", h, size, s.cfg.MaxBlob)
	}
	newOff, stored, err := s.cfg.Blobs.Append(h, off, size, r.Body, s.cfg.MaxBlob)
	w.Header().Set("Upload-Offset", strconv.FormatInt(newOff, 10))
	var oe *blobs.OffsetError
	switch {
	case errors.As(err, &oe):
		return &httpError{code: http.StatusConflict, err: err}
	case err != nil:
		return err
	case newOff < size:
		return reply(w, http.StatusAccepted, map[string]any{"sha256": h, "offset": newOff})
	}
	code := http.StatusOK
	if stored {
		code = http.StatusCreated
	}
	return reply(w, code, map[string]any{"sha256": h, "created": stored})
}

// Manifest is the body of PUT /api/v1/runs/{id}.
type Manifest struct {
	Files []catalog.File `json:"files"`
}

func (s *Server) putRun(w http.ResponseWriter, r *http.Request) error {
	id := r.PathValue("id")
	if err := checkRunID(id); err != nil {
		return err
	}
	var m Manifest
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, DefaultMaxManifest))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return errorf(http.StatusRequestEntityTooLarge, "run %s: the file list is over %d bytes", id, DefaultMaxManifest)
		}
		return errorf(http.StatusBadRequest, "run %s: the file list is not valid JSON: %v", id, err)
	}
	if len(m.Files) > maxFiles {
		return errorf(http.StatusRequestEntityTooLarge, "run %s: %d files, over the limit of %d", id, len(m.Files), maxFiles)
	}
	seen := map[string]bool{}
	var resultsFile *catalog.File
	var missing []string
	for i, f := range m.Files {
		if err := checkPath(f.Path); err != nil {
			return err
		}
		if seen[f.Path] {
			return errorf(http.StatusBadRequest, "run %s: file %s listed twice", id, f.Path)
		}
		seen[f.Path] = true
		if !blobs.ValidHash(f.SHA256) || f.Size < 0 {
			return errorf(http.StatusBadRequest, "run %s: file %s: sha256 %q is not a SHA-256 in lowercase hex, or its size is negative", id, f.Path, f.SHA256)
		}
		if !s.cfg.Blobs.Has(f.SHA256) {
			missing = append(missing, f.SHA256)
		}
		if f.Path == results.FileName {
			resultsFile = &m.Files[i]
		}
	}
	if resultsFile == nil {
		return errorf(http.StatusBadRequest, "run %s: the file list has no %s", id, results.FileName)
	}
	if len(missing) > 0 {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusConflict)
		return json.NewEncoder(w).Encode(map[string]any{"error": fmt.Sprintf("run %s: %d files are not on the server yet: PUT /api/v1/blobs/SHA256 first", id, len(missing)), "missing": missing})
	}
	res, err := s.readResults(resultsFile.SHA256)
	if err != nil {
		return errorf(http.StatusBadRequest, "run %s: %v", id, err)
	}
	if res.RunID != id {
		return errorf(http.StatusBadRequest, "run %s: its %s is of run %q", id, results.FileName, res.RunID)
	}
	tok, _ := r.Context().Value(tokenKey{}).(catalog.Token)
	name := tok.Name
	run, metrics := summarize(res, resultsFile.SHA256, name)
	out, err := s.cfg.Catalog.Put(r.Context(), run, m.Files, metrics)
	if err != nil {
		return err
	}
	code, word := http.StatusCreated, "stored"
	switch out {
	case catalog.Unchanged:
		code, word = http.StatusOK, "unchanged"
	case catalog.Replaced:
		code, word = http.StatusOK, "replaced"
	}
	s.cfg.Logger.Info("run pushed", "run", id, "outcome", word, "by", name, "files", len(m.Files))
	return reply(w, code, map[string]string{"run_id": id, "outcome": word})
}

// readResults parses a stored results.json.
func (s *Server) readResults(sha string) (*results.Results, error) {
	f, err := s.cfg.Blobs.Open(sha)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, DefaultMaxResults+1))
	if err != nil {
		return nil, err
	}
	if len(data) > DefaultMaxResults {
		return nil, fmt.Errorf("%s is over %d bytes", results.FileName, DefaultMaxResults)
	}
	var res results.Results
	if err := json.Unmarshal(data, &res); err != nil {
		return nil, fmt.Errorf("%s is not valid: %w", results.FileName, err)
	}
	return &res, nil
}

// summarize makes the catalog row and metric medians of a run.
func summarize(res *results.Results, sha, by string) (catalog.Run, []catalog.Metric) {
	fp := res.Fingerprint
	run := catalog.Run{
		ID: res.RunID, Experiment: res.Experiment, Status: res.Status, Started: res.Started, Finished: res.Finished,
		Hostname: fp.Hostname, OS: fp.OS, Arch: fp.Arch, CPUModel: fp.CPUModel, FSType: fp.FSType,
		StorageBackend: fp.StorageBackend, DroidprofVersion: fp.DroidprofVersion,
		ResultsSHA256: sha, Pushed: time.Now().UTC(), PushedBy: by, Device: Device(res),
	}
	plugins := map[string]bool{}
	for name := range fp.Plugins {
		plugins[name] = true
	}
	for _, st := range res.Steps {
		if p, _, ok := strings.Cut(st.Collector, "."); ok {
			plugins[p] = true
		}
	}
	for p := range plugins {
		run.Plugins = append(run.Plugins, p)
	}
	sort.Strings(run.Plugins)
	var metrics []catalog.Metric
	seen := map[string]bool{}
	for _, m := range res.Metrics {
		k := m.Key()
		if seen[k] || len(m.Samples) == 0 {
			continue // compare matches metrics by key; the first one wins there too
		}
		seen[k] = true
		metrics = append(metrics, catalog.Metric{Key: k, Name: m.Name, Unit: m.Unit, Better: m.Better, Median: stats.Median(m.Samples), N: len(m.Samples)})
	}
	return run, metrics
}

// DeviceLabel is the label that names a run's device.
const DeviceLabel = "device"

// Device is what a run ran on, for ranking devices as paper 002's Fig. 3
// does: the value of the "device" label when the run's steps carry one
// (set it in the experiment's matrix), else the fingerprint's CPU model,
// the most specific description of the machine the fingerprint has, else
// the host's name. Steps with different devices make no one device.
func Device(res *results.Results) string {
	label := ""
	for _, st := range res.Steps {
		v, ok := st.Labels[DeviceLabel]
		if !ok {
			continue
		}
		if label != "" && v != label {
			label = ""
			break
		}
		label = v
	}
	switch {
	case label != "":
		return label
	case res.Fingerprint.CPUModel != "":
		return res.Fingerprint.CPUModel
	}
	return res.Fingerprint.Hostname
}

func (s *Server) listRuns(w http.ResponseWriter, r *http.Request) error {
	f, err := catalog.ParseFilter(r.URL.Query())
	if err != nil {
		return &httpError{code: http.StatusBadRequest, err: err}
	}
	runs, err := s.cfg.Catalog.List(r.Context(), f)
	if err != nil {
		return err
	}
	return reply(w, http.StatusOK, runs)
}

// Run returns a stored run, its files and its results; the web UI reads
// runs through it.
func (s *Server) Run(ctx context.Context, id string) (catalog.Run, []catalog.File, *results.Results, error) {
	if err := checkRunID(id); err != nil {
		return catalog.Run{}, nil, nil, err
	}
	run, files, err := s.cfg.Catalog.Get(ctx, id)
	if err != nil {
		return run, nil, nil, err
	}
	res, err := s.readResults(run.ResultsSHA256)
	if err != nil {
		return run, nil, nil, fmt.Errorf("run %s: %w", id, err)
	}
	return run, files, res, nil
}

// List returns the runs f selects.
func (s *Server) List(ctx context.Context, f catalog.Filter) ([]catalog.Run, error) {
	return s.cfg.Catalog.List(ctx, f)
}

// Rank ranks hosts or devices on a metric of an experiment.
func (s *Server) Rank(ctx context.Context, experiment, metric string, by catalog.GroupBy) (*catalog.Ranking, error) {
	if _, err := catalog.ParseGroupBy(string(by)); err != nil {
		return nil, &httpError{code: http.StatusBadRequest, err: err}
	}
	return s.cfg.Catalog.Rank(ctx, experiment, metric, by)
}

// Metrics lists an experiment's metric keys.
func (s *Server) Metrics(ctx context.Context, experiment string) ([]string, error) {
	return s.cfg.Catalog.Metrics(ctx, experiment)
}

// Experiments lists the experiments of the stored runs.
func (s *Server) Experiments(ctx context.Context) ([]string, error) {
	return s.cfg.Catalog.Experiments(ctx)
}

// Compare compares two stored runs as droidprof compare does.
func (s *Server) Compare(ctx context.Context, a, b string) (*compare.Comparison, error) {
	_, _, ra, err := s.Run(ctx, a)
	if err != nil {
		return nil, err
	}
	_, _, rb, err := s.Run(ctx, b)
	if err != nil {
		return nil, err
	}
	return compare.Compare(ra, rb, compare.Options{}), nil
}

// File opens a stored run's file.
func (s *Server) File(ctx context.Context, id, p string) (io.ReadSeekCloser, catalog.File, error) {
	if err := checkRunID(id); err != nil {
		return nil, catalog.File{}, err
	}
	if err := checkPath(p); err != nil {
		return nil, catalog.File{}, err
	}
	_, files, err := s.cfg.Catalog.Get(ctx, id)
	if err != nil {
		return nil, catalog.File{}, err
	}
	for _, f := range files {
		if f.Path == p {
			rc, err := s.cfg.Blobs.Open(f.SHA256)
			return rc, f, err
		}
	}
	return nil, catalog.File{}, fmt.Errorf("run %s has no file %s: %w", id, p, catalog.ErrNotFound)
}

func (s *Server) getRun(w http.ResponseWriter, r *http.Request) error {
	run, files, res, err := s.Run(r.Context(), r.PathValue("id"))
	if err != nil {
		return err
	}
	return reply(w, http.StatusOK, map[string]any{"run": run, "files": files, "results": res})
}

func (s *Server) getFile(w http.ResponseWriter, r *http.Request) error {
	rc, f, err := s.File(r.Context(), r.PathValue("id"), r.PathValue("path"))
	if err != nil {
		return err
	}
	defer rc.Close()
	web.ServeFile(w, r, f.Path, rc)
	return nil
}

func (s *Server) compareRuns(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	c, err := s.Compare(r.Context(), q.Get("a"), q.Get("b"))
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/json")
	return compare.WriteJSON(w, c)
}

func (s *Server) experiments(w http.ResponseWriter, r *http.Request) error {
	e, err := s.Experiments(r.Context())
	if err != nil {
		return err
	}
	return reply(w, http.StatusOK, e)
}

func (s *Server) metrics(w http.ResponseWriter, r *http.Request) error {
	m, err := s.Metrics(r.Context(), r.URL.Query().Get("experiment"))
	if err != nil {
		return err
	}
	return reply(w, http.StatusOK, m)
}

func (s *Server) rank(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	rk, err := s.Rank(r.Context(), q.Get("experiment"), q.Get("metric"), catalog.GroupBy(q.Get("by")))
	if err != nil {
		return err
	}
	return reply(w, http.StatusOK, rk)
}
