// Package sdktest is the conformance kit for droidprof plugins. A plugin
// author calls it from an ordinary `go test`, either in-process (Start) or
// against the built binary exactly as the host launches it (Exec):
//
//	func TestConformance(t *testing.T) {
//		c := sdktest.Start(t, myplugin.Plugin())
//		sdktest.Conformance(t, c)
//		out, err := c.Collect(context.Background(), "hello", map[string]any{"greeting": "hi"}, sdktest.CollectOptions{})
//		...
//	}
package sdktest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/droidprof/droidprof/framework/api"
	"github.com/droidprof/droidprof/framework/internal/wire"
	"github.com/droidprof/droidprof/framework/sdk"
	"github.com/hashicorp/go-hclog"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
)

// Conn is a connection to a plugin under test.
type Conn struct {
	client *wire.Client
	t      testing.TB
}

// Start serves p in-process over a real gRPC connection, with the same server
// options (message limits, panic recovery) as a plugin binary.
func Start(t testing.TB, p *sdk.Plugin) *Conn {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("sdktest: listen: %v", err)
	}
	srv := sdk.NewGRPCServer(nil)
	(&wire.GRPCPlugin{Impl: sdk.Servers(p)}).GRPCServer(nil, srv)
	go func() { _ = srv.Serve(lis) }()
	cc, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(wire.MaxMsgSize), grpc.MaxCallSendMsgSize(wire.MaxMsgSize)))
	if err != nil {
		t.Fatalf("sdktest: dial: %v", err)
	}
	t.Cleanup(func() { cc.Close(); srv.Stop() })
	return &Conn{client: &wire.Client{PluginClient: api.NewPluginClient(cc), CollectorClient: api.NewCollectorClient(cc), AnalyzerClient: api.NewAnalyzerClient(cc)}, t: t}
}

// Exec launches a plugin binary the way the host does and connects to it.
func Exec(t testing.TB, path string, args ...string) *Conn {
	t.Helper()
	proc, err := wire.Launch(exec.Command(path, args...), wire.LaunchOptions{Logger: hclog.NewNullLogger()})
	if err != nil {
		t.Fatalf("sdktest: %v", err)
	}
	t.Cleanup(proc.Kill)
	return &Conn{client: proc.Client, t: t}
}

// Info is what a plugin says about itself.
type Info struct {
	Name, Version, Description string
	SDKVersion                 string
	ProtocolVersion            int
	Collectors, Analyzers      []Component
}

// Component is one collector or analyzer of a plugin.
type Component struct {
	Name, Description string
	Fields            []Field    // the configuration schema
	Needs             []sdk.Tool // external programs a collector runs
}

// Field is one setting of a component's configuration, as the host sees it.
type Field struct {
	Name, Doc string
	Type      string // "string", "int", "float", "bool", "string_list", "int_list", "float_list", "size", "duration" or "block"
	Required  bool
	Default   string // JSON; "" when there is none
	Enum      []string
	Min, Max  *float64 // inclusive bounds, nil when unbounded
	Block     []Field  // the fields of a block
}

// Info asks the plugin to describe itself.
func (c *Conn) Info(ctx context.Context) (*Info, error) {
	pi, err := c.client.Info(ctx, &api.InfoRequest{})
	if err != nil {
		return nil, err
	}
	info := &Info{Name: pi.Name, Version: pi.Version, Description: pi.Description, SDKVersion: pi.SdkVersion, ProtocolVersion: int(pi.ProtocolVersion)}
	for _, comp := range pi.Collectors {
		info.Collectors = append(info.Collectors, component(comp))
	}
	for _, comp := range pi.Analyzers {
		info.Analyzers = append(info.Analyzers, component(comp))
	}
	return info, nil
}

func component(c *api.Component) Component {
	comp := Component{Name: c.Name, Description: c.Description, Fields: fields(c.Schema)}
	for _, t := range c.Needs {
		comp.Needs = append(comp.Needs, sdk.Tool{Name: t.Name, Package: t.Package})
	}
	return comp
}

