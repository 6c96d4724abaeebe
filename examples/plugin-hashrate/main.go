// Command droidprof-plugin-hashrate is an example third-party droidprof
// plugin, built only against the public SDK (framework/sdk). It measures how
// fast this machine hashes memory — a small, real measurement — and shows the
// whole plugin contract: a collector with a typed config, raw artifacts in
// the step directory, progress, and an analyzer that turns the raw data of
// every repetition into metrics with all samples, a table and a figure.
package main

import (
	"context"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"fmt"
	"hash"
	"sort"
	"strings"
	"time"

	"github.com/droidprof/droidprof/framework/sdk"
)

// Config is the collector's configuration; its tags are the schema the host
// checks experiment configs against.
type Config struct {
	Algorithm string   `json:"algorithm" default:"sha256" enum:"sha256,sha1,md5" doc:"hash function"`
	Size      sdk.Size `json:"size" default:"64MiB" doc:"bytes to hash per step"`
	Chunk     sdk.Size `json:"chunk" default:"64KiB" min:"1" doc:"bytes per Write call"`
}

// Result is the raw data one step leaves behind.
type Result struct {
	Algorithm string  `json:"algorithm"`
	Bytes     int64   `json:"bytes"`
	Seconds   float64 `json:"seconds"`
	Digest    string  `json:"digest"`
}

func main() { sdk.Serve(plugin()) }

func plugin() *sdk.Plugin {
	return &sdk.Plugin{
		Name:        "hashrate",
		Version:     "0.1.0",
		Description: "example third-party plugin: hashing throughput",
		Collectors:  []sdk.Collector{{Name: "hashrate", Description: "hash a buffer and time it", Config: Config{}, Run: collect}},
		Analyzers:   []sdk.Analyzer{{Name: "hashrate", Description: "throughput per algorithm", Run: analyze}},
	}
}

func newHash(algorithm string) hash.Hash {
	switch algorithm {
	case "sha1":
		return sha1.New()
	case "md5":
		return md5.New()
	}
	return sha256.New()
}

func collect(ctx context.Context, step *sdk.Step) error {
	var cfg Config
	if err := step.Decode(&cfg); err != nil {
		return err
	}
	buf := make([]byte, cfg.Chunk)
	for i := range buf {
		buf[i] = byte(i * 31)
	}
	h := newHash(cfg.Algorithm)
	start := time.Now()
	var done int64
	for done < int64(cfg.Size) {
		if err := ctx.Err(); err != nil {
			return err
		}
		n := min(int64(len(buf)), int64(cfg.Size)-done)
		h.Write(buf[:n])
		done += n
		step.Progress(float64(done), float64(cfg.Size), "B", cfg.Algorithm)
	}
	res := Result{Algorithm: cfg.Algorithm, Bytes: done, Seconds: time.Since(start).Seconds(), Digest: fmt.Sprintf("%x", h.Sum(nil))}
	return step.WriteJSON("result.json", res)
}

func analyze(ctx context.Context, a *sdk.Analysis) (*sdk.Result, error) {
	out := a.NewResult()
	perAlg := map[string][]float64{}
	for _, st := range a.Steps {
		art := sdk.Find(st, "result.json")
		if art == nil {
			continue // a step of another collector
		}
		var r Result
		if err := a.ReadJSON(art, &r); err != nil {
			return nil, err
		}
		mbps := float64(r.Bytes) / r.Seconds / 1e6
		out.Sample("throughput", "MB/s", sdk.HigherIsBetter, st.Labels, mbps)
		perAlg[r.Algorithm] = append(perAlg[r.Algorithm], mbps)
	}
	var rows [][]string
	algs := make([]string, 0, len(perAlg))
	for alg := range perAlg {
		algs = append(algs, alg)
	}
	sort.Strings(algs)
	var bars strings.Builder
	for i, alg := range algs {
		m := median(perAlg[alg])
		rows = append(rows, []string{alg, fmt.Sprintf("%.1f", m), fmt.Sprint(len(perAlg[alg]))})
		fmt.Fprintf(&bars, `<rect x="10" y="%d" width="%.0f" height="16" fill="#4a7"/><text x="14" y="%d" font-size="12">%s %.0f MB/s</text>`, 10+i*24, m/10, 22+i*24, alg, m)
	}
	out.Table("throughput", "Median hashing throughput", []string{"algorithm", "MB/s", "n"}, rows)
	svg := fmt.Sprintf(`<svg xmlns="http://www.w3.org/2000/svg" width="420" height="%d">%s</svg>`, 20+len(algs)*24, bars.String())
	if err := out.Figure("throughput.svg", "Hashing throughput", []byte(svg)); err != nil {
		return nil, err
	}
	out.Summary(fmt.Sprintf("Hashed with %d algorithm(s) over %d steps.", len(algs), len(a.Steps)))
	return out, nil
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
