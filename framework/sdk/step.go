package sdk

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/droidprof/droidprof/framework/api"
)

// Storage is the storage target of a step.
type Storage struct {
	Backend string // "dir", "loop" or "device"
	Dir     string // absolute directory to do I/O in (the mount point for loop and device)
	FSType  string // filesystem type of Dir, e.g. "ext4" or "tmpfs"
	// Options are the storage block's options, plus "keep" when the data
	// should stay, and for loop and device volumes "mount_options" (as the
	// kernel reports them), "mkfs_options" and "device".
	Options map[string]string
}

// Step is one collector invocation: one matrix cell, one repetition. A
// collector writes its raw data into Dir and announces each file with
// AddArtifact (or WriteArtifact / WriteJSON, which also write it).
type Step struct {
	ID         string
	Labels     map[string]string
	Repetition int
	Warmup     bool
	Dir        string // this step's own directory; write only here
	RunDir     string
	Storage    Storage

	config []byte
	schema *api.Schema

	mu           sync.Mutex
	send         func(*api.CollectEvent) error
	lastProgress time.Time
}

// Decode fills the struct cfg points to from the step's configuration.
func (s *Step) Decode(cfg any) error { return decodeConfig(s.schema, s.config, cfg) }

func (s *Step) emit(ev *api.CollectEvent) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.send(ev)
}

// Progress reports how far the step is. Calls closer than 100 ms apart are
// dropped, except the final one (done >= total), so it is cheap to call often.
func (s *Step) Progress(done, total float64, unit, message string) {
	s.mu.Lock()
	now := time.Now()
	if done < total && now.Sub(s.lastProgress) < 100*time.Millisecond {
		s.mu.Unlock()
		return
	}
	s.lastProgress = now
	s.mu.Unlock()
	_ = s.emit(&api.CollectEvent{Event: &api.CollectEvent_Progress{Progress: &api.Progress{Done: done, Total: total, Unit: unit, Message: message}}})
}

// Level is the severity of a log line.
type Level int

// Log levels.
const (
	Debug Level = 1
	Info  Level = 2
	Warn  Level = 3
	Error Level = 4
)

// String returns the level's name in lower case.
func (l Level) String() string {
	switch l {
	case Debug:
		return "debug"
	case Info:
		return "info"
	case Warn:
		return "warn"
	case Error:
		return "error"
	}
	return "unspecified"
}

// Log sends a log line to the host, which prints it with the plugin's name
// and keeps it in the run's log. kv are alternating keys and values.
func (s *Step) Log(level Level, msg string, kv ...any) {
	fields := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		fields[fmt.Sprint(kv[i])] = fmt.Sprint(kv[i+1])
	}
	_ = s.emit(&api.CollectEvent{Event: &api.CollectEvent_Log{Log: &api.LogLine{Level: api.LogLine_Level(level), Message: msg, Fields: fields}}})
}

// Records streams a batch of pre-encoded records; the host appends them to the
// file named stream in the step directory. Send batches of 64 KiB or more.
func (s *Step) Records(stream string, data []byte) error {
	return s.emit(&api.CollectEvent{Event: &api.CollectEvent_Records{Records: &api.RecordBatch{Stream: stream, Data: data}}})
}

// Artifact kinds.
const (
	KindRaw    = "raw"
	KindTable  = "table"
	KindFigure = "figure"
	KindLog    = "log"
)

// AddArtifact announces a file the collector already wrote at Dir/name.
func (s *Step) AddArtifact(name, kind, mediaType, title string) error {
	a, err := describeFile(s.RunDir, filepath.Join(s.Dir, name), name, kind, mediaType, title)
	if err != nil {
		return err
	}
	return s.emit(&api.CollectEvent{Event: &api.CollectEvent_Artifact{Artifact: a.proto()}})
}

// Artifact describes a file in the run directory. A collector announcing
// files (AddArtifacts) fills in Name, Kind, MediaType and Title; the SDK
// adds Path, Size and Sha256.
type Artifact struct {
	Name, Kind, MediaType, Title string
	Path                         string // relative to the run directory, with forward slashes
	Size                         int64
	Sha256                       string // hex
}

// AddArtifacts announces files the collector already wrote, stopping at
// the first error.
func (s *Step) AddArtifacts(arts ...Artifact) error {
	for _, a := range arts {
		if err := s.AddArtifact(a.Name, a.Kind, a.MediaType, a.Title); err != nil {
			return err
		}
	}
	return nil
}

// WriteArtifact writes data to Dir/name and announces it.
func (s *Step) WriteArtifact(name, kind, mediaType, title string, data []byte) error {
	if err := os.WriteFile(filepath.Join(s.Dir, name), data, 0o644); err != nil {
		return fmt.Errorf("write artifact %s: %w", name, err)
	}
	return s.AddArtifact(name, kind, mediaType, title)
}

// WriteJSON writes v as indented JSON to Dir/name and announces it as raw data.
func (s *Step) WriteJSON(name string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("encode %s: %w", name, err)
	}
	return s.WriteArtifact(name, KindRaw, "application/json", "", append(data, '\n'))
}

// describeFile builds the manifest of a file inside runDir.
func describeFile(runDir, path, name, kind, mediaType, title string) (*Artifact, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("artifact %s: %w", name, err)
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return nil, fmt.Errorf("artifact %s: %w", name, err)
	}
	rel, err := filepath.Rel(runDir, path)
	if err != nil || !filepath.IsLocal(rel) {
		return nil, fmt.Errorf("artifact %s: %s is outside the run directory %s", name, path, runDir)
	}
	return &Artifact{Name: name, Path: filepath.ToSlash(rel), MediaType: mediaType, Sha256: hex.EncodeToString(h.Sum(nil)), Size: n, Kind: kind, Title: title}, nil
}
