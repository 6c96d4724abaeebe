package sdk_test

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/droidprof/droidprof/framework/api"
	"github.com/droidprof/droidprof/framework/sdk"
	"github.com/droidprof/droidprof/framework/sdk/sdktest"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

type inner struct {
	Op string `json:"op" default:"insert" enum:"insert,update,delete"`
}

type config struct {
	Threads  int           `json:"threads" default:"1" min:"1" max:"100" doc:"worker threads"`
	FileSize sdk.Size      `json:"file_size" default:"1MiB"`
	Wait     time.Duration `json:"wait" default:"20ms"`
	Name     string        `json:"name" required:"true"`
	Tags     []string      `json:"tags" default:"a,b"`
	DB       inner         `json:"db"`
	Panic    bool          `json:"panic"`
}

func testPlugin() *sdk.Plugin {
	return &sdk.Plugin{
		Name: "probe", Version: "1.0.0",
		Collectors: []sdk.Collector{{Name: "probe", Config: config{}, Needs: []sdk.Tool{{Name: "sh", Package: "dash"}}, Run: func(ctx context.Context, s *sdk.Step) error {
			var c config
			if err := s.Decode(&c); err != nil {
				return err
			}
			if c.Panic {
				panic("boom")
			}
			s.Progress(1, 1, "steps", "done")
			s.Log(sdk.Info, "collected", "threads", c.Threads)
			if err := s.Records("events.jsonl", []byte("{}\n")); err != nil {
				return err
			}
			return s.WriteJSON("result.json", c)
		}}},
		Analyzers: []sdk.Analyzer{{Name: "probe", Run: func(ctx context.Context, a *sdk.Analysis) (*sdk.Result, error) {
			r := a.NewResult()
			for _, st := range a.Steps {
				var c config
				if err := a.ReadJSON(sdk.Find(st, "result.json"), &c); err != nil {
					return nil, err
				}
				r.Sample("size", "B", sdk.HigherIsBetter, st.Labels, float64(c.FileSize))
			}
			return r, r.Figure("f.svg", "a figure", []byte(`<svg xmlns="http://www.w3.org/2000/svg"/>`))
		}}},
	}
}

func TestSchemaOf(t *testing.T) {
	s, err := sdk.SchemaOf(config{})
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*api.Field{}
	for _, f := range s.Fields {
		byName[f.Name] = f
	}
	tests := []struct {
		name     string
		typ      api.Field_Type
		def      string
		required bool
	}{
		{"threads", api.Field_TYPE_INT, "1", false},
		{"file_size", api.Field_TYPE_SIZE, "1048576", false},
		{"wait", api.Field_TYPE_DURATION, "20000000", false},
		{"name", api.Field_TYPE_STRING, "", true},
		{"tags", api.Field_TYPE_STRING_LIST, `["a","b"]`, false},
		{"db", api.Field_TYPE_BLOCK, "", false},
	}
	for _, tt := range tests {
		f := byName[tt.name]
		if f == nil {
			t.Errorf("field %s missing", tt.name)
			continue
		}
		if f.Type != tt.typ || f.DefaultJson != tt.def || f.Required != tt.required {
			t.Errorf("field %s = %v %q required=%v; want %v %q %v", tt.name, f.Type, f.DefaultJson, f.Required, tt.typ, tt.def, tt.required)
		}
	}
	if f := byName["threads"]; !f.HasMin || f.Min != 1 || !f.HasMax || f.Max != 100 || f.Doc != "worker threads" {
		t.Errorf("threads bounds/doc = %+v", f)
	}
	if db := byName["db"].Block.Fields[0]; strings.Join(db.Enum, ",") != "insert,update,delete" {
		t.Errorf("db.op enum = %v", db.Enum)
	}

	type bad struct{ NoTag int }
	if _, err := sdk.SchemaOf(bad{}); err == nil || !strings.Contains(err.Error(), "json tag") {
		t.Errorf("SchemaOf(untagged) error = %v", err)
	}
}

func TestConformanceAndRoundTrip(t *testing.T) {
	c := sdktest.Start(t, testPlugin())
	sdktest.Conformance(t, c)
	ctx := context.Background()

	out, err := c.Collect(ctx, "probe", map[string]any{"name": "x", "db": map[string]any{}}, sdktest.CollectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Artifacts) != 1 || len(out.Logs) != 1 || len(out.Progress) != 1 || string(out.Records["events.jsonl"]) != "{}\n" {
		t.Fatalf("outcome = %+v", out)
	}
	// Defaults are applied by the SDK when the host did not send them.
	var got map[string]any
	if err := json.Unmarshal(mustRead(t, out.RunDir+"/"+out.Artifacts[0].Path), &got); err != nil {
		t.Fatal(err)
	}
	if got["file_size"] != float64(1<<20) || got["threads"] != float64(1) || got["db"].(map[string]any)["op"] != "insert" {
		t.Errorf("decoded config with defaults = %v", got)
	}

	resp, err := c.Analyze(ctx, "probe", nil, out.RunDir, []*sdk.StepArtifacts{out.Step("probe.probe", map[string]string{"k": "v"}, 0)})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Metrics) != 1 || resp.Metrics[0].Samples[0] != 1<<20 || len(resp.Artifacts) != 1 {
		t.Errorf("analyze = %v", resp)
	}
}

func TestPanicBecomesError(t *testing.T) {
	c := sdktest.Start(t, testPlugin())
	_, err := c.Collect(context.Background(), "probe", map[string]any{"name": "x", "panic": true}, sdktest.CollectOptions{})
	if status.Code(err) != codes.Internal || !strings.Contains(err.Error(), "boom") {
		t.Fatalf("panicking collector: err = %v, want Internal with the panic value", err)
	}
	if _, err := c.Info(context.Background()); err != nil {
		t.Fatalf("plugin dead after a recovered panic: %v", err)
	}
}

func TestUnknownConfigKeyIsAnError(t *testing.T) {
	c := sdktest.Start(t, testPlugin())
	_, err := c.Collect(context.Background(), "probe", map[string]any{"name": "x", "smaple": 1}, sdktest.CollectOptions{})
	if err == nil || !strings.Contains(err.Error(), "smaple") {
		t.Fatalf("err = %v, want it to name the unknown key", err)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestInfoCarriesNeeds(t *testing.T) {
	c := sdktest.Start(t, testPlugin())
	info, err := c.Info(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(info.Collectors) != 1 || len(info.Collectors[0].Needs) != 1 || info.Collectors[0].Needs[0] != (sdk.Tool{Name: "sh", Package: "dash"}) {
		t.Errorf("collectors %+v, want probe needing sh from dash", info.Collectors)
	}
}
