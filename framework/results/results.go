// Package results is the data model of a finished (or interrupted) run: the
// metrics with every raw sample, tables, figures, per-step status and the
// environment fingerprint. It is what results.json holds; compare and report
// read it, the runner writes it.
package results

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"time"
)

// FileName is the name of the results file in a run directory.
const FileName = "results.json"

// Run statuses.
const (
	StatusRunning    = "running"
	StatusComplete   = "complete"
	StatusPartial    = "partial"    // finished; some steps failed, the analyzers ran on the rest
	StatusFailed     = "failed"     // finished, but no step succeeded or an analyzer failed
	StatusIncomplete = "incomplete" // interrupted (Ctrl-C, SIGTERM); data so far is kept and analysed
	// StatusCrashed is a run left "running" by a droidprof that was killed
	// (SIGKILL, power loss): nobody holds its lock any more. Finished is
	// then the time of the run's last write.
	StatusCrashed = "crashed"
)

// Results is the content of results.json.
type Results struct {
	RunID       string      `json:"run_id"`
	Experiment  string      `json:"experiment"`
	ConfigFile  string      `json:"config_file"`
	Status      string      `json:"status"`
	Started     time.Time   `json:"started"`
	Finished    time.Time   `json:"finished,omitzero"`
	Fingerprint Fingerprint `json:"fingerprint"`
	Steps       []Step      `json:"steps"`
	Analyses    []Analysis  `json:"analyses"`
	Metrics     []Metric    `json:"metrics"`
	Tables      []Table     `json:"tables,omitempty"`
	Figures     []Artifact  `json:"figures,omitempty"`
	Warnings    []string    `json:"warnings,omitempty"`
	// PlannedSteps is how many steps the plan had; fewer ran when the run
	// was interrupted.
	PlannedSteps int `json:"planned_steps,omitempty"`
	// Missing are the measured cells that lack some or all of their
	// repetitions because steps failed or never ran.
	Missing []Missing `json:"missing,omitempty"`
}

// Missing is a collector and matrix cell with fewer successful measured
// repetitions than planned.
type Missing struct {
	Collector string            `json:"collector"`
	Labels    map[string]string `json:"labels,omitempty"`
	Planned   int               `json:"planned"`
	OK        int               `json:"ok"`
}

// String names the cell as "collector k=v,... (ok/planned repetitions)".
func (m Missing) String() string {
	s := m.Collector
	if len(m.Labels) > 0 {
		s += " " + LabelString(m.Labels)
	}
	return fmt.Sprintf("%s (%d of %d repetitions)", s, m.OK, m.Planned)
}

// Step is one collector invocation.
type Step struct {
	ID         string            `json:"id"`
	Collector  string            `json:"collector"` // plugin.component
	Labels     map[string]string `json:"labels,omitempty"`
	Repetition int               `json:"repetition"`
	Warmup     bool              `json:"warmup,omitempty"`
	Status     string            `json:"status"` // ok, failed, interrupted, skipped, StepRunning, StepCrashed
	Error      string            `json:"error,omitempty"`
	Duration   float64           `json:"duration_s"`
	Dir        string            `json:"dir"` // relative to the run directory
	Artifacts  []Artifact        `json:"artifacts,omitempty"`
}

// Step statuses besides ok, failed, interrupted and skipped: a step is
// running while it runs (it is in results.json then, so that a run whose
// droidprof was killed names the step it was in), and crashed when its
// droidprof was killed during it.
const (
	StepRunning = "running"
	StepCrashed = "crashed"
)

// Analysis records one analyzer invocation.
type Analysis struct {
	Analyzer string `json:"analyzer"` // plugin.component
	Status   string `json:"status"`
	Error    string `json:"error,omitempty"`
	Summary  string `json:"summary,omitempty"` // Markdown
}

// Better directions.
const (
	BetterLower  = "lower"
	BetterHigher = "higher"
)