func fields(s *api.Schema) []Field {
	var out []Field
	for _, f := range s.GetFields() {
		fd := Field{
			Name: f.Name, Doc: f.Doc, Required: f.Required, Default: f.DefaultJson, Enum: f.Enum,
			Type: strings.ToLower(strings.TrimPrefix(f.Type.String(), "TYPE_")), Block: fields(f.Block),
		}
		if f.HasMin {
			fd.Min = &f.Min
		}
		if f.HasMax {
			fd.Max = &f.Max
		}
		out = append(out, fd)
	}
	return out
}

var nameRE = regexp.MustCompile(`^[a-z][a-z0-9_-]*$`)

// Conformance checks what every plugin must get right: a usable Info, well
// formed schemas whose defaults satisfy their own constraints, and clean
// errors (not crashes) for requests naming components that do not exist.
func Conformance(t *testing.T, c *Conn) {
	t.Helper()
	ctx := context.Background()
	info, err := c.client.Info(ctx, &api.InfoRequest{})
	if err != nil {
		t.Fatalf("Info: %v", err)
	}
	if !nameRE.MatchString(info.Name) {
		t.Errorf("plugin name %q must match %s", info.Name, nameRE)
	}
	if info.Version == "" {
		t.Errorf("plugin %s has no version", info.Name)
	}
	if info.ProtocolVersion != api.ProtocolVersion {
		t.Errorf("protocol version %d, want %d", info.ProtocolVersion, api.ProtocolVersion)
	}
	if len(info.Collectors)+len(info.Analyzers) == 0 {
		t.Errorf("plugin %s offers no collector and no analyzer", info.Name)
	}
	for kind, comps := range map[string][]*api.Component{"collector": info.Collectors, "analyzer": info.Analyzers} {
		seen := map[string]bool{}
		for _, comp := range comps {
			if !nameRE.MatchString(comp.Name) {
				t.Errorf("%s name %q must match %s", kind, comp.Name, nameRE)
			}
			if seen[comp.Name] {
				t.Errorf("%s %q declared twice", kind, comp.Name)
			}
			seen[comp.Name] = true
			checkSchema(t, kind+" "+comp.Name, comp.Schema)
			for _, tool := range comp.Needs {
				if tool.Name == "" || strings.ContainsRune(tool.Name, '/') || tool.Package == "" {
					t.Errorf("%s %s needs tool %q (package %q): want a program name looked up in PATH and the package that installs it", kind, comp.Name, tool.Name, tool.Package)
				}
			}
		}
	}
	_, err = c.client.Analyze(ctx, &api.AnalyzeRequest{Component: "no-such-analyzer", RunDir: t.TempDir(), OutDir: t.TempDir()})
	if status.Code(err) != codes.NotFound {
		t.Errorf("Analyze of an unknown analyzer: got %v, want a NotFound error", err)
	}
	if _, err := c.Collect(ctx, "no-such-collector", nil, CollectOptions{}); status.Code(err) != codes.NotFound {
		t.Errorf("Collect of an unknown collector: got %v, want a NotFound error", err)
	}
	if _, err := c.client.Info(ctx, &api.InfoRequest{}); err != nil {
		t.Errorf("plugin stopped answering after bad requests: %v", err)
	}
}

func checkSchema(t *testing.T, where string, s *api.Schema) {
	t.Helper()
	seen := map[string]bool{}
	for _, f := range s.GetFields() {
		at := where + " field " + f.Name
		if !nameRE.MatchString(f.Name) {
			t.Errorf("%s: name must match %s", at, nameRE)
		}
		if seen[f.Name] {
			t.Errorf("%s: declared twice", at)
		}
		seen[f.Name] = true
		if f.Type == api.Field_TYPE_UNSPECIFIED {
			t.Errorf("%s: no type", at)
		}
		if f.Type == api.Field_TYPE_BLOCK {
			if f.Block == nil {
				t.Errorf("%s: block without a schema", at)
			}
			checkSchema(t, at, f.Block)
			continue
		}
		if f.Required && f.DefaultJson != "" {
			t.Errorf("%s: required fields cannot have a default", at)
		}
		if f.DefaultJson == "" {
			continue
		}
		var v any
		if err := json.Unmarshal([]byte(f.DefaultJson), &v); err != nil {
			t.Errorf("%s: default %q is not JSON: %v", at, f.DefaultJson, err)
			continue
		}
		if n, ok := v.(float64); ok {
			if (f.HasMin && n < f.Min) || (f.HasMax && n > f.Max) {
				t.Errorf("%s: default %v outside [%v, %v]", at, n, f.Min, f.Max)
			}
		}
		if len(f.Enum) > 0 {
			txt := f.DefaultJson
			if s, ok := v.(string); ok {
				txt = s
			}
			found := false
			for _, e := range f.Enum {
				found = found || e == txt
			}
			if !found {
				t.Errorf("%s: default %s is not one of %v", at, txt, f.Enum)
			}
		}
	}
}

