package catalog

import (
	"context"
	"fmt"
	"slices"
	"sort"

	"github.com/droidprof/droidprof/framework/stats"
)

// Rank is one host's place in a ranking.
type Rank struct {
	Place    int     `json:"place"`
	Hostname string  `json:"hostname"`
	CPUModel string  `json:"cpu_model"`
	FSType   string  `json:"fs_type"`
	Median   float64 `json:"median"` // median over the host's runs of each run's median
	Runs     int     `json:"runs"`
	Best     string  `json:"best_run"` // the host's run with the best median
}

// Ranking is the hosts ranked on one metric of one experiment, best first
// (paper 002's Fig. 3: devices ranked by a benchmark's result).
type Ranking struct {
	Experiment string `json:"experiment"`
	Metric     string `json:"metric"`
	Unit       string `json:"unit"`
	Better     string `json:"better"`
	Hosts      []Rank `json:"hosts"`
}

// Rank ranks the hosts that ran experiment on metric key.
func (c *Catalog) Rank(ctx context.Context, experiment, key string) (*Ranking, error) {
	rows, err := c.db.QueryContext(ctx, c.d.Rebind(`SELECT r.id, r.hostname, r.cpu_model, r.fs_type, m.unit, m.better, m.median
FROM metrics m JOIN runs r ON r.id = m.run_id
WHERE r.experiment = ? AND m.metric_key = ?`), experiment, key)
	if err != nil {
		return nil, fmt.Errorf("rank: %w", err)
	}
	defer rows.Close()
	type host struct {
		Rank
		medians []float64
		best    float64
	}
	rk := &Ranking{Experiment: experiment, Metric: key, Hosts: []Rank{}}
	hosts := map[string]*host{}
	for rows.Next() {
		var id, name, cpu, fs string
		var med float64
		if err := rows.Scan(&id, &name, &cpu, &fs, &rk.Unit, &rk.Better, &med); err != nil {
			return nil, fmt.Errorf("rank: %w", err)
		}
		h := hosts[name]
		if h == nil {
			h = &host{Rank: Rank{Hostname: name, CPUModel: cpu, FSType: fs, Best: id}, best: med}
			hosts[name] = h
		}
		h.medians = append(h.medians, med)
		if better(rk.Better, med, h.best) {
			h.best, h.Best = med, id
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("rank: %w", err)
	}
	for _, h := range hosts {
		h.Median, h.Runs = stats.Median(h.medians), len(h.medians)
		rk.Hosts = append(rk.Hosts, h.Rank)
	}
	sort.Slice(rk.Hosts, func(i, j int) bool {
		a, b := rk.Hosts[i], rk.Hosts[j]
		if a.Median != b.Median {
			return better(rk.Better, a.Median, b.Median)
		}
		return a.Hostname < b.Hostname
	})
	for i := range rk.Hosts {
		rk.Hosts[i].Place = i + 1
	}
	return rk, nil
}

// better reports whether a beats b in direction dir; without a direction,
// higher ranks first (throughput-like metrics are the common case).
func better(dir string, a, b float64) bool {
	if dir == "lower" {
		return a < b
	}
	return a > b
}

// Metrics returns the metric keys of experiment's runs, sorted, for
// choosing a ranking.
func (c *Catalog) Metrics(ctx context.Context, experiment string) ([]string, error) {
	rows, err := c.db.QueryContext(ctx, c.d.Rebind(`SELECT DISTINCT m.metric_key FROM metrics m JOIN runs r ON r.id = m.run_id WHERE r.experiment = ?`), experiment)
	if err != nil {
		return nil, fmt.Errorf("metrics: %w", err)
	}
	defer rows.Close()
	out := []string{}
	for rows.Next() {
		var k string
		if err := rows.Scan(&k); err != nil {
			return nil, fmt.Errorf("metrics: %w", err)
		}
		out = append(out, k)
	}
	slices.Sort(out)
	return out, rows.Err()
}

// Experiments returns the experiments of the stored runs, sorted.
func (c *Catalog) Experiments(ctx context.Context) ([]string, error) {
	rows, err := c.db.QueryContext(ctx, `SELECT DISTINCT experiment FROM runs ORDER BY experiment`)
	if err != nil {
		return nil, fmt.Errorf("experiments: %w", err)
	}
	defer rows.Close()
	out := []string{}
	for rows.Next() {
		var e string
		if err := rows.Scan(&e); err != nil {
			return nil, fmt.Errorf("experiments: %w", err)
		}
		out = append(out, e)
	}
	return out, rows.Err()
}
