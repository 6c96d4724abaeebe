package sdk

import "github.com/droidprof/droidprof/framework/api"

// The protocol messages stay behind the SDK: plugins see the plain types of
// this package, and only the server (serve.go) converts, so the protocol can
// change without breaking a plugin's source.

func (a *Artifact) proto() *api.Artifact {
	return &api.Artifact{Name: a.Name, Path: a.Path, MediaType: a.MediaType, Sha256: a.Sha256, Size: a.Size, Kind: a.Kind, Title: a.Title}
}

func artifactFromProto(a *api.Artifact) *Artifact {
	return &Artifact{Name: a.GetName(), Path: a.GetPath(), MediaType: a.GetMediaType(), Sha256: a.GetSha256(), Size: a.GetSize(), Kind: a.GetKind(), Title: a.GetTitle()}
}

func stepsFromProto(steps []*api.StepArtifacts) []*StepArtifacts {
	out := make([]*StepArtifacts, 0, len(steps))
	for _, st := range steps {
		s := &StepArtifacts{
			ID: st.GetStepId(), Collector: st.GetCollector(), Labels: st.GetLabels(), Repetition: int(st.GetRepetition()),
			Status: st.GetStatus(), Error: st.GetError(),
		}
		for _, a := range st.GetArtifacts() {
			s.Artifacts = append(s.Artifacts, artifactFromProto(a))
		}
		out = append(out, s)
	}
	return out
}

func (o *Output) proto() *api.AnalyzeResponse {
	resp := &api.AnalyzeResponse{Summary: o.Summary}
	for _, m := range o.Metrics {
		resp.Metrics = append(resp.Metrics, &api.Metric{Name: m.Name, Unit: m.Unit, Better: api.Metric_Better(m.Better), Labels: m.Labels, Samples: m.Samples})
	}
	for _, t := range o.Tables {
		pt := &api.Table{Name: t.Name, Title: t.Title, Columns: t.Columns}
		for _, row := range t.Rows {
			pt.Rows = append(pt.Rows, &api.Row{Cells: row})
		}
		resp.Tables = append(resp.Tables, pt)
	}
	for _, a := range o.Artifacts {
		resp.Artifacts = append(resp.Artifacts, a.proto())
	}
	return resp
}
