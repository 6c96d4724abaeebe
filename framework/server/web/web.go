// Package web is the results server's browser UI: server-rendered pages
// (html/template, so every run name, label and value is escaped) and a
// style sheet, all embedded in the droidprof binary — no build step.
//
// Pages, each a link that can be shared (the state is in the URL):
//
//	/                    runs, filtered by ?experiment=&plugin=&host=&device=&fs=&since=&until=
//	/runs/{id}           a run: environment, metrics, tables, the report's figures
//	/compare?a=ID&b=ID   two runs compared with droidprof compare's statistics
//	/rank?experiment=&metric=&by=host|device
//	                     hosts or devices ranked on a metric (paper 002's Fig. 3)
//	/signin?next=PATH    a private server's sign-in form (a token), back to PATH
package web

import (
	"bytes"
	"context"
	"embed"
	"errors"
	"html/template"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"net/url"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/droidprof/droidprof/framework/compare"
	"github.com/droidprof/droidprof/framework/results"
	"github.com/droidprof/droidprof/framework/server/catalog"
	"github.com/droidprof/droidprof/framework/stats"
)

// Source is what the UI shows; the server implements it.
type Source interface {
	List(ctx context.Context, f catalog.Filter) ([]catalog.Run, error)
	Run(ctx context.Context, id string) (catalog.Run, []catalog.File, *results.Results, error)
	File(ctx context.Context, id, path string) (io.ReadSeekCloser, catalog.File, error)
	Compare(ctx context.Context, a, b string) (*compare.Comparison, error)
	Rank(ctx context.Context, experiment, metric string, by catalog.GroupBy) (*catalog.Ranking, error)
	Metrics(ctx context.Context, experiment string) ([]string, error)
	Experiments(ctx context.Context) ([]string, error)
}

// Sessions signs browsers in with a token and out again; the server
// implements it.
type Sessions interface {
	// SignIn checks token and returns a new session's secret ID.
	SignIn(ctx context.Context, token string) (string, error)
	SignOut(ctx context.Context, sid string) error
}

// SessionCookie is the cookie that carries a browser's session ID.
const SessionCookie = "droidprof_session"

type userKey struct{}

// WithUser marks a request as made in a signed-in session of the token
// named name; the pages then offer to sign out.
func WithUser(ctx context.Context, name string) context.Context {
	return context.WithValue(ctx, userKey{}, name)
}

// frame is what every page's header shows; each page's data embeds it.
type frame struct {
	Title string
	// User is the name of the signed-in session's token; empty when not
	// signed in (a public server, or an API client).
	User string
}

func (f *frame) setFrame(title, user string) { f.Title, f.User = title, user }

// framed is a page's data.
type framed interface{ setFrame(title, user string) }

//go:embed templates/*.html
var templateFS embed.FS

//go:embed static
var staticFS embed.FS

var funcs = template.FuncMap{
	"time": func(t time.Time) string {
		if t.IsZero() {
			return ""
		}
		return t.UTC().Format("2006-01-02 15:04")
	},
	"labels": results.LabelString,
	"num":    func(v float64) string { return compare.Formatter("")(v) },
	"join":   strings.Join,
	"runURL": func(id string) string { return "/runs/" + url.PathEscape(id) },
	"fileURL": func(id, p string) string {
		parts := strings.Split(p, "/")
		for i := range parts {
			parts[i] = url.PathEscape(parts[i])
		}
		return "/runs/" + url.PathEscape(id) + "/files/" + strings.Join(parts, "/")
	},
}

var pages = template.Must(template.New("").Funcs(funcs).ParseFS(templateFS, "templates/*.html"))

// UI serves the pages.
type UI struct {
	src  Source
	sess Sessions
	mux  *http.ServeMux
}

// New returns the UI over src.
func New(src Source, sess Sessions) *UI {
	u := &UI{src: src, sess: sess, mux: http.NewServeMux()}
	u.mux.HandleFunc("GET /signin", u.signInPage)
	u.mux.HandleFunc("POST /signin", u.signIn)
	u.mux.HandleFunc("POST /signout", u.signOut)
	u.mux.HandleFunc("GET /{$}", u.runs)
	u.mux.HandleFunc("GET /runs/{id}", u.run)
	u.mux.HandleFunc("GET /runs/{id}/files/{path...}", u.file)
	u.mux.HandleFunc("GET /compare", u.compare)
	u.mux.HandleFunc("GET /rank", u.rank)
	static, _ := fs.Sub(staticFS, "static")
	u.mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(static)))
	u.mux.HandleFunc("GET /static/compare.css", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/css; charset=utf-8")
		io.WriteString(w, compare.CSS) // the comparison looks as droidprof compare's page
	})
	return u
}

// ServeHTTP serves a page.
func (u *UI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// Pages run no script and load only their own style sheet and figures;
	// that bounds what an injected tag could do even if escaping failed.
	w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	u.mux.ServeHTTP(w, r)
}

