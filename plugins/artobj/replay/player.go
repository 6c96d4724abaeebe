package replay

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"strings"

	"github.com/droidprof/droidprof/plugins/artobj/chain"
)

// PlayerSeconds is how long the player takes over the whole run at
// speed 1.
const PlayerSeconds = AnimationSeconds

// playerData is what the player draws, as JSON in the page: the window,
// the end of the time axis, the collections' times and, per band, five
// numbers: offset in the window, size, from, to, and when its memory
// stops being grey after a death (-1: not a death).
type playerData struct {
	Base    uint32   `json:"base"`
	Size    uint32   `json:"size"`
	End     uint64   `json:"end"`
	GCs     []uint64 `json:"gcs"`
	Bands   []uint64 `json:"bands"`
	Objects int      `json:"objects"`
	Seconds int      `json:"seconds"`
}

// HTML renders the replay of window w as a self-contained HTML page — no
// network, its data, script and style inline — with a player: play and
// pause, a time scrubber, a speed choice; at each instant the live
// objects (dark) and the collected regions (grey) up to then, with the
// collections marked. It also returns how many objects have a band.
//
// For tests and embedding pages the player answers a window message
// "replay-state" with {time, end, live, playing, speed} and exposes the
// same as window.replay, with seek(t) and step(ms) (advance as the
// animation would in ms milliseconds).
func HTML(h *chain.Heap, w Window, title string) ([]byte, int) {
	segs, end, objects := segments(h, w)
	d := playerData{Base: w.Base, Size: w.Size, End: end, Objects: objects, Seconds: PlayerSeconds, GCs: []uint64{}, Bands: make([]uint64, 0, 5*len(segs))}
	for c := 1; c < len(h.EpochBytes); c++ {
		if t := h.EpochBytes[c]; t <= end {
			d.GCs = append(d.GCs, t)
		}
	}
	for _, s := range segs {
		grey := uint64(1<<53 - 1) // "not a death": JSON numbers are doubles
		if s.dead {
			grey = s.deadUntilEnd
		}
		d.Bands = append(d.Bands, uint64(s.addr-w.Base), uint64(s.size), s.from, s.to, grey)
	}
	data, err := json.Marshal(d) // escapes <, > and &: safe inside <script>
	if err != nil {
		panic(fmt.Sprintf("replay: %v", err)) // plain numbers: cannot fail
	}
	var b bytes.Buffer
	b.WriteString(strings.Replace(strings.Replace(playerPage, "{{TITLE}}", html.EscapeString(title), 2), "{{DATA}}", string(data), 1))
	return b.Bytes(), objects
}

