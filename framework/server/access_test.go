package server_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/droidprof/droidprof/framework/server"
	"github.com/droidprof/droidprof/framework/server/catalog"
	"github.com/droidprof/droidprof/framework/server/web"
)

// form posts a form to the server, without following the redirect, with
// cookie when it is not nil.
func (e *env) form(path string, values url.Values, cookie *http.Cookie) (*http.Response, string) {
	e.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, e.srv.URL+path, strings.NewReader(values.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if cookie != nil {
		req.AddCookie(cookie)
	}
	resp, err := noRedirects.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp, string(data)
}

// withCookie makes a GET with a session cookie (or none) and no token.
func (e *env) withCookie(method, path string, cookie *http.Cookie) *http.Response {
	e.t.Helper()
	req, _ := http.NewRequest(method, e.srv.URL+path, strings.NewReader("x"))
	if cookie != nil {
		req.AddCookie(cookie)
	}
	resp, err := noRedirects.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp
}

func sessionCookie(resp *http.Response) *http.Cookie {
	for _, c := range resp.Cookies() {
		if c.Name == web.SessionCookie {
			return c
		}
	}
	return nil
}

// TestSignIn: a browser on a private server is sent to the sign-in form
// with the page it asked for; a wrong token is refused there; a right one
// sets an HttpOnly, SameSite=Strict session cookie that is not the token,
// and leads back to the page; the session reads but cannot write; signing
// out, and revoking the token, end it at once.
func TestSignIn(t *testing.T) {
	e := newEnv(t, server.Config{Private: true})
	reader, err := e.cat.CreateToken(context.Background(), "reader", catalog.ScopeRead)
	if err != nil {
		t.Fatal(err)
	}
	const page = "/rank?experiment=x&metric=y"
	resp := e.withCookie(http.MethodGet, page, nil)
	if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusSeeOther || loc != "/signin?next="+url.QueryEscape(page) {
		t.Fatalf("a page without signing in: %d to %q", resp.StatusCode, loc)
	}
	if code, body := e.get("/signin?next="+url.QueryEscape(page), ""); code != 200 || !strings.Contains(body, `type="password"`) || !strings.Contains(body, `value="/rank?experiment=x&amp;metric=y"`) {
		t.Errorf("the sign-in form: %d\n%s", code, body)
	}

	for _, bad := range []string{"", "dpt_nonsense", reader + "0", e.token[:len(e.token)-1] + "x"} {
		resp, body := e.form("/signin", url.Values{"token": {bad}, "next": {page}}, nil)
		if resp.StatusCode != http.StatusUnauthorized || sessionCookie(resp) != nil || !strings.Contains(body, "not valid") {
			t.Errorf("sign in with %q: %d, cookie %v\n%s", bad, resp.StatusCode, sessionCookie(resp), body)
		}
	}

	resp, _ = e.form("/signin", url.Values{"token": {reader}, "next": {page}}, nil)
	c := sessionCookie(resp)
	switch {
	case resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != page:
		t.Fatalf("sign in: %d to %q, want back to %s", resp.StatusCode, resp.Header.Get("Location"), page)
	case c == nil:
		t.Fatal("sign in set no session cookie")
	case !c.HttpOnly || c.SameSite != http.SameSiteStrictMode || c.Path != "/":
		t.Errorf("session cookie %+v: want HttpOnly, SameSite=Strict, Path=/", c)
	case strings.Contains(c.Value, strings.TrimPrefix(reader, "dpt_")[17:]) || strings.Contains(resp.Header.Get("Location"), "dpt_"):
		t.Errorf("the token's secret is in the cookie or the URL: %q %q", c.Value, resp.Header.Get("Location"))
	}
	c = &http.Cookie{Name: c.Name, Value: c.Value}
	for _, p := range []string{"/", page, "/api/v1/runs"} {
		if resp := e.withCookie(http.MethodGet, p, c); resp.StatusCode != http.StatusOK {
			t.Errorf("%s signed in: %d", p, resp.StatusCode)
		}
	}
	if _, body := e.form("/signin", url.Values{"token": {reader}}, nil); strings.Contains(body, "sign out") {
		t.Error("the sign-in answer shows a signed-in page")
	}
	req, _ := http.NewRequest(http.MethodGet, e.srv.URL+"/", nil)
	req.AddCookie(c)
	if resp, err := noRedirects.Do(req); err == nil {
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if !strings.Contains(string(body), "sign out") || !strings.Contains(string(body), "“reader”") {
			t.Errorf("a signed-in page does not offer to sign out:\n%s", body)
		}
	}
	// A session never writes, whatever its token's scope.
	pusherSession := func() *http.Cookie {
		resp, _ := e.form("/signin", url.Values{"token": {e.token}}, nil)
		return sessionCookie(resp)
	}()
	for _, s := range []*http.Cookie{c, pusherSession} {
		if resp := e.withCookie(http.MethodPut, "/api/v1/blobs/"+sum([]byte("x")), s); resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("a write with a session cookie and no token: %d", resp.StatusCode)
		}
	}

	// Another site's form signs no one in or out.
	for _, p := range []string{"/signin", "/signout"} {
		req, _ := http.NewRequest(http.MethodPost, e.srv.URL+p, strings.NewReader(url.Values{"token": {reader}}.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Origin", "https://evil.example")
		req.AddCookie(c)
		resp, err := noRedirects.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusForbidden || sessionCookie(resp) != nil {
			t.Errorf("POST %s from another site: %d, cookie %v", p, resp.StatusCode, sessionCookie(resp))
		}
	}
	if resp := e.withCookie(http.MethodGet, "/", c); resp.StatusCode != http.StatusOK {
		t.Errorf("the session after another site's sign-out: %d", resp.StatusCode)
	}

	// Only local pages to go back to.
	for _, next := range []string{"//evil.example/", "https://evil.example/", `/\evil.example`, "javascript:alert(1)"} {
		resp, _ := e.form("/signin", url.Values{"token": {reader}, "next": {next}}, nil)
		if loc := resp.Header.Get("Location"); loc != "/" {
			t.Errorf("sign in with next=%q leads to %q", next, loc)
		}
	}

	// Signing out ends the session on the server, not only in the browser.
	resp, _ = e.form("/signout", nil, c)
	if resp.StatusCode != http.StatusSeeOther || sessionCookie(resp) == nil || sessionCookie(resp).MaxAge >= 0 {
		t.Errorf("sign out: %d, cookie %v", resp.StatusCode, sessionCookie(resp))
	}
	if resp := e.withCookie(http.MethodGet, "/", c); resp.StatusCode != http.StatusSeeOther {
		t.Errorf("the signed-out session still reads: %d", resp.StatusCode)
	}
	if resp := e.withCookie(http.MethodGet, "/api/v1/runs", c); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("the signed-out session still reads the API: %d", resp.StatusCode)
	}

	// Revoking the token ends its sessions at once.
	resp, _ = e.form("/signin", url.Values{"token": {reader}}, nil)
	c2 := sessionCookie(resp)
	if resp := e.withCookie(http.MethodGet, "/", c2); resp.StatusCode != http.StatusOK {
		t.Fatalf("a new session: %d", resp.StatusCode)
	}
	if _, err := e.cat.RevokeToken(context.Background(), "reader"); err != nil {
		t.Fatal(err)
	}
	if resp := e.withCookie(http.MethodGet, "/", c2); resp.StatusCode != http.StatusSeeOther {
		t.Errorf("a session of a revoked token: %d", resp.StatusCode)
	}
	if code, _ := e.get("/api/v1/runs", reader); code != http.StatusUnauthorized {
		t.Errorf("a revoked token reads: %d", code)
	}
}

// TestTokenScopes: a read token browses a private server but cannot push;
// a push token does both; a bad scope is refused.
func TestTokenScopes(t *testing.T) {
	e := newEnv(t, server.Config{Private: true})
	reader, err := e.cat.CreateToken(context.Background(), "reader", catalog.ScopeRead)
	if err != nil {
		t.Fatal(err)
	}
	dir := makeRun(t, run{id: "r1", experiment: "a", host: "h"})
	_, err = e.clientOf(reader).Push(context.Background(), dir)
	if err == nil || !strings.Contains(err.Error(), "403") || !strings.Contains(err.Error(), "may only read") {
		t.Errorf("push with a read token: %v", err)
	}
	if countBlobs(t, e.blobDir) != 0 {
		t.Error("a read token's push stored a blob")
	}
	if code, _ := e.get("/api/v1/runs", reader); code != http.StatusOK {
		t.Errorf("read with a read token: %d", code)
	}
	if _, err := e.clientOf(e.token).Push(context.Background(), dir); err != nil {
		t.Errorf("push with a push token: %v", err)
	}
	if runs := e.list(""); len(runs) != 1 {
		t.Errorf("runs: %+v", runs)
	}
	if _, err := e.cat.CreateToken(context.Background(), "x", "admin"); err == nil || !strings.Contains(err.Error(), "read or push") {
		t.Errorf("a token of scope admin: %v", err)
	}
}

// TestTokenListAndRevoke: the list names every token with its scope, when
// it was made and last used, never its secret; revoking by ID or by name
// refuses the token at the next request; a name two tokens share is not
// enough to revoke.
func TestTokenListAndRevoke(t *testing.T) {
	e := newEnv(t, server.Config{})
	ctx := context.Background()
	before := time.Now().Add(-time.Second)
	a, _ := e.cat.CreateToken(ctx, "lab", catalog.ScopePush)
	b, _ := e.cat.CreateToken(ctx, "lab", catalog.ScopeRead)
	c, _ := e.cat.CreateToken(ctx, "laptop", catalog.ScopePush)
	dir := makeRun(t, run{id: "r1", experiment: "a", host: "h"})
	if _, err := e.clientOf(c).Push(ctx, dir); err != nil {
		t.Fatal(err)
	}
	toks, err := e.cat.Tokens(ctx)
	if err != nil {
		t.Fatal(err)
	}
	listed, _ := json.Marshal(toks)
	for _, secret := range []string{e.token, a, b, c} {
		if strings.Contains(string(listed), secret[21:]) {
			t.Errorf("the list shows a secret: %s", listed)
		}
	}
	byID := map[string]catalog.Token{}
	for _, tk := range toks {
		byID[tk.ID] = tk
	}
	idOf := func(tok string) string { return tok[4:20] }
	for _, tt := range []struct {
		tok, name string
		scope     catalog.Scope
		used      bool
	}{{e.token, "ci", catalog.ScopePush, false}, {a, "lab", catalog.ScopePush, false}, {b, "lab", catalog.ScopeRead, false}, {c, "laptop", catalog.ScopePush, true}} {
		got, ok := byID[idOf(tt.tok)]
		if !ok || got.Name != tt.name || got.Scope != tt.scope || got.Created.Before(before) || got.LastUsed.IsZero() == tt.used || !got.Revoked.IsZero() {
			t.Errorf("token %s: %+v, want name %s, scope %s, used %v", idOf(tt.tok), got, tt.name, tt.scope, tt.used)
		}
	}
	if _, err := e.cat.RevokeToken(ctx, "lab"); err == nil || !strings.Contains(err.Error(), "2 tokens") {
		t.Errorf("revoke a shared name: %v", err)
	}
	if _, err := e.cat.RevokeToken(ctx, "nosuch"); !errors.Is(err, catalog.ErrNotFound) {
		t.Errorf("revoke an unknown token: %v", err)
	}
	// Revoked by ID, then by name: each is refused on its next use.
	if _, err := e.cat.RevokeToken(ctx, idOf(a)); err != nil {
		t.Fatal(err)
	}
	if rt, err := e.cat.RevokeToken(ctx, "laptop"); err != nil || rt.ID != idOf(c) {
		t.Fatalf("revoke by name: %+v %v", rt, err)
	}
	res := makeRun(t, run{id: "r2", experiment: "a", host: "h"})
	for _, tok := range []string{a, c} {
		if _, err := e.clientOf(tok).Push(ctx, res); err == nil || !strings.Contains(err.Error(), "401") {
			t.Errorf("push with a revoked token: %v", err)
		}
	}
	if rt, err := e.cat.RevokeToken(ctx, "lab"); err != nil || rt.ID != idOf(b) {
		t.Errorf("the name once one token has it: %+v %v", rt, err)
	}
	toks, _ = e.cat.Tokens(ctx)
	revoked := 0
	for _, tk := range toks {
		if !tk.Revoked.IsZero() {
			revoked++
		}
	}
	if revoked != 3 || len(toks) != 4 {
		t.Errorf("after revoking 3 of 4: %+v", toks)
	}
}
