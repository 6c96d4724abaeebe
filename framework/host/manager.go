package host

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"os/exec"
	"sync"
	"time"

	"github.com/droidprof/droidprof/framework/api"
	"github.com/droidprof/droidprof/framework/config"
	"github.com/droidprof/droidprof/framework/fingerprint"
	"github.com/droidprof/droidprof/framework/internal/wire"
	"github.com/hashicorp/go-hclog"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Plugin is a running plugin.
type Plugin struct {
	Source Source
	Info   *api.PluginInfo
	*wire.Client
	proc *wire.Process
}

// Exited reports whether the plugin process has ended.
func (p *Plugin) Exited() bool { return p.proc.Exited() }

// Crashed tells whether err, returned by a call to p, means the plugin process
// died. The transport can notice a dead peer a moment before the process is
// seen to exit, so for a dropped connection it waits briefly for the exit.
func (p *Plugin) Crashed(err error) bool {
	if status.Code(err) != codes.Unavailable {
		return p.Exited()
	}
	deadline := time.Now().Add(3 * time.Second)
	for !p.Exited() && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	return p.Exited()
}

// Manager starts plugins on first use and stops them all on Close.
type Manager struct {
	Sources      map[string]Source
	Logger       hclog.Logger
	StartTimeout time.Duration
	// Searched says where the sources were looked for (Discovery.Searched),
	// for the error about an unknown plugin.
	Searched string

	mu      sync.Mutex
	running map[string]*Plugin
	closed  bool

	sumMu sync.Mutex
	sums  map[string]string
}

// NewManager returns a manager over the discovered sources.
func NewManager(sources map[string]Source, logger hclog.Logger) *Manager {
	if logger == nil {
		logger = hclog.NewNullLogger()
	}
	return &Manager{Sources: sources, Logger: logger, StartTimeout: 30 * time.Second, running: map[string]*Plugin{}, sums: map[string]string{}}
}

// ErrUnknownPlugin is returned for names no source provides.
var ErrUnknownPlugin = errors.New("unknown plugin")

// Get returns the running plugin called name, starting it if needed. A plugin
// that has exited is started again.
func (m *Manager) Get(name string) (*Plugin, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, errors.New("plugin manager is shut down")
	}
	if p, ok := m.running[name]; ok {
		if !p.Exited() {
			return p, nil
		}
		// The plugin died; whatever it started (fio, a workload) is still in
		// its process group and goes with it.
		p.proc.Kill()
		delete(m.running, name)
	}
	src, ok := m.Sources[name]
	if !ok {
		return nil, m.errUnknown(name)
	}
	opts := wire.LaunchOptions{Logger: m.Logger.Named(name), StartTimeout: m.StartTimeout}
	if !src.BuiltIn {
		// go-plugin re-verifies a third-party binary before every exec, so a
		// binary swapped during a run is refused. Built-ins are this very
		// executable: hashing it again per launch would only cost start time.
		sum, err := m.Checksum(src.Path)
		if err != nil {
			return nil, err
		}
		opts.Checksum, _ = hex.DecodeString(sum)
	}
	proc, err := wire.Launch(exec.Command(src.Path, src.Args...), opts)
	if err != nil {
		return nil, fmt.Errorf("plugin %s: %w", name, err)
	}
	info, err := proc.Info(context.Background(), &api.InfoRequest{})
	if err != nil {
		proc.Kill()
		return nil, fmt.Errorf("plugin %s: Info: %w", name, UserError(err))
	}
	if info.Name != name {
		m.Logger.Warn("plugin reports a different name than its binary", "binary", src.Path, "name", info.Name)
	}
	p := &Plugin{Source: src, Info: info, Client: proc.Client, proc: proc}
	m.running[name] = p
	return p, nil
}

// Checksum returns the sha256 of a plugin binary, hashed once per manager.
func (m *Manager) Checksum(path string) (string, error) {
	m.sumMu.Lock()
	defer m.sumMu.Unlock()
	if s, ok := m.sums[path]; ok {
		return s, nil
	}
	s, err := fingerprint.PluginChecksum(path)
	if err != nil {
		return "", fmt.Errorf("plugin binary: %w", err)
	}
	m.sums[path] = s
	return s, nil
}

// Used returns the plugins started so far.
func (m *Manager) Used() map[string]*Plugin {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make(map[string]*Plugin, len(m.running))
	for k, v := range m.running {
		out[k] = v
	}
	return out
}

// Close stops every plugin and the process groups they started. It is safe to
// call more than once and from a signal handler.
func (m *Manager) Close() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.closed = true
	for name, p := range m.running {
		p.proc.Kill()
		delete(m.running, name)
	}
}

// Component implements config.Schemas: it resolves a collect or analyze
// block to one of the plugin's components and returns its schema. An empty
// component means the one named like the plugin, or the plugin's only one.
func (m *Manager) Component(kind, plugin, component string) (string, *api.Schema, error) {
	if _, ok := m.Sources[plugin]; !ok {
		return "", nil, &config.UnknownError{Kind: "plugin", Name: plugin, Known: Names(m.Sources)}
	}
	p, err := m.Get(plugin)
	if err != nil {
		return "", nil, err
	}
	comps := p.Info.Collectors
	if kind == "analyzer" {
		comps = p.Info.Analyzers
	}
	var names []string
	for _, c := range comps {
		names = append(names, c.Name)
	}
	if component == "" {
		switch {
		case len(comps) == 1:
			return comps[0].Name, comps[0].Schema, nil
		case len(comps) == 0:
			return "", nil, fmt.Errorf("plugin %s has no %s", plugin, kind)
		}
		component = plugin
	}
	for _, c := range comps {
		if c.Name == component {
			return c.Name, c.Schema, nil
		}
	}
	return "", nil, &config.UnknownError{Kind: kind, Name: component, Known: names}
}
