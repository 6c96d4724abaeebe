package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/droidprof/droidprof/framework/api"
	"github.com/droidprof/droidprof/framework/compare"
	"github.com/droidprof/droidprof/framework/fingerprint"
	"github.com/droidprof/droidprof/framework/host"
	"github.com/droidprof/droidprof/framework/report"
	"github.com/droidprof/droidprof/framework/results"
	"github.com/droidprof/droidprof/framework/runner"
	"github.com/droidprof/droidprof/framework/runstore"
	"github.com/droidprof/droidprof/framework/units"
	"google.golang.org/protobuf/encoding/protojson"
)

func cmdPlugins(env *env, args []string) error {
	fs := flag.NewFlagSet("plugins", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON")
	if _, err := flags(fs, args); err != nil {
		return err
	}
	m := env.plugins()
	defer m.Close()
	type entry struct {
		Name    string          `json:"name"`
		Path    string          `json:"path"`
		BuiltIn bool            `json:"builtin"`
		SHA256  string          `json:"sha256,omitempty"`
		Info    json.RawMessage `json:"info,omitempty"`
		Error   string          `json:"error,omitempty"`
	}
	var list []entry
	var infos []*api.PluginInfo
	for _, name := range host.Names(m.Sources) {
		src := m.Sources[name]
		e := entry{Name: name, Path: src.Path, BuiltIn: src.BuiltIn}
		p, err := m.Get(name)
		if err != nil {
			e.Error = err.Error()
			infos = append(infos, nil)
		} else {
			e.SHA256, _ = m.Checksum(src.Path)
			e.Info, _ = protojson.Marshal(p.Info)
			infos = append(infos, p.Info)
		}
		list = append(list, e)
	}
	if *asJSON {
		return writeJSON(env, list)
	}
	for i, e := range list {
		where := e.Path
		if e.BuiltIn {
			where = "built-in"
		}
		if infos[i] == nil {
			fmt.Fprintf(env.stdout, "%s (%s): cannot start: %s\n\n", e.Name, where, e.Error)
			continue
		}
		info := infos[i]
		fmt.Fprintf(env.stdout, "%s %s (%s) — %s\n", info.Name, info.Version, where, info.Description)
		for _, c := range info.Collectors {
			printComponent(env, "collect", info.Name, c)
		}
		for _, c := range info.Analyzers {
			printComponent(env, "analyze", info.Name, c)
		}
		fmt.Fprintln(env.stdout)
	}
	return nil
}

func printComponent(env *env, kind, plugin string, c *api.Component) {
	label := fmt.Sprintf("%s %q", kind, plugin)
	if c.Name != plugin {
		label += fmt.Sprintf(" %q", c.Name)
	}
	fmt.Fprintf(env.stdout, "  %s — %s\n", label, c.Description)
	for _, t := range c.GetNeeds() {
		where := "found in PATH"
		if _, err := exec.LookPath(t.GetName()); err != nil {
			where = "not found in PATH"
			if t.GetPackage() != "" {
				where += "; Debian/Ubuntu: apt install " + t.GetPackage()
			}
		}
		fmt.Fprintf(env.stdout, "    needs %s (%s)\n", t.GetName(), where)
	}
	tw := tabwriter.NewWriter(env.stdout, 0, 4, 2, ' ', 0)
	printFields(tw, "    ", c.Schema)
	tw.Flush()
}

func printFields(tw *tabwriter.Writer, indent string, s *api.Schema) {
	for _, f := range s.GetFields() {
		typ := strings.ToLower(strings.TrimPrefix(f.Type.String(), "TYPE_"))
		def := defaultText(f)
		if f.Required {
			def = "(required)"
		}
		if len(f.Enum) > 0 {
			typ += " " + strings.Join(f.Enum, "|")
		}
		fmt.Fprintf(tw, "%s%s\t%s\t%s\t%s\n", indent, f.Name, typ, def, f.Doc)
		if f.Type == api.Field_TYPE_BLOCK {
			printFields(tw, indent+"  ", f.Block)
		}
	}
}

func (e *env) store(out string) (*runstore.Store, error) {
	return runstore.Open(runstore.Root(out, e.getenv))
}

// openRun resolves RUN (ID, unique prefix or path) and reads its results.
func (e *env) openRun(out, ref string) (string, *results.Results, error) {
	store, err := e.store(out)
	if err != nil {
		return "", nil, err
	}
	defer store.Close()
	dir, err := store.Resolve(ref)
	if err != nil {
		return "", nil, err
	}
	// runstore.Read marks a run whose droidprof was killed as crashed.
	res, err := runstore.Read(dir)
	return dir, res, err
}

func cmdRuns(env *env, args []string) error {
	fs := flag.NewFlagSet("runs", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON")
	out := fs.String("out", "", "run store directory")
	exp := fs.String("experiment", "", "only runs of this experiment")
	status := fs.String("status", "", "only runs with this status")
	limit := fs.Int("limit", 0, "at most this many runs")
	if _, err := flags(fs, args); err != nil {
		return err
	}
	store, err := env.store(*out)
	if err != nil {
		return err
	}
	defer store.Close()
	list, err := store.List(runstore.Filter{Experiment: *exp, Status: *status, Limit: *limit})
	if err != nil {
		return err
	}
	if *asJSON {
		if list == nil {
			list = []runstore.Entry{} // [], not null
		}
		return writeJSON(env, list)
	}
	if len(list) == 0 {
		fmt.Fprintf(env.stdout, "no runs in %s (runs stored elsewhere with run --out DIR: add --out DIR)\n", store.Root())
		return nil
	}
	tw := tabwriter.NewWriter(env.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tEXPERIMENT\tSTATUS\tSTARTED\tMETRICS\tDIR")
	for _, r := range list {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%s\n", r.ID, r.Experiment, r.Status, r.Started.Local().Format("2006-01-02 15:04:05"), r.Metrics, r.Dir)
	}
	return tw.Flush()
}

func cmdShow(env *env, args []string) error {
	fs := flag.NewFlagSet("show", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print the whole results.json")
	out := fs.String("out", "", "run store directory")
	pos, err := flags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return &exitError{code: 2, err: errors.New("usage: droidprof show RUN [--json] [--out DIR]")}
	}
	dir, res, err := env.openRun(*out, pos[0])
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(env, res)
	}
	fmt.Fprintf(env.stdout, "run %s %s\n%s\n", res.RunID, dir, when(res))
	summarize(env.stdout, res)
	return nil
}

// when says when a run started and how it ended.
func when(res *results.Results) string {
	const layout = "2006-01-02 15:04:05"
	started := "started " + res.Started.Local().Format(layout)
	switch {
	case res.Status == results.StatusRunning:
		return started + ", still running"
	case res.Finished.IsZero():
		return started
	case res.Status == results.StatusCrashed:
		return fmt.Sprintf("%s, crashed: last written %s", started, res.Finished.Local().Format(layout))
	}
	return fmt.Sprintf("%s, finished %s (%s)", started, res.Finished.Local().Format(layout), res.Finished.Sub(res.Started).Round(time.Second))
}

func cmdCompare(env *env, args []string) error {
	fs := flag.NewFlagSet("compare", flag.ContinueOnError)
	format := fs.String("format", "text", "text, md, html or json")
	alpha := fs.Float64("alpha", 0.05, "significance level")
	out := fs.String("out", "", "run store directory")
	pos, err := flags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		return &exitError{code: 2, err: errors.New("usage: droidprof compare RUN_A RUN_B [--format text|md|html|json]")}
	}
	_, a, err := env.openRun(*out, pos[0])
	if err != nil {
		return err
	}
	_, b, err := env.openRun(*out, pos[1])
	if err != nil {
		return err
	}
	c := compare.Compare(a, b, compare.Options{Alpha: *alpha})
	switch *format {
	case "text":
		return compare.WriteText(env.stdout, c)
	case "md", "markdown":
		return compare.WriteMarkdown(env.stdout, c)
	case "html":
		return compare.WriteHTML(env.stdout, c)
	case "json":
		return compare.WriteJSON(env.stdout, c)
	}
	return &exitError{code: 2, err: fmt.Errorf("unknown format %q%s; use text, md, html or json", *format, suggest(*format, []string{"text", "md", "html", "json"}))}
}

func cmdReport(env *env, args []string) error {
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	out := fs.String("out", "", "run store directory")
	pos, err := flags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return &exitError{code: 2, err: errors.New("usage: droidprof report RUN [--out DIR]")}
	}
	dir, res, err := env.openRun(*out, pos[0])
	if err != nil {
		return err
	}
	if st, err := runner.ReadStored(dir); err == nil && len(st.Analyzers) > 0 && !analysed(res) && res.Status != results.StatusRunning {
		// A run whose analysis failed, was interrupted or never ran gets
		// one now.
		fmt.Fprintf(env.stderr, "run %s has no analysis; analysing it first\n", res.RunID)
		if _, err := env.analyze(*out, dir, ""); err != nil {
			fmt.Fprintf(env.stderr, "warning: %v\n", err)
		}
		if res, err = runstore.Read(dir); err != nil {
			return err
		}
	}
	if err := report.Write(dir, res); err != nil {
		return err
	}
	fmt.Fprintf(env.stdout, "%s\n%s\n", filepath.Join(dir, "report.md"), filepath.Join(dir, "report.html"))
	return nil
}

// analysed reports whether some analyzer of res succeeded.
func analysed(res *results.Results) bool {
	for _, a := range res.Analyses {
		if a.Status == "ok" {
			return true
		}
	}
	return false
}

func cmdVersion(env *env, _ []string) error {
	fp := fingerprint.Collect("")
	commit := fp.DroidprofCommit
	if commit == "" {
		commit = "unknown commit"
	}
	fmt.Fprintf(env.stdout, "droidprof %s (%s, %s, protocol %d)\n", fp.DroidprofVersion, commit, fp.GoVersion, api.ProtocolVersion)
	return nil
}

func writeJSON(env *env, v any) error {
	enc := json.NewEncoder(env.stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// defaultText shows a default the way a user would write it in a config.
func defaultText(f *api.Field) string {
	var n int64
	if json.Unmarshal([]byte(f.DefaultJson), &n) == nil {
		switch f.Type {
		case api.Field_TYPE_SIZE:
			return units.FormatSize(n)
		case api.Field_TYPE_DURATION:
			return time.Duration(n).String()
		}
	}
	return f.DefaultJson
}
