package replay

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/droidprof/droidprof/internal/testenv"
	"github.com/droidprof/droidprof/plugins/artobj/chain"
)

// testHeap is TestSVG's heap: A at base dies at GC 1 (after 120 bytes),
// grey until B takes its place at 150; D moves into the window at GC 1;
// C lives outside it. The run ends after 200 bytes.
func testHeap() *chain.Heap {
	const base = 0x1000
	return &chain.Heap{
		Objects: []chain.Object{
			{Size: 32, BirthBytes: 0, Death: 1, Chain: []chain.Step{{Epoch: 0, Addr: base}}},
			{Size: 64, BirthBytes: 100, Death: chain.Alive, Chain: []chain.Step{{Epoch: 0, Addr: 0x9000}, {Epoch: 1, Addr: base + 64}}},
			{Size: 16, BirthBytes: 150, Death: chain.Alive, Chain: []chain.Step{{Epoch: 1, Addr: base}}},
			{Size: 16, BirthBytes: 166, Death: chain.Alive, Chain: []chain.Step{{Epoch: 1, Addr: 0x8000}}},
		},
		Epochs: 1, AllocBytes: 200, EpochBytes: []uint64{0, 120},
	}
}

// The page is self-contained: nothing it loads comes from elsewhere.
func TestHTMLSelfContained(t *testing.T) {
	page, n := HTML(testHeap(), Window{Base: 0x1000, Size: 256}, `test <replay> & "more"`)
	if n != 3 {
		t.Errorf("%d objects, want the 3 in the window", n)
	}
	s := string(page)
	for _, bad := range []string{"http:", "https:", "src=", "href=", "@import", "url(", "<replay>"} {
		if strings.Contains(s, bad) {
			t.Errorf("the page contains %q", bad)
		}
	}
	if !strings.Contains(s, "test &lt;replay&gt; &amp; &#34;more&#34;") {
		t.Error("the title is not escaped")
	}
}

// Headless chromium drives the player: it rests on the whole run;
// scrubbing shows the heap at that time (live objects in the window,
// collections so far); Play restarts from the beginning and the clock
// advances until Pause stops it; the speed scales how far a frame goes.
func TestPlayerInChromium(t *testing.T) {
	chromium := testenv.Tool(t, "chromium", "chromium")
	page, _ := HTML(testHeap(), Window{Base: 0x1000, Size: 256}, "test replay")
	path := filepath.Join(t.TempDir(), "replay.html")
	if err := os.WriteFile(path, page, 0o644); err != nil {
		t.Fatal(err)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(chromium), chromedp.NoSandbox)
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancel = context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Navigate("file://"+path), chromedp.WaitVisible(chromedp.CSS("#heap"))); err != nil {
		t.Fatal(err)
	}
	type state struct {
		Time, End float64
		Live, GCs int
		Playing   bool
		Speed     float64
	}
	get := func() state {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Evaluate[state](`window.replay.state()`))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	if s := get(); s.Time != 200 || s.End != 200 || s.Live != 2 || s.GCs != 1 || s.Playing {
		t.Errorf("at load: %+v, want resting at the end (200 bytes), B and D live, 1 collection, paused", s)
	}
	// The scrubber, as a user drags it (an input event).
	for _, tc := range []struct {
		value     string
		time      float64
		live, gcs int
	}{
		{"300", 60, 1, 0},  // A alone
		{"650", 130, 1, 1}, // A collected at 120, D moved in
		{"800", 160, 2, 1}, // B in A's place, and D
		{"0", 0, 1, 0},     // A's allocation
	} {
		if err := chromedp.Do(ctx, chromedp.SetValue(chromedp.CSS("#scrub"), tc.value),
			chromedp.Evaluate[chromedp.Void](`document.getElementById("scrub").dispatchEvent(new Event("input"))`)); err != nil {
			t.Fatal(err)
		}
		if s := get(); s.Time != tc.time || s.Live != tc.live || s.GCs != tc.gcs {
			t.Errorf("scrubbed to %s: %+v, want time %v, %d live, %d collections", tc.value, s, tc.time, tc.live, tc.gcs)
		}
		clock, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("#clock")))
		if err != nil {
			t.Fatal(err)
		}
		if want := " " + strconv.Itoa(tc.live) + " live objects"; !strings.Contains(clock, want) {
			t.Errorf("clock %q lacks %q", clock, want)
		}
	}
	// Play from the end restarts; the clock moves; Pause stops it.
	if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`window.replay.seek(200)`), chromedp.Click(chromedp.CSS("#play"))); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`window.replay.state().time > 0 && window.replay.state().playing`, chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		t.Fatalf("the clock did not move after Play: %v (%+v)", err, get())
	}
	if s := get(); s.Time >= 200 {
		t.Errorf("Play at the end did not restart: %+v", s)
	}
	label, _ := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("#play")))
	if label != "Pause" {
		t.Errorf("the button reads %q while playing", label)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#play"))); err != nil {
		t.Fatal(err)
	}
	paused := get()
	// Two animation frames later the clock has not moved.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`, chromedp.EvalAwaitPromise)); err != nil {
		t.Fatal(err)
	}
	if s := get(); s.Playing || s.Time != paused.Time {
		t.Errorf("after Pause: %+v, then %+v", paused, s)
	}
	// Speed: one second of animation goes speed × end / PlayerSeconds.
	if err := chromedp.Do(ctx, chromedp.SetValue(chromedp.CSS("#speed"), "4"),
		chromedp.Evaluate[chromedp.Void](`document.getElementById("speed").dispatchEvent(new Event("change"))`),
		chromedp.Evaluate[chromedp.Void](`window.replay.seek(0)`), chromedp.Evaluate[chromedp.Void](`window.replay.step(1000)`)); err != nil {
		t.Fatal(err)
	}
	if s, want := get(), 4*200.0/PlayerSeconds; s.Speed != 4 || s.Time < want-1e-9 || s.Time > want+1e-9 {
		t.Errorf("speed 4, one second: %+v, want time %v", s, want)
	}
}