// page renders template name with data, answering errors as a status.
func (u *UI) page(w http.ResponseWriter, r *http.Request, name, title string, data framed) {
	user, _ := r.Context().Value(userKey{}).(string)
	data.setFrame(title, user)
	var buf bytes.Buffer
	if err := pages.ExecuteTemplate(&buf, name, data); err != nil {
		http.Error(w, "render "+name+": "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write(buf.Bytes())
}

func fail(w http.ResponseWriter, err error) {
	code := http.StatusInternalServerError
	var sc interface{ StatusCode() int }
	switch {
	case errors.Is(err, catalog.ErrNotFound):
		code = http.StatusNotFound
	case errors.As(err, &sc):
		code = sc.StatusCode()
	}
	http.Error(w, err.Error(), code)
}

type runsPage struct {
	frame
	Filter      catalog.Filter
	Since       string
	Until       string
	Runs        []catalog.Run
	Experiments []string
	Error       string
}

func (u *UI) runs(w http.ResponseWriter, r *http.Request) {
	p := runsPage{}
	f, err := catalog.ParseFilter(r.URL.Query())
	if err != nil {
		w.WriteHeader(http.StatusBadRequest)
		p.Error = err.Error()
	} else {
		p.Filter = f
		if p.Runs, err = u.src.List(r.Context(), f); err != nil {
			fail(w, err)
			return
		}
	}
	p.Since, p.Until = r.URL.Query().Get("since"), r.URL.Query().Get("until")
	if p.Experiments, err = u.src.Experiments(r.Context()); err != nil {
		fail(w, err)
		return
	}
	u.page(w, r, "runs.html", "runs", &p)
}

type metricRow struct {
	results.Metric
	Median float64
}

type runPage struct {
	frame
	Run     catalog.Run
	Res     *results.Results
	Metrics []metricRow
	Figures []results.Artifact
	Report  bool
	Files   []catalog.File
}

func (u *UI) run(w http.ResponseWriter, r *http.Request) {
	run, files, res, err := u.src.Run(r.Context(), r.PathValue("id"))
	if err != nil {
		fail(w, err)
		return
	}
	p := runPage{Run: run, Res: res, Files: files}
	has := func(name string) bool {
		return slices.ContainsFunc(files, func(f catalog.File) bool { return f.Path == name })
	}
	for _, m := range res.Metrics {
		p.Metrics = append(p.Metrics, metricRow{Metric: m, Median: stats.Median(m.Samples)})
	}
	for _, f := range res.Figures {
		// Images only: an interactive figure (text/html) runs in the
		// run's report, linked below, not in an <img>.
		if has(f.Path) && f.MediaType != "text/html" {
			p.Figures = append(p.Figures, f)
		}
	}
	p.Report = has("report.html")
	u.page(w, r, "run.html", run.ID, &p)
}

func (u *UI) file(w http.ResponseWriter, r *http.Request) {
	rc, f, err := u.src.File(r.Context(), r.PathValue("id"), r.PathValue("path"))
	if err != nil {
		fail(w, err)
		return
	}
	defer rc.Close()
	ServeFile(w, r, f.Path, rc)
}

// ServeFile serves a pushed file. Its content came from whoever held a
// token, so it is sandboxed: an HTML report or an SVG opened directly runs
// no script and cannot reach the server's pages.
func ServeFile(w http.ResponseWriter, r *http.Request, name string, rc io.ReadSeeker) {
	ct := mime.TypeByExtension(path.Ext(name))
	if ct == "" {
		ct = "application/octet-stream"
	}
	w.Header().Set("Content-Type", ct)
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Content-Security-Policy", "sandbox; default-src 'none'; img-src data:; style-src 'unsafe-inline'")
	http.ServeContent(w, r, path.Base(name), time.Time{}, rc)
}

type comparePage struct {
	frame
	A, B  string
	Runs  []catalog.Run
	Table template.HTML
}

func (u *UI) compare(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	p := comparePage{A: q.Get("a"), B: q.Get("b")}
	if p.A == "" || p.B == "" {
		runs, err := u.src.List(r.Context(), catalog.Filter{Limit: 100})
		if err != nil {
			fail(w, err)
			return
		}
		p.Runs = runs
		u.page(w, r, "compare.html", "compare", &p)
		return
	}
	c, err := u.src.Compare(r.Context(), p.A, p.B)
	if err != nil {
		fail(w, err)
		return
	}
	// The comparison is the one droidprof compare --format html writes
	// (framework/compare escapes every string); its body is set in ours.
	var buf bytes.Buffer
	if err := compare.WriteHTML(&buf, c); err != nil {
		fail(w, err)
		return
	}
	p.Table = template.HTML(body(buf.String()))
	u.page(w, r, "compare.html", "compare", &p)
}

// body is what lies between <body> and </body> of a page.
func body(page string) string {
	if _, after, ok := strings.Cut(page, "<body>"); ok {
		page = after
	}
	if before, _, ok := strings.Cut(page, "</body>"); ok {
		page = before
	}
	return page
}

type rankPage struct {
	frame
	By          catalog.GroupBy
	Experiment  string
	Metric      string
	Experiments []string
	Metrics     []string
	Ranking     *catalog.Ranking
	Max         float64
}

func (u *UI) rank(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	p := rankPage{Experiment: q.Get("experiment"), Metric: q.Get("metric")}
	var err error
	if p.By, err = catalog.ParseGroupBy(q.Get("by")); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if p.Experiments, err = u.src.Experiments(r.Context()); err != nil {
		fail(w, err)
		return
	}
	if p.Experiment != "" {
		if p.Metrics, err = u.src.Metrics(r.Context(), p.Experiment); err != nil {
			fail(w, err)
			return
		}
	}
	if p.Experiment != "" && p.Metric != "" {
		if p.Ranking, err = u.src.Rank(r.Context(), p.Experiment, p.Metric, p.By); err != nil {
			fail(w, err)
			return
		}
		for _, h := range p.Ranking.Entries {
			p.Max = max(p.Max, h.Median)
		}
	}
	u.page(w, r, "rank.html", "ranking", &p)
}

type signInPage struct {
	frame
	Next  string
	Error string
}

// localPath is next when it is a path on this server, else "/": the
// redirect after signing in must not lead to another site ("//evil",
// "https://evil", "/\\evil").
func localPath(next string) string {
	if !strings.HasPrefix(next, "/") || strings.HasPrefix(next, "//") || strings.HasPrefix(next, "/\\") {
		return "/"
	}
	if u, err := url.Parse(next); err != nil || u.Host != "" || u.Scheme != "" {
		return "/"
	}
	return next
}

func (u *UI) signInPage(w http.ResponseWriter, r *http.Request) {
	u.page(w, r, "signin.html", "sign in", &signInPage{Next: localPath(r.URL.Query().Get("next"))})
}

// maxSignInForm bounds the sign-in form's body: a token and a path.
const maxSignInForm = 16 << 10

// signIn takes the token of the form, and on success sets the session
// cookie — HttpOnly, so no script reads it; SameSite=Strict, so no other
// site's page sends it — and goes back to the page asked for. The token
// itself is never in a URL or a cookie.
func (u *UI) signIn(w http.ResponseWriter, r *http.Request) {
	if !sameOrigin(r) {
		http.Error(w, "sign in: the form was sent from another site", http.StatusForbidden)
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxSignInForm)
	if err := r.ParseForm(); err != nil {
		http.Error(w, "sign in: the form: "+err.Error(), http.StatusBadRequest)
		return
	}
	p := signInPage{Next: localPath(r.PostForm.Get("next"))}
	sid, err := u.sess.SignIn(r.Context(), strings.TrimSpace(r.PostForm.Get("token")))
	if errors.Is(err, catalog.ErrBadToken) {
		w.WriteHeader(http.StatusUnauthorized)
		p.Error = "That token is not valid, or has been revoked."
		u.page(w, r, "signin.html", "sign in", &p)
		return
	}
	if err != nil {
		fail(w, err)
		return
	}
	http.SetCookie(w, &http.Cookie{
		Name: SessionCookie, Value: sid, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode,
		Secure: r.TLS != nil, MaxAge: int(sessionCookieAge.Seconds()),
	})
	http.Redirect(w, r, p.Next, http.StatusSeeOther)
}

// sessionCookieAge matches the server's session lifetime; the server, not
// the cookie, decides when a session ends.
const sessionCookieAge = 7 * 24 * time.Hour

// sameOrigin reports whether a form was posted from this server's own
// pages: another site's page must not sign a browser in (to a session of
// its choosing) or out. Browsers send Origin with every POST; a request
// without one is no browser's cross-site form.
func sameOrigin(r *http.Request) bool {
	o := r.Header.Get("Origin")
	if o == "" {
		return true
	}
	u, err := url.Parse(o)
	return err == nil && u.Host == r.Host
}

func (u *UI) signOut(w http.ResponseWriter, r *http.Request) {
	if !sameOrigin(r) {
		http.Error(w, "sign out: the form was sent from another site", http.StatusForbidden)
		return
	}
	if c, err := r.Cookie(SessionCookie); err == nil {
		if err := u.sess.SignOut(r.Context(), c.Value); err != nil {
			fail(w, err)
			return
		}
	}
	http.SetCookie(w, &http.Cookie{Name: SessionCookie, Value: "", Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode, MaxAge: -1})
	http.Redirect(w, r, "/signin", http.StatusSeeOther)
}