// CollectOptions describe the step to run.
type CollectOptions struct {
	// RunDir is the run directory; give several steps the same one to
	// analyse them together. Default: a fresh temporary directory.
	RunDir     string
	StepID     string            // default "s<repetition>"; names the step directory
	StorageDir string            // default: a fresh temporary directory
	Labels     map[string]string // matrix labels
	Repetition int
}

// Outcome is what a Collect call produced.
type Outcome struct {
	RunDir, StepDir string
	Artifacts       []*sdk.Artifact
	Logs            []LogLine
	Progress        []Progress
	Records         map[string][]byte
}

// LogLine is a line the collector logged (sdk.Step.Log).
type LogLine struct {
	Level   sdk.Level
	Message string
	Fields  map[string]string
}

// Progress is a progress report of the collector (sdk.Step.Progress).
type Progress struct {
	Done, Total   float64
	Unit, Message string
}

// Collect runs one step of a collector. config is anything that encodes to a
// JSON object (a map or the plugin's own config struct), or nil. Every
// artifact the plugin announces is checked: it must exist inside the run
// directory with the announced size and sha256.
func (c *Conn) Collect(ctx context.Context, component string, config any, opt CollectOptions) (*Outcome, error) {
	c.t.Helper()
	cfg, err := json.Marshal(config)
	if err != nil {
		c.t.Fatalf("sdktest: encode config: %v", err)
	}
	if config == nil {
		cfg = nil
	}
	if opt.RunDir == "" {
		opt.RunDir = c.t.TempDir()
	}
	if opt.StepID == "" {
		opt.StepID = fmt.Sprintf("s%d", opt.Repetition)
	}
	out := &Outcome{RunDir: opt.RunDir, Records: map[string][]byte{}}
	out.StepDir = filepath.Join(out.RunDir, "steps", opt.StepID)
	if opt.StorageDir == "" {
		opt.StorageDir = c.t.TempDir()
	}
	stream, err := c.client.Collect(ctx, &api.CollectRequest{
		Component: component, ConfigJson: cfg, RunDir: out.RunDir, StepDir: out.StepDir,
		StepId: opt.StepID, Labels: opt.Labels, Repetition: int32(opt.Repetition),
		Storage: &api.Storage{Backend: "dir", Dir: opt.StorageDir},
	})
	if err != nil {
		return out, err
	}
	for {
		ev, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		switch e := ev.Event.(type) {
		case *api.CollectEvent_Artifact:
			a := artifact(e.Artifact)
			c.checkArtifact(out.RunDir, a)
			out.Artifacts = append(out.Artifacts, a)
		case *api.CollectEvent_Log:
			out.Logs = append(out.Logs, LogLine{Level: sdk.Level(e.Log.Level), Message: e.Log.Message, Fields: e.Log.Fields})
		case *api.CollectEvent_Progress:
			p := e.Progress
			out.Progress = append(out.Progress, Progress{Done: p.Done, Total: p.Total, Unit: p.Unit, Message: p.Message})
		case *api.CollectEvent_Records:
			out.Records[e.Records.Stream] = append(out.Records[e.Records.Stream], e.Records.Data...)
		}
	}
}

