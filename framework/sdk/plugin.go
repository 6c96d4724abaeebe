// Package sdk is the public kit for writing droidprof plugins.
//
// A plugin is a Go program whose main calls Serve with a Plugin value. The SDK
// hides go-plugin and gRPC: authors write Collectors and Analyzers as plain Go
// functions over a Step or an Analysis, and describe their configuration with
// an ordinary Go struct whose tags become the schema the host validates
// experiment configs against.
//
//	func main() {
//		sdk.Serve(&sdk.Plugin{
//			Name: "hello", Version: "0.1.0",
//			Collectors: []sdk.Collector{{Name: "hello", Config: Config{}, Run: collect}},
//			Analyzers:  []sdk.Analyzer{{Name: "hello", Run: analyze}},
//		})
//	}
//
// Configuration structs use these field tags:
//
//	json:"name"       the key users write (required; "-" skips the field)
//	doc:"..."         one line shown by `droidprof plugins`
//	default:"..."     default value, written as a user would write it
//	required:"true"   the key must be present
//	enum:"a,b,c"      allowed values
//	min:"1" max:"100" inclusive bounds for numbers
//
// Field types: string, bool, int/int64, float64, []string, []int, []float64,
// Size (a byte count: 4096, "4KiB"), time.Duration ("200ms"), and nested
// structs, which become blocks.
//
// A plugin needs nothing else of droidprof's framework: sdk/chart draws the
// SVG charts the reports embed, sdk/stats summarises samples as the host
// does, and sdk/sdktest tests a plugin from its own `go test`. The protocol
// under the SDK stays hidden so it can change without breaking plugins;
// SchemaOf, ParseValue, Servers and NewGRPCServer are for the host and
// sdktest.
package sdk

import (
	"context"

	"github.com/droidprof/droidprof/framework/api"
)

// Version is the SDK version reported to the host.
const Version = "0.1.0"

// Plugin is everything a plugin binary offers.
type Plugin struct {
	Name        string
	Version     string
	Description string
	Collectors  []Collector
	Analyzers   []Analyzer
}

// Collector runs one step of an experiment and leaves raw data in the step's
// directory.
type Collector struct {
	Name        string
	Description string
	// Config is the zero value of the collector's configuration struct (or nil
	// when it takes none); its tags define the schema.
	Config any
	// Needs are the external programs the collector runs. The host checks
	// they are in PATH before a run starts and in `droidprof validate`, and
	// names the package to install for each one missing.
	Needs []Tool
	Run   func(ctx context.Context, step *Step) error
}

// Tool is an external program a collector runs.
type Tool struct {
	Name    string // the executable, looked up in PATH (e.g. "fio")
	Package string // the Debian/Ubuntu package that installs it (e.g. "fio")
}

// Analyzer turns the artifacts of a whole run into metrics, tables and figures.
type Analyzer struct {
	Name        string
	Description string
	Config      any
	Run         func(ctx context.Context, a *Analysis) (*Result, error)
}

// Size is a byte count. In configs it may be written as a number of bytes or
// with a binary unit ("4KiB", "1M").
type Size int64

// info returns the protocol description of p, with schemas derived from the
// configuration structs. It panics if a configuration struct is malformed,
// which is a programming error found by the first test that calls it.
func (p *Plugin) info() *api.PluginInfo {
	info := &api.PluginInfo{
		Name:            p.Name,
		Version:         p.Version,
		SdkVersion:      Version,
		ProtocolVersion: api.ProtocolVersion,
		Description:     p.Description,
	}
	for _, c := range p.Collectors {
		comp := &api.Component{Name: c.Name, Description: c.Description, Schema: mustSchema(c.Config)}
		for _, t := range c.Needs {
			comp.Needs = append(comp.Needs, &api.Tool{Name: t.Name, Package: t.Package})
		}
		info.Collectors = append(info.Collectors, comp)
	}
	for _, a := range p.Analyzers {
		info.Analyzers = append(info.Analyzers, &api.Component{Name: a.Name, Description: a.Description, Schema: mustSchema(a.Config)})
	}
	return info
}

func mustSchema(cfg any) *api.Schema {
	if cfg == nil {
		return &api.Schema{}
	}
	s, err := SchemaOf(cfg)
	if err != nil {
		panic(err)
	}
	return s
}

func (p *Plugin) collector(name string) *Collector {
	for i := range p.Collectors {
		if p.Collectors[i].Name == name {
			return &p.Collectors[i]
		}
	}
	return nil
}

func (p *Plugin) analyzer(name string) *Analyzer {
	for i := range p.Analyzers {
		if p.Analyzers[i].Name == name {
			return &p.Analyzers[i]
		}
	}
	return nil
}
