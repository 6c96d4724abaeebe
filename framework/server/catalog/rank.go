package catalog

import (
	"context"
	"fmt"
	"slices"
	"sort"

	"github.com/droidprof/droidprof/framework/stats"
)

// GroupBy is what a ranking ranks: hosts or devices.
type GroupBy string

// What can be ranked.
const (
	ByHost   GroupBy = "host"
	ByDevice GroupBy = "device"
)

// ParseGroupBy reads a ranking's "by"; empty is ByHost.
func ParseGroupBy(s string) (GroupBy, error) {
	switch GroupBy(s) {
	case "", ByHost:
		return ByHost, nil
	case ByDevice:
		return ByDevice, nil
	}
	return "", fmt.Errorf("by=%q: rank by host or device", s)
}

// Rank is one host's or device's place in a ranking.
type Rank struct {
	Place int `json:"place"`
	// Name is the host or the device ranked.
	Name     string  `json:"name"`
	Hostname string  `json:"hostname"` // of the best run
	Device   string  `json:"device"`   // of the best run
	CPUModel string  `json:"cpu_model"`
	FSType   string  `json:"fs_type"`
	Median   float64 `json:"median"` // median over the group's runs of each run's median
	Runs     int     `json:"runs"`
	Best     string  `json:"best_run"` // the group's run with the best median
}

// Ranking is the hosts or devices ranked on one metric of one experiment,
// best first (paper 002's Fig. 3: devices ranked by a benchmark's result).
type Ranking struct {
	Experiment string  `json:"experiment"`
	Metric     string  `json:"metric"`
	By         GroupBy `json:"by"`
	Unit       string  `json:"unit"`
	Better     string  `json:"better"`
	Entries    []Rank  `json:"entries"`
}

// Rank ranks the hosts or devices (by) that ran experiment on metric key.
func (c *Catalog) Rank(ctx context.Context, experiment, key string, by GroupBy) (*Ranking, error) {
	if _, err := ParseGroupBy(string(by)); err != nil {
		return nil, err
	}
	if by == "" {
		by = ByHost
	}
	rows, err := c.db.QueryContext(ctx, c.d.Rebind(`SELECT r.id, r.hostname, r.device, r.cpu_model, r.fs_type, m.unit, m.better, m.median
FROM metrics m JOIN runs r ON r.id = m.run_id
WHERE r.experiment = ? AND m.metric_key = ?`), experiment, key)
	if err != nil {
		return nil, fmt.Errorf("rank: %w", err)
	}
	defer rows.Close()
	type group struct {
		Rank
		medians []float64
		best    float64
	}
	rk := &Ranking{Experiment: experiment, Metric: key, By: by, Entries: []Rank{}}
	groups := map[string]*group{}
	for rows.Next() {
		var id, host, device, cpu, fs string
		var med float64
		if err := rows.Scan(&id, &host, &device, &cpu, &fs, &rk.Unit, &rk.Better, &med); err != nil {
			return nil, fmt.Errorf("rank: %w", err)
		}
		name := host
		if by == ByDevice {
			name = device
		}
		g := groups[name]
		if g == nil {
			g = &group{Rank: Rank{Name: name}}
			groups[name] = g
		}
		if len(g.medians) == 0 || better(rk.Better, med, g.best) {
			g.best, g.Best, g.Hostname, g.Device, g.CPUModel, g.FSType = med, id, host, device, cpu, fs
		}
		g.medians = append(g.medians, med)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("rank: %w", err)
	}
	for _, g := range groups {
		g.Median, g.Runs = stats.Median(g.medians), len(g.medians)
		rk.Entries = append(rk.Entries, g.Rank)
	}
	sort.Slice(rk.Entries, func(i, j int) bool {
		a, b := rk.Entries[i], rk.Entries[j]
		if a.Median != b.Median {
			return better(rk.Better, a.Median, b.Median)
		}
		return a.Name < b.Name
	})
	for i := range rk.Entries {
		rk.Entries[i].Place = i + 1
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