// Step returns the outcome as the host would hand it to an analyzer.
// collector is "plugin.collector".
func (o *Outcome) Step(collector string, labels map[string]string, repetition int) *sdk.StepArtifacts {
	return &sdk.StepArtifacts{ID: filepath.Base(o.StepDir), Collector: collector, Labels: labels, Repetition: repetition, Status: "ok", Artifacts: o.Artifacts}
}

func artifact(a *api.Artifact) *sdk.Artifact {
	return &sdk.Artifact{Name: a.Name, Path: a.Path, MediaType: a.MediaType, Sha256: a.Sha256, Size: a.Size, Kind: a.Kind, Title: a.Title}
}

func (c *Conn) checkArtifact(runDir string, a *sdk.Artifact) {
	c.t.Helper()
	if !filepath.IsLocal(filepath.FromSlash(a.Path)) {
		c.t.Errorf("artifact %s: path %q is not inside the run directory", a.Name, a.Path)
		return
	}
	data, err := os.ReadFile(filepath.Join(runDir, filepath.FromSlash(a.Path)))
	if err != nil {
		c.t.Errorf("artifact %s: %v", a.Name, err)
		return
	}
	sum := sha256.Sum256(data)
	if int64(len(data)) != a.Size || hex.EncodeToString(sum[:]) != a.Sha256 {
		c.t.Errorf("artifact %s: announced size %d sha256 %s, file has %d %x", a.Name, a.Size, a.Sha256, len(data), sum)
	}
}

// Analyze runs an analyzer over steps that live in runDir. Metrics must have a
// name, a unit and at least one finite sample; announced files must exist.
func (c *Conn) Analyze(ctx context.Context, component string, config any, runDir string, steps []*sdk.StepArtifacts) (*sdk.Output, error) {
	c.t.Helper()
	var cfg []byte
	if config != nil {
		var err error
		if cfg, err = json.Marshal(config); err != nil {
			c.t.Fatalf("sdktest: encode config: %v", err)
		}
	}
	req := &api.AnalyzeRequest{Component: component, ConfigJson: cfg, RunDir: runDir, OutDir: filepath.Join(runDir, "analysis", component)}
	for _, st := range steps {
		ps := &api.StepArtifacts{StepId: st.ID, Collector: st.Collector, Labels: st.Labels, Repetition: int32(st.Repetition), Status: st.Status, Error: st.Error}
		for _, a := range st.Artifacts {
			ps.Artifacts = append(ps.Artifacts, &api.Artifact{Name: a.Name, Path: a.Path, MediaType: a.MediaType, Sha256: a.Sha256, Size: a.Size, Kind: a.Kind, Title: a.Title})
		}
		req.Steps = append(req.Steps, ps)
	}
	pr, err := c.client.Analyze(ctx, req)
	if err != nil {
		return nil, err
	}
	resp := &sdk.Output{Summary: pr.Summary}
	for _, m := range pr.Metrics {
		resp.Metrics = append(resp.Metrics, &sdk.Metric{Name: m.Name, Unit: m.Unit, Better: sdk.Better(m.Better), Labels: m.Labels, Samples: m.Samples})
	}
	for _, tb := range pr.Tables {
		t := &sdk.Table{Name: tb.Name, Title: tb.Title, Columns: tb.Columns}
		for _, row := range tb.Rows {
			t.Rows = append(t.Rows, row.Cells)
		}
		resp.Tables = append(resp.Tables, t)
	}
	for _, a := range pr.Artifacts {
		resp.Artifacts = append(resp.Artifacts, artifact(a))
	}
	for _, m := range resp.Metrics {
		if m.Name == "" || m.Unit == "" || len(m.Samples) == 0 {
			c.t.Errorf("metric %q: needs a name, a unit and samples (unit %q, %d samples)", m.Name, m.Unit, len(m.Samples))
		}
		for _, s := range m.Samples {
			if math.IsNaN(s) || math.IsInf(s, 0) {
				c.t.Errorf("metric %q has a non-finite sample %v", m.Name, s)
			}
		}
	}
	for _, a := range resp.Artifacts {
		c.checkArtifact(runDir, a)
	}
	return resp, nil
}
