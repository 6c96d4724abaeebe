package server_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/droidprof/droidprof/framework/server"
	"github.com/droidprof/droidprof/framework/server/catalog"
	"github.com/droidprof/droidprof/internal/testenv"
)

// TestBrowser drives Debian's chromium headless through what a user does:
// push runs, list and filter them, open a run, compare two, rank the hosts.
// It checks what the pages show, and keeps a screenshot of each page in
// the test's artifact directory (go test -artifacts).
func TestBrowser(t *testing.T) {
	chromium := testenv.Tool(t, "chromium", "chromium")
	e := newEnv(t, server.Config{})
	for _, r := range []run{
		{id: "fast-1", experiment: "browse", host: "fasthost", samples: []float64{20, 21, 22, 20, 21, 22}},
		{id: "slow-1", experiment: "browse", host: "slowhost", samples: []float64{10, 11, 12, 10, 11, 12}},
		{id: "other-1", experiment: "elsewhere", host: "slowhost"},
	} {
		if _, err := e.clientOf(e.token).Push(context.Background(), makeRun(t, r)); err != nil {
			t.Fatal(err)
		}
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(chromium), chromedp.NoSandbox, chromedp.WindowSize(1280, 900))
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()

	shots := t.ArtifactDir()
	// step runs actions, then keeps a screenshot of the page as name.png.
	step := func(name string, steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(ctx, steps...); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatalf("%s: screenshot: %v", name, err)
		}
		if err := os.WriteFile(filepath.Join(shots, name+".png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	text := func(sel string) string {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
		if err != nil {
			t.Fatalf("text of %s: %v", sel, err)
		}
		return s
	}

	// The list, then filtered to one experiment.
	step("1-runs", chromedp.Navigate(e.srv.URL+"/"), chromedp.WaitVisible(chromedp.CSS("table")))
	list := text("body")
	for _, id := range []string{"fast-1", "slow-1", "other-1"} {
		if !strings.Contains(list, id) {
			t.Errorf("the runs page lacks %s:\n%s", id, list)
		}
	}
	step("2-runs-filtered",
		chromedp.SetValue(chromedp.CSS(`input[name="experiment"]`), "browse"),
		chromedp.Submit(chromedp.CSS(`input[name="experiment"]`)),
		chromedp.WaitVisible(chromedp.CSS(`input[name="experiment"][value="browse"]`)))
	if filtered := text("tbody"); !strings.Contains(filtered, "fast-1") || strings.Contains(filtered, "other-1") {
		t.Errorf("filtered on experiment browse:\n%s", filtered)
	}

	// A run's page, reached by its link, with its metric and its figure.
	step("3-run",
		chromedp.Click(chromedp.CSS(`a[href="/runs/fast-1"]`)),
		chromedp.WaitVisible(chromedp.CSS("figure img")),
		ignore(chromedp.Poll[bool](`document.querySelector("figure img").complete`)))
	if page := text("body"); !strings.Contains(page, "throughput") || !strings.Contains(page, "fasthost") || !strings.Contains(page, "figure of browse") {
		t.Errorf("run page:\n%s", page)
	}
	if w, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelector("figure img").naturalWidth`)); err != nil || w == 0 {
		t.Errorf("the run's figure did not load: width %d, %v", w, err)
	}

	// Compare the two runs chosen on the list.
	step("4-compare",
		chromedp.Navigate(e.srv.URL+"/?experiment=browse"),
		chromedp.Click(chromedp.CSS(`input[name="a"][value="slow-1"]`)),
		chromedp.Click(chromedp.CSS(`input[name="b"][value="fast-1"]`)),
		chromedp.Submit(chromedp.CSS(`input[name="a"]`)),
		// The list page has an h1 too: wait for what only the
		// comparison has, else the screenshot may be taken
		// mid-navigation (0 width).
		chromedp.WaitVisible(chromedp.CSS(`a[href^="/compare?a="]`)))
	loc, err := chromedp.Run(ctx, chromedp.Location())
	if err != nil || !strings.Contains(loc, "a=slow-1") || !strings.Contains(loc, "b=fast-1") {
		t.Errorf("the comparison's URL is not shareable: %s %v", loc, err)
	}
	if cmp := text("body"); !strings.Contains(cmp, "Comparison") || !strings.Contains(cmp, "+90.91%") {
		t.Errorf("compare page:\n%s", cmp)
	}

	// The ranking: the fast host first.
	step("5-ranking",
		chromedp.Navigate(e.srv.URL+"/rank?experiment=browse&metric=throughput"),
		chromedp.WaitVisible(chromedp.CSS("tbody tr")))
	if first, second := text("tbody tr:nth-child(1) td:nth-child(2)"), text("tbody tr:nth-child(2) td:nth-child(2)"); first != "fasthost" || second != "slowhost" {
		t.Errorf("ranking: %q then %q, want fasthost then slowhost", first, second)
	}
	step("6-ranking-devices",
		chromedp.Navigate(e.srv.URL+"/rank?experiment=browse&metric=throughput&by=device"),
		chromedp.WaitVisible(chromedp.CSS("tbody tr")))
	if first := text("tbody tr:nth-child(1) td:nth-child(2)"); first != "cpu of fasthost" {
		t.Errorf("ranking by device: %q first, want cpu of fasthost", first)
	}

	// A private server: a page asked for leads to the sign-in form, a wrong
	// token is refused there, a read token leads back to the page; the
	// session cookie is out of scripts' reach; signing out ends it.
	p := newEnv(t, server.Config{Private: true})
	if _, err := p.clientOf(p.token).Push(context.Background(), makeRun(t, run{id: "private-1", experiment: "secret", host: "lab"})); err != nil {
		t.Fatal(err)
	}
	reader, err := p.cat.CreateToken(context.Background(), "browser", catalog.ScopeRead)
	if err != nil {
		t.Fatal(err)
	}
	step("7-signin",
		chromedp.Navigate(p.srv.URL+"/runs/private-1"),
		chromedp.WaitVisible(chromedp.CSS(`input[name="token"]`)))
	if loc, err := chromedp.Run(ctx, chromedp.Location()); err != nil || !strings.Contains(loc, "/signin?next=%2Fruns%2Fprivate-1") {
		t.Errorf("a private page without signing in led to %s %v", loc, err)
	}
	if page := text("body"); strings.Contains(page, "secret") {
		t.Errorf("the sign-in page shows the run:\n%s", page)
	}
	step("8-signin-refused",
		chromedp.SendKeys(chromedp.CSS(`input[name="token"]`), p.token[:len(p.token)-2]+"00"),
		chromedp.Submit(chromedp.CSS(`input[name="token"]`)),
		chromedp.WaitVisible(chromedp.CSS(`.error`)))
	if msg := text(".error"); !strings.Contains(msg, "not valid") {
		t.Errorf("a wrong token: %q", msg)
	}
	step("9-signed-in",
		chromedp.SendKeys(chromedp.CSS(`input[name="token"]`), reader),
		chromedp.Submit(chromedp.CSS(`input[name="token"]`)),
		chromedp.WaitVisible(chromedp.CSS(`form.signout`)))
	if loc, err := chromedp.Run(ctx, chromedp.Location()); err != nil || !strings.HasSuffix(loc, "/runs/private-1") {
		t.Errorf("signed in, at %s %v; want back at the run", loc, err)
	}
	if page := text("body"); !strings.Contains(page, "secret") || !strings.Contains(page, "“browser”") {
		t.Errorf("the run after signing in:\n%s", page)
	}
	if c, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.cookie`)); err != nil || c != "" {
		t.Errorf("a script sees the cookies %q (%v): the session cookie must be HttpOnly", c, err)
	}
	step("10-signed-out",
		chromedp.Click(chromedp.CSS(`form.signout button`)),
		chromedp.WaitVisible(chromedp.CSS(`input[name="token"]`)),
		chromedp.Navigate(p.srv.URL+"/"),
		chromedp.WaitVisible(chromedp.CSS(`input[name="token"]`)))
	if page := text("body"); strings.Contains(page, "private-1") {
		t.Errorf("the runs after signing out:\n%s", page)
	}
}

// ignore drops an action's value.
func ignore[T any](a chromedp.Action[T]) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		_, err := a(ctx, t)
		return chromedp.Void{}, err
	}
}
