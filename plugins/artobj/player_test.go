package artobj

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/droidprof/droidprof/framework/sdk"
	"github.com/droidprof/droidprof/framework/sdk/sdktest"
	"github.com/droidprof/droidprof/internal/testenv"
	"github.com/droidprof/droidprof/plugins/artobj/chain"
	"github.com/droidprof/droidprof/vm/heap"
)

// The analyzer's heap replay player (the page the HTML report frames;
// framework/report's TestPageFigure checks the framing), in headless
// chromium: at rest, the end of the run, it shows as live in the window
// the objects the chains leave alive at exit in it, and the run's
// collections.
func TestReplayPlayerPage(t *testing.T) {
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
	var page string
	for _, a := range an.Artifacts {
		if a.MediaType == "text/html" && a.Kind == "figure" && strings.Contains(a.Title, "animated: play, pause, scrub, speed") {
			page = filepath.Join(run, filepath.FromSlash(a.Path))
		}
	}
	if page == "" {
		t.Fatal("the analysis has no replay player page")
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
	if err := chromedp.Do(ctx, chromedp.Navigate("file://"+page), chromedp.WaitVisible(chromedp.CSS("#heap"))); err != nil {
		t.Fatal(err)
	}
	type state struct {
		Time, End float64
		Live, GCs int
		Playing   bool
	}
	s, err := chromedp.Run(ctx, chromedp.Evaluate[state](`window.replay.state()`))
	if err != nil {
		t.Fatal(err)
	}
	if s.End != float64(h.AllocBytes) || s.Time != s.End || s.Playing || s.GCs != int(h.Epochs) {
		t.Errorf("player at rest: %+v, want the end of the run (%d bytes, %d collections)", s, h.AllocBytes, h.Epochs)
	}
	if s.Live != want || want == 0 {
		t.Errorf("the player shows %d live objects in the window at the end; the chains leave %d alive at exit there", s.Live, want)
	}
}
