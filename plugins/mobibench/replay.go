package mobibench

import (
	"context"
	"fmt"
	"maps"
	"os"

	"github.com/droidprof/droidprof/framework/sdk"
	"github.com/droidprof/droidprof/storage/replay"
)

// runReplay is Mobibench's `-g script`: it replays the Mobigen script at path
// script in a sandbox under the storage directory and writes replay.out (the
// text Mobibench prints, plus per-call latencies and the timing error) and
// replay.json. A replay cut short by ctx still writes both, with what it
// measured, and returns the error with them.
func runReplay(ctx context.Context, script string, keep bool, e env) (*replay.Result, []sdk.Artifact, error) {
	s, err := replay.ParseFile(script)
	if err != nil {
		return nil, nil, err
	}
	if err := os.MkdirAll(e.StorageDir, 0o755); err != nil {
		return nil, nil, fmt.Errorf("storage directory: %w", err)
	}
	res, rerr := replay.Replay(ctx, s, replay.Options{Dir: e.StorageDir, Keep: keep})
	if res == nil {
		return nil, nil, rerr
	}
	if e.Warn != nil {
		if res.Errors > 0 {
			e.Warn(fmt.Sprintf("replay: %d calls failed that succeeded in the trace (see replay.out)", res.Errors))
		}
		if n := len(res.Unprepared); n > 0 {
			e.Warn(fmt.Sprintf("replay: %d sandbox files could not be prepared, first %s", n, res.Unprepared[0]))
		}
	}
	var arts []sdk.Artifact
	js, err := marshal(res)
	if err != nil {
		return res, nil, fmt.Errorf("replay.json: %w", err)
	}
	for _, a := range []struct {
		art  sdk.Artifact
		data []byte
	}{
		{sdk.Artifact{Name: "replay.out", Kind: sdk.KindLog, MediaType: "text/plain", Title: "Mobibench replay output"}, res.Text()},
		{sdk.Artifact{Name: "replay.json", Kind: sdk.KindRaw, MediaType: "application/json", Title: "Mobigen script replay measurements"}, js},
	} {
		if err := writeFile(e.OutDir, a.art.Name, a.data); err != nil {
			return res, arts, err
		}
		arts = append(arts, a.art)
	}
	return res, arts, rerr
}

// The metrics of a replay step: Mobibench's Total IO time, the replay's wall
// time, how late calls were issued against the script's clock, and the calls
// that failed although they succeeded in the trace.
const (
	MetricReplayIOTime = "replay_io_time" // s
	MetricReplayWall   = "replay_wall"    // s
	MetricReplayLagP50 = "replay_lag_p50" // µs
	MetricReplayLagP99 = "replay_lag_p99" // µs
	MetricReplayErrors = "replay_errors"  // count
)

var replayMetricNames = []string{MetricReplayIOTime, MetricReplayWall, MetricReplayLagP50, MetricReplayLagP99, MetricReplayErrors}

// addReplayMetrics records a replay step's metrics, labelled like the
// step.
func addReplayMetrics(res *sdk.Result, st *sdk.StepArtifacts, r *replay.Result) {
	labels := maps.Clone(st.Labels)
	if labels == nil {
		labels = map[string]string{}
	}
	labels["collector"] = "mobibench"
	res.Sample(MetricReplayIOTime, "s", sdk.LowerIsBetter, labels, r.IOTime.Seconds())
	res.Sample(MetricReplayWall, "s", sdk.LowerIsBetter, labels, r.Wall.Seconds())
	res.Sample(MetricReplayLagP50, "µs", sdk.LowerIsBetter, labels, float64(r.Lag.Median)/1e3)
	res.Sample(MetricReplayLagP99, "µs", sdk.LowerIsBetter, labels, float64(r.Lag.P99)/1e3)
	res.Sample(MetricReplayErrors, "count", sdk.LowerIsBetter, labels, float64(r.Errors))
}
