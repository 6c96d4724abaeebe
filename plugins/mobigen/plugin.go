// Package mobigen is droidprof's Mobigen plugin (paper 002 §3.3 and §4.4):
// record a real program's I/O system calls with strace (or import a log,
// from a phone say), clean them into a Mobigen replay script
// (storage/cleaner), and replay the script time-accurately on the step's
// storage (storage/replay) — a loop-mounted ext4, xfs or btrfs per matrix
// cell gives the paper's Fig. 16 in kind. Each step also checks the
// replay's fidelity: the replay runs again under strace, and per thread the
// system calls it issued must be the cleaned script's, with their kind,
// size, offset and flags.
package mobigen

import (
	"github.com/droidprof/droidprof/framework/sdk"
)

// Version is the plugin version.
const Version = "0.1.0"

// Plugin returns the mobigen plugin.
func Plugin() *sdk.Plugin {
	return &sdk.Plugin{
		Name:        "mobigen",
		Version:     Version,
		Description: "Mobigen: capture a program's I/O system calls with strace (or import a log), clean them, replay them time-accurately on any storage, and check the replay's fidelity",
		Collectors: []sdk.Collector{
			{Name: "mobigen", Description: "capture a command under strace or import a strace log; clean it into a Mobigen script; replay it on the step's storage (total I/O time, per-call latency, timing error) and under strace (fidelity)", Config: Config{}, Run: collect},
		},
		Analyzers: []sdk.Analyzer{
			{Name: "mobigen", Description: "the paper's Table 3 (trace statistics), Fig. 16 in kind (total I/O time per filesystem), replay timing error and fidelity", Config: AnalyzerConfig{}, Run: analyze},
		},
	}
}

// Config configures the collector.
type Config struct {
	Source  string   `json:"source" doc:"capture (run command under strace) or import (clean the strace log in log)" default:"capture" enum:"capture,import"`
	Command []string `json:"command" doc:"source = capture: the program and its arguments; it runs in a scratch directory on the step's storage"`
	Stdin   string   `json:"stdin" doc:"source = capture: a file fed to the command's standard input (e.g. an SQL script for the sqlite3 shell); relative to droidprof's working directory"`
	Log     string   `json:"log" doc:"source = import: a strace log (strace -f -ttt -T, as Mobigen's README or an Android phone's strace writes it); relative to droidprof's working directory"`
	Reuse   bool     `json:"reuse" doc:"source = capture: capture once per run and replay that same log in every step, so a matrix over filesystems replays one trace (the paper's Fig. 16); false captures in every step" default:"true"`
	Paths   string   `json:"paths" doc:"full (keep every path, mirrored in the replay sandbox) or mobigen (reduce non-read-only opens to two path components, replayed as temp files, as mobigen.rb does; unlinks and stats of their real paths then miss, as in Mobibench)" default:"full" enum:"full,mobigen"`
	// Platform keeps or drops the pseudo-files.
	Platform bool `json:"platform" doc:"keep the calls on /dev, /proc and /sys (the replay mirrors them in its sandbox like any path); false drops them as platform-specific, as mobigen.rb drops ashmem" default:"false"`
	SpinUS   int  `json:"spin_us" doc:"µs before each call's time at which a replay thread stops sleeping and spins on the clock (0: sleep all the way, as Mobibench's usleep)" default:"200" min:"0" max:"100000"`
	Realtime bool `json:"realtime" doc:"run the replay threads under SCHED_FIFO (root or CAP_SYS_NICE), so a loaded machine delays them less; refused, the replay runs as usual and says why" default:"true"`
	Fidelity bool `json:"fidelity" doc:"replay a second time under strace and compare, per thread, the calls issued with the cleaned script's (kind, size, offset, flags)" default:"true"`
	Keep     bool `json:"keep" doc:"keep the replay sandbox and the capture's scratch directory afterwards" default:"false"`
}

// AnalyzerConfig configures the analyzer.
type AnalyzerConfig struct{}
