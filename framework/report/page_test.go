package report

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/droidprof/droidprof/framework/results"
	"github.com/droidprof/droidprof/internal/testenv"
)

// An interactive figure (a text/html page) is embedded in a sandboxed
// frame: in headless chromium its script runs and answers the report's
// message, but it can neither fetch from the network (a local server
// counts the attempts) nor read the report's document.
func TestPageFigure(t *testing.T) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer srv.Close()
	dir := t.TempDir()
	page := `<!DOCTYPE html><html><head><title>p</title></head><body><p id="x">page</p><script>
let fetched = "not tried", parentDoc = "not tried";
const tried = fetch("` + srv.URL + `/leak").then(() => fetched = "fetched", e => fetched = "blocked");
try { parentDoc = parent.document.title; } catch (e) { parentDoc = "blocked"; }
window.addEventListener("message", ev => { tried.then(() => ev.source.postMessage({fetched, parentDoc, ran: document.getElementById("x").textContent}, "*")); });
</script></body></html>`
	if err := os.MkdirAll(filepath.Join(dir, "analysis"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "analysis", "player.html"), []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	r := &results.Results{RunID: "r1", Experiment: "pages", Status: "complete",
		Figures: []results.Artifact{{Name: "player.html", Path: "analysis/player.html", MediaType: "text/html", Kind: "figure", Title: "A player"}}}
	if err := Write(dir, r); err != nil {
		t.Fatal(err)
	}
	html, err := os.ReadFile(filepath.Join(dir, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`<iframe class="page" sandbox="allow-scripts" srcdoc="`, "Content-Security-Policy", "A player"} {
		if !strings.Contains(string(html), want) {
			t.Errorf("report.html lacks %q", want)
		}
	}
	if strings.Contains(string(html), "<script>") {
		t.Error("the page's script is in the report unescaped, outside its frame")
	}

	chromium := testenv.Tool(t, "chromium", "chromium")
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(chromium), chromedp.NoSandbox)
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancel = context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Navigate("file://"+filepath.Join(dir, "report.html")), chromedp.WaitVisible(chromedp.CSS("iframe.page"))); err != nil {
		t.Fatal(err)
	}
	type reply struct{ Fetched, ParentDoc, Ran string }
	// Ask until the frame's script answers (it may not have loaded yet).
	got, err := chromedp.Run(ctx, chromedp.Evaluate[reply](`new Promise(resolve => {
  window.addEventListener("message", e => resolve(e.data));
  const ask = () => { document.querySelector("iframe.page").contentWindow.postMessage("state", "*"); setTimeout(ask, 50); };
  ask();
})`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	if got.Ran != "page" || got.Fetched != "blocked" || got.ParentDoc != "blocked" {
		t.Errorf("the framed page says %+v: want it ran, with the network and the report blocked", got)
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the framed page reached the network: %d requests", n)
	}
}