// playerPage is the player; {{TITLE}} and {{DATA}} are filled in.
const playerPage = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{{TITLE}}</title>
<style>
body{font-family:sans-serif;font-size:13px;margin:8px;color:#222}
h1{font-size:15px;margin:0 0 6px}
.controls{display:flex;gap:10px;align-items:center;margin:6px 0}
#scrub{flex:1}
canvas{max-width:100%;height:auto;border:1px solid #ccc}
.legend span{display:inline-block;width:10px;height:10px;margin:0 3px 0 10px;vertical-align:middle}
</style>
</head>
<body>
<h1>{{TITLE}}</h1>
<div class="controls">
<button id="play" type="button">Play</button>
<input id="scrub" type="range" min="0" max="1000" step="1" value="1000" aria-label="time">
<label>speed <select id="speed"><option value="0.25">0.25×</option><option value="0.5">0.5×</option><option value="1" selected>1×</option><option value="2">2×</option><option value="4">4×</option><option value="8">8×</option></select></label>
</div>
<div id="clock"></div>
<canvas id="heap" width="960" height="440"></canvas>
<div class="legend"><span style="background:#222"></span>live object<span style="background:#bbb"></span>collected region<span style="background:#D55E00"></span>collection<span style="background:#0072B2"></span>now</div>
<script id="data" type="application/json">{{DATA}}</script>
<script>
"use strict";
(function () {
  const d = JSON.parse(document.getElementById("data").textContent);
  const NOT_DEAD = 9007199254740991;
  const cv = document.getElementById("heap"), g = cv.getContext("2d");
  const play = document.getElementById("play"), scrub = document.getElementById("scrub");
  const speedSel = document.getElementById("speed"), clock = document.getElementById("clock");
  const L = 90, R = 20, T = 10, B = 30, W = cv.width - L - R, H = cv.height - T - B;
  let t = d.end, playing = false, speed = 1, last = null;
  const x = v => L + (d.end ? W * v / d.end : 0);
  const y = a => T + H * a / d.size;
  const label = n => n >= 10485760 ? Math.floor(n / 1048576) + " MiB" : n >= 10240 ? Math.floor(n / 1024) + " KiB" : n + " B";
  function live(at) {
    let n = 0;
    for (let i = 0; i < d.bands.length; i += 5) {
      if (d.bands[i + 2] > at) break; // bands are in time order
      // Live while before its end; a band that runs to the end of the
      // run without a death is live at the end too (alive at exit).
      const to = d.bands[i + 3];
      if (at < to || (to === d.end && d.bands[i + 4] === NOT_DEAD)) n++;
    }
    return n;
  }
  function gcsBy(at) { let n = 0; for (const c of d.gcs) if (c <= at) n++; return n; }
  function draw() {
    g.fillStyle = "#fff"; g.fillRect(0, 0, cv.width, cv.height);
    g.strokeStyle = "#888"; g.strokeRect(L, T, W, H);
    g.strokeStyle = "#D55E00"; g.globalAlpha = 0.6;
    for (const c of d.gcs) if (c <= t) { g.beginPath(); g.moveTo(x(c), T); g.lineTo(x(c), T + H); g.stroke(); }
    g.globalAlpha = 1;
    for (let i = 0; i < d.bands.length; i += 5) {
      const off = d.bands[i], size = d.bands[i + 1], from = d.bands[i + 2], to = d.bands[i + 3], grey = d.bands[i + 4];
      if (from > t) break;
      const lo = Math.max(off, 0), hi = Math.min(off + size, d.size);
      const y0 = y(lo), h = Math.max(y(hi) - y0, 0.5);
      g.fillStyle = "#222";
      g.fillRect(x(from), y0, Math.max(x(Math.min(to, t)) - x(from), 0.5), h);
      if (grey !== NOT_DEAD && to <= t && grey > to) {
        g.fillStyle = "#bbb";
        g.fillRect(x(to), y0, x(Math.min(grey, t)) - x(to), h);
      }
    }
    g.strokeStyle = "#0072B2"; g.lineWidth = 1.5;
    g.beginPath(); g.moveTo(x(t), T); g.lineTo(x(t), T + H); g.stroke(); g.lineWidth = 1;
    g.fillStyle = "#222"; g.font = "12px sans-serif"; g.textAlign = "right";
    for (let i = 0; i <= 4; i++) g.fillText("0x" + (d.base + Math.floor(d.size * i / 4)).toString(16), L - 4, y(d.size * i / 4) + 4);
    g.textAlign = "center";
    for (let i = 0; i <= 4; i++) g.fillText(label(Math.floor(d.end * i / 4)), x(d.end * i / 4), T + H + 16);
    clock.textContent = label(Math.floor(t)) + " of " + label(d.end) + " allocated · after " + gcsBy(t) + " of " + d.gcs.length +
      " collections · " + live(t) + " live objects in the window (" + d.objects + " objects over the run)";
    scrub.value = d.end ? Math.round(1000 * t / d.end) : 1000;
    play.textContent = playing ? "Pause" : "Play";
  }
  function seek(v) { t = Math.min(Math.max(v, 0), d.end); draw(); }
  function step(ms) {
    t += ms / 1000 * speed * d.end / d.seconds;
    if (t >= d.end) { t = d.end; playing = false; }
    draw();
  }
  function frame(now) {
    if (!playing) { last = null; return; }
    if (last !== null) step(now - last);
    last = now;
    if (playing) requestAnimationFrame(frame);
  }
  function toggle() {
    playing = !playing;
    if (playing) { if (t >= d.end) t = 0; requestAnimationFrame(frame); }
    draw();
  }
  play.addEventListener("click", toggle);
  scrub.addEventListener("input", () => { playing = false; seek(d.end * scrub.value / 1000); });
  speedSel.addEventListener("change", () => { speed = Number(speedSel.value); });
  const state = () => ({ time: t, end: d.end, live: live(t), playing: playing, speed: speed, gcs: gcsBy(t) });
  window.replay = { state: state, seek: seek, step: step, live: live };
  window.addEventListener("message", e => { if (e.data === "replay-state") e.source.postMessage({ replay: state() }, "*"); });
  draw();
})();
</script>
</body>
</html>
`
