package artobj

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/droidprof/droidprof/framework/report"
	"github.com/droidprof/droidprof/framework/results"
	"github.com/droidprof/droidprof/framework/sdk"
	"github.com/droidprof/droidprof/framework/sdk/sdktest"
	"github.com/droidprof/droidprof/internal/testenv"
	"github.com/droidprof/droidprof/plugins/artobj/chain"
	"github.com/droidprof/droidprof/vm/heap"
)

// The heap replay's player in the run's HTML report: the analyzer's page
// is embedded in a sandboxed frame; in headless chromium it plays there,
// and at rest (the end of the run) it shows as live in the window the
// objects the chains leave alive at exit in it.
func TestReplayPlayerInReport(t *testing.T) {
	chromium := testenv.Tool(t, "chromium", "chromium")
	c := sdktest.Start(t, Plugin())
	run := t.TempDir()
	cfg := map[string]any{"workload": "leak-list 3000", "vm": map[string]any{"heap_start": 1 << 20, "min_free": 64 << 10, "max_free": 256 << 10}}
	out, _, f := collectStep(t, c, run, "player", cfg)
	const size = 64 << 10
	an, err := c.Analyze(context.Background(), "artobj", map[string]any{"replay_size": size}, run, []*sdk.StepArtifacts{out.Step("artobj.artobj", nil, 0)})
	if err != nil {
		t.Fatal(err)
	}
	res := &results.Results{RunID: "r1", Experiment: "replay", Status: "complete"}
	for _, a := range an.Artifacts {
		if a.Kind == "figure" {
			res.Figures = append(res.Figures, results.Artifact{Name: a.Name, Path: a.Path, MediaType: a.MediaType, Kind: a.Kind, Title: a.Title})
		}
	}
	if err := report.Write(run, res); err != nil {
		t.Fatal(err)
	}
	html, err := os.ReadFile(filepath.Join(run, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(html), `sandbox="allow-scripts" srcdoc="`) || !strings.Contains(string(html), "animated: play, pause, scrub, speed") {
		t.Fatal("report.html has no framed replay player")
	}
	// The chains' objects alive at exit in the window.
	h := chain.Build(f)
	want := 0
	for i := range h.Objects {
		o := &h.Objects[i]
		if a := o.Chain[len(o.Chain)-1].Addr; o.Death == chain.Alive && a+o.Size > heap.MainBase && a < heap.MainBase+size {
			want++
		}
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(chromium), chromedp.NoSandbox)
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancel = context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Navigate("file://"+filepath.Join(run, "report.html")), chromedp.WaitVisible(chromedp.CSS("iframe.page"))); err != nil {
		t.Fatal(err)
	}
	type state struct {
		Time, End float64
		Live, GCs int
		Playing   bool
	}
	type reply struct{ Replay state }
	got, err := chromedp.Run(ctx, chromedp.Evaluate[reply](`new Promise(resolve => {
  window.addEventListener("message", e => resolve(e.data));
  const ask = () => { document.querySelector("iframe.page").contentWindow.postMessage("replay-state", "*"); setTimeout(ask, 50); };
  ask();
})`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	s := got.Replay
	if s.End != float64(h.AllocBytes) || s.Time != s.End || s.Playing || s.GCs != int(h.Epochs) {
		t.Errorf("player at rest: %+v, want the end of the run (%d bytes, %d collections)", s, h.AllocBytes, h.Epochs)
	}
	if s.Live != want || want == 0 {
		t.Errorf("the player shows %d live objects in the window at the end; the chains leave %d alive at exit there", s.Live, want)
	}
}
