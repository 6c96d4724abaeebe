package host

import (
	"errors"
	"fmt"
	"os/exec"

	"github.com/droidprof/droidprof/framework/config"
)

// MissingTool is an external program a collector needs (sdk.Collector.Needs)
// that is not installed.
type MissingTool struct {
	Collector string     // "plugin.component"
	Tool      string     // the executable looked up in PATH
	Package   string     // the Debian/Ubuntu package that installs it; may be empty
	Pos       config.Pos // the collect block's header; zero when unknown
}

// Error renders `FILE:LINE:COL: collector "mobibench.fio" needs fio, not
// found in PATH (Debian/Ubuntu: apt install fio)`.
func (e *MissingTool) Error() string {
	msg := fmt.Sprintf("collector %q needs %s, not found in PATH", e.Collector, e.Tool)
	if e.Package != "" {
		msg += fmt.Sprintf(" (Debian/Ubuntu: apt install %s)", e.Package)
	}
	if e.Pos.File != "" {
		msg = e.Pos.String() + ": " + msg
	}
	return msg
}

// CheckTools looks up in PATH every external program the plan's collectors
// need, so a run stops before its first step, and `validate` fails, rather
// than a step failing halfway through the run. The error joins one
// *MissingTool per collect block and tool.
func (m *Manager) CheckTools(plan *config.Plan) error {
	var errs []error
	for _, st := range plan.Collect {
		p, err := m.Get(st.Plugin)
		if err != nil {
			return err
		}
		for _, c := range p.Info.GetCollectors() {
			if c.GetName() != st.Component {
				continue
			}
			for _, t := range c.GetNeeds() {
				if _, err := exec.LookPath(t.GetName()); err == nil {
					continue
				}
				mt := &MissingTool{Collector: st.Plugin + "." + st.Component, Tool: t.GetName(), Package: t.GetPackage()}
				if st.Block != nil {
					mt.Pos = st.Block.Pos
				}
				errs = append(errs, mt)
			}
		}
	}
	return errors.Join(errs...)
}
