package compare

import (
	"encoding/json"
	"io"
	"math"
	"time"
)

// WriteJSON renders c as indented JSON with every number: per row both runs'
// sample counts, samples, medians, confidence intervals (null bounds when
// infinite), min, max, mean, σ and outliers; the U statistic and p-value;
// the change; and all warnings. Non-finite numbers are null.
func WriteJSON(w io.Writer, c *Comparison) error {
	out := jsonComparison{
		Old:        jsonRun(c.Old),
		New:        jsonRun(c.New),
		Alpha:      c.Alpha,
		Confidence: c.Confidence,
		OnlyOld:    nonNil(c.OnlyOld),
		OnlyNew:    nonNil(c.OnlyNew),
		EnvDiffs:   c.EnvDiffs,
		Warnings:   nonNil(c.Warnings),
		Groups:     []jsonGroup{},
	}
	if out.EnvDiffs == nil {
		out.EnvDiffs = []EnvDiff{}
	}
	for _, g := range c.Groups {
		jg := jsonGroup{Unit: g.Unit, Rows: []jsonRow{}}
		for _, r := range g.Rows {
			jr := jsonRow{
				Key: r.Key, Name: r.Name, Labels: r.Labels, Unit: r.Unit, Better: r.Better, Analyzer: r.Analyzer,
				Old: jsonSide(r.Old), New: jsonSide(r.New),
				P: num(r.Test.P), U: num(r.Test.U), Exact: r.Test.Exact, Significant: r.Test.Significant(),
				Delta: num(r.Delta), DeltaText: r.DeltaText, Note: r.Note(), Change: r.Change, Verdict: r.Verdict(),
				Warnings: nonNil(r.Warnings),
			}
			if r.Test.Err != nil {
				jr.TestError = r.Test.Err.Error()
			}
			jg.Rows = append(jg.Rows, jr)
		}
		if gm := g.Geomean; gm != nil {
			jg.Geomean = &jsonGeomean{Old: num(gm.Old), New: num(gm.New), Delta: num(gm.Delta), Rows: gm.Rows, Skipped: gm.Skipped}
		}
		out.Groups = append(out.Groups, jg)
	}
	for _, r := range c.Rankings {
		out.Rankings = append(out.Rankings, jsonRank{Name: r.Name, Unit: r.Unit, Analyzer: r.Analyzer, Labels: r.Labels, Item: r.Item, Items: r.Items,
			Spearman: num(r.Spearman), Kendall: num(r.Kendall), OldRatio: num(r.OldRatio), NewRatio: num(r.NewRatio), Moves: append([]RankMove{}, r.Moves...)})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// jnum is a float64 that encodes NaN and ±Inf as null.
type jnum float64

func num(x float64) jnum { return jnum(x) }

func (x jnum) MarshalJSON() ([]byte, error) {
	f := float64(x)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return []byte("null"), nil
	}
	return json.Marshal(f)
}

type jsonComparison struct {
	Old        jsonRunInfo `json:"old"`
	New        jsonRunInfo `json:"new"`
	Alpha      float64     `json:"alpha"`
	Confidence float64     `json:"confidence"`
	Groups     []jsonGroup `json:"groups"`
	OnlyOld    []string    `json:"only_old"`
	OnlyNew    []string    `json:"only_new"`
	EnvDiffs   []EnvDiff   `json:"env_diffs"`
	Warnings   []string    `json:"warnings"`
	Rankings   []jsonRank  `json:"rankings,omitempty"`
}

type jsonRank struct {
	Name     string            `json:"name"`
	Unit     string            `json:"unit"`
	Analyzer string            `json:"analyzer,omitempty"`
	Labels   map[string]string `json:"labels,omitempty"`
	Item     string            `json:"item"`
	Items    int               `json:"items"`
	Spearman jnum              `json:"spearman"`
	Kendall  jnum              `json:"kendall"`
	OldRatio jnum              `json:"old_max_min"`
	NewRatio jnum              `json:"new_max_min"`
	Moves    []RankMove        `json:"moves"`
}

type jsonRunInfo struct {
	RunID      string     `json:"run_id"`
	Experiment string     `json:"experiment"`
	Status     string     `json:"status,omitempty"`
	Started    *time.Time `json:"started,omitempty"`
}

func jsonRun(r RunInfo) jsonRunInfo {
	j := jsonRunInfo{RunID: r.RunID, Experiment: r.Experiment, Status: r.Status}
	if !r.Started.IsZero() {
		t := r.Started
		j.Started = &t
	}
	return j
}

type jsonGroup struct {
	Unit    string       `json:"unit"`
	Rows    []jsonRow    `json:"rows"`
	Geomean *jsonGeomean `json:"geomean"`
}

type jsonGeomean struct {
	Old     jnum `json:"old"`
	New     jnum `json:"new"`
	Delta   jnum `json:"delta_pct"`
	Rows    int  `json:"rows"`
	Skipped int  `json:"skipped"`
}

type jsonRow struct {
	Key         string            `json:"key"`
	Name        string            `json:"name"`
	Labels      map[string]string `json:"labels,omitempty"`
	Unit        string            `json:"unit"`
	Better      string            `json:"better,omitempty"`
	Analyzer    string            `json:"analyzer,omitempty"`
	Old         jsonSideT         `json:"old"`
	New         jsonSideT         `json:"new"`
	U           jnum              `json:"u"`
	P           jnum              `json:"p"`
	Exact       bool              `json:"p_exact"`
	Significant bool              `json:"significant"`
	TestError   string            `json:"test_error,omitempty"`
	Delta       jnum              `json:"delta_pct"`
	DeltaText   string            `json:"delta_text"`
	Note        string            `json:"note"`
	Change      int               `json:"change"`
	Verdict     string            `json:"verdict,omitempty"`
	Warnings    []string          `json:"warnings"`
}

type jsonSideT struct {
	N          int    `json:"n"`
	Median     jnum   `json:"median"`
	CILo       jnum   `json:"ci_lo"`
	CIHi       jnum   `json:"ci_hi"`
	CIPct      jnum   `json:"ci_pct"` // half-width relative to the median, in percent
	CIText     string `json:"ci_text"`
	Confidence jnum   `json:"ci_confidence"` // achieved coverage
	Min        jnum   `json:"min"`
	Max        jnum   `json:"max"`
	Mean       jnum   `json:"mean"`
	StdDev     jnum   `json:"stddev"`
	Outliers   []int  `json:"outliers"`
	Samples    []jnum `json:"samples"` // in repetition order; null if not finite
}

func jsonSide(s Side) jsonSideT {
	j := jsonSideT{
		N: s.N, Median: num(s.Median), CILo: num(s.Lo), CIHi: num(s.Hi), CIText: s.CIString(),
		Confidence: num(s.Confidence), Min: num(s.Min), Max: num(s.Max), Mean: num(s.Mean), StdDev: num(s.StdDev),
		Outliers: s.Outliers, Samples: make([]jnum, len(s.Samples)),
	}
	for i, x := range s.Samples {
		j.Samples[i] = num(x)
	}
	if pct, ok := s.CIPercent(); ok {
		j.CIPct = num(pct * 100)
	} else {
		j.CIPct = num(math.NaN())
	}
	if j.Outliers == nil {
		j.Outliers = []int{}
	}
	return j
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