// Metric is a named quantity with all raw samples, one per repetition.
type Metric struct {
	Name     string            `json:"name"`
	Unit     string            `json:"unit"`
	Better   string            `json:"better,omitempty"` // lower, higher or empty
	Labels   map[string]string `json:"labels,omitempty"`
	Samples  []float64         `json:"samples"`
	Analyzer string            `json:"analyzer,omitempty"`
}

// Key identifies a metric across runs: its name and sorted labels.
func (m *Metric) Key() string {
	if len(m.Labels) == 0 {
		return m.Name
	}
	return m.Name + " " + LabelString(m.Labels)
}

// LabelString renders labels as "k1=v1,k2=v2" in key order.
func LabelString(labels map[string]string) string {
	keys := make([]string, 0, len(labels))
	for k := range labels {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + labels[k]
	}
	return strings.Join(parts, ",")
}

// Table is a rectangular result.
type Table struct {
	Name     string     `json:"name"`
	Title    string     `json:"title,omitempty"`
	Analyzer string     `json:"analyzer,omitempty"`
	Columns  []string   `json:"columns"`
	Rows     [][]string `json:"rows"`
}

// Artifact is a file in the run directory.
type Artifact struct {
	Name      string `json:"name"`
	Path      string `json:"path"` // relative to the run directory, slash-separated
	MediaType string `json:"media_type,omitempty"`
	SHA256    string `json:"sha256,omitempty"`
	Size      int64  `json:"size"`
	Kind      string `json:"kind,omitempty"`
	Title     string `json:"title,omitempty"`
}

// Fingerprint describes the environment a run executed in, so comparisons can
// flag runs that are not like for like.
type Fingerprint struct {
	Hostname         string            `json:"hostname"`
	OS               string            `json:"os"`
	Arch             string            `json:"arch"`
	Kernel           string            `json:"kernel"`
	CPUModel         string            `json:"cpu_model"`
	CPUs             int               `json:"cpus"`
	MemoryBytes      int64             `json:"memory_bytes,omitempty"`
	GoVersion        string            `json:"go_version"`
	DroidprofVersion string            `json:"droidprof_version"`
	DroidprofCommit  string            `json:"droidprof_commit,omitempty"`
	StorageBackend   string            `json:"storage_backend,omitempty"`
	StorageDir       string            `json:"storage_dir,omitempty"`
	FSType           string            `json:"fs_type,omitempty"`
	MountOptions     string            `json:"mount_options,omitempty"`
	ConfigSHA256     string            `json:"config_sha256,omitempty"`
	Plugins          map[string]Plugin `json:"plugins,omitempty"`
	// Volumes are the storage volumes the run used, in the order they were
	// opened: one, or one per distinct storage of the matrix cells. The
	// storage fields above summarise them (values of several volumes are
	// joined with ", ").
	Volumes []Volume `json:"volumes,omitempty"`
}

// Volume describes one storage volume of a run.
type Volume struct {
	Backend string `json:"backend"`
	Dir     string `json:"dir,omitempty"`
	FSType  string `json:"fs_type,omitempty"`
	// MountOptions are as the kernel reported them.
	MountOptions string   `json:"mount_options,omitempty"`
	MkfsOptions  []string `json:"mkfs_options,omitempty"`
	// Device is the loop device or block device.
	Device string `json:"device,omitempty"`
	Image  string `json:"image,omitempty"`
	// SizeBytes is the size of the loop image or block device.
	SizeBytes int64 `json:"size_bytes,omitempty"`
	// Cells are the names of the matrix cells that ran on the volume
	// ("fs=xfs"); empty without a matrix.
	Cells []string `json:"cells,omitempty"`
}

// Plugin identifies a plugin binary used in a run.
type Plugin struct {
	Version string `json:"version"`
	Path    string `json:"path"`
	SHA256  string `json:"sha256"`
	BuiltIn bool   `json:"builtin,omitempty"`
}

// Read loads a results file.
func Read(path string) (*Results, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r Results
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &r, nil
}

// Write stores r at path atomically (write to a temporary file, then rename),
// so an interrupted write never leaves a truncated results file.
func (r *Results) Write(path string) error {
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(data, '\n'), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
