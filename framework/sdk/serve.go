package sdk

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"time"

	"github.com/droidprof/droidprof/framework/api"
	"github.com/droidprof/droidprof/framework/internal/wire"
	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Serve runs p as a plugin process and returns only when the host is done
// with it. Nothing may be written to stdout before Serve: the handshake goes
// out there. Run with the single argument "describe", the binary prints its
// Info as JSON instead, which is handy for packaging.
func Serve(p *Plugin) {
	if len(os.Args) == 2 && os.Args[1] == "describe" {
		data, err := json.MarshalIndent(p.info(), "", "  ")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Println(string(data))
		return
	}
	logger := hclog.New(&hclog.LoggerOptions{Name: p.Name, JSONFormat: true, Output: os.Stderr, Level: hclog.Info})
	go watchParent(logger)
	plugin.Serve(&plugin.ServeConfig{
		HandshakeConfig:  wire.Handshake,
		VersionedPlugins: wire.PluginSets(Servers(p)),
		GRPCServer:       NewGRPCServer,
		Logger:           logger,
	})
}

// NewGRPCServer builds the gRPC server every plugin uses: raised message
// limits and recovery from handler panics, so a bug in a plugin becomes an
// error the host can report instead of a dead process.
func NewGRPCServer(opts []grpc.ServerOption) *grpc.Server {
	opts = append(opts,
		grpc.MaxRecvMsgSize(wire.MaxMsgSize),
		grpc.MaxSendMsgSize(wire.MaxMsgSize),
		grpc.ChainUnaryInterceptor(recoverUnary),
		grpc.ChainStreamInterceptor(recoverStream),
	)
	return grpc.NewServer(opts...)
}

func panicError(method string, r any) error {
	return status.Errorf(codes.Internal, "plugin panicked in %s: %v\n%s", method, r, debug.Stack())
}

func recoverUnary(ctx context.Context, req any, info *grpc.UnaryServerInfo, h grpc.UnaryHandler) (resp any, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = panicError(info.FullMethod, r)
		}
	}()
	return h(ctx, req)
}

func recoverStream(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, h grpc.StreamHandler) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = panicError(info.FullMethod, r)
		}
	}()
	return h(srv, ss)
}

// watchParent ends the plugin when its host goes away. On Linux the host also
// sets Pdeathsig; this covers the platforms and launchers that cannot.
func watchParent(logger hclog.Logger) {
	parent := os.Getppid()
	for range time.Tick(time.Second) {
		if os.Getppid() != parent {
			logger.Error("host process went away; exiting", "old_ppid", parent)
			os.Exit(2)
		}
	}
}

// Servers adapts p to the protocol's gRPC services. Serve uses it; sdktest
// uses it to run a plugin in-process.
func Servers(p *Plugin) *wire.Servers {
	s := &server{p: p, info: p.info()}
	return &wire.Servers{PluginServer: s, CollectorServer: s, AnalyzerServer: s}
}

type server struct {
	api.UnimplementedPluginServer
	api.UnimplementedCollectorServer
	api.UnimplementedAnalyzerServer
	p    *Plugin
	info *api.PluginInfo
}

func (s *server) Info(context.Context, *api.InfoRequest) (*api.PluginInfo, error) { return s.info, nil }

func schemaOf(comps []*api.Component, name string) *api.Schema {
	for _, c := range comps {
		if c.Name == name {
			return c.Schema
		}
	}
	return nil
}

func (s *server) Collect(req *api.CollectRequest, stream api.Collector_CollectServer) error {
	c := s.p.collector(req.Component)
	if c == nil {
		return status.Errorf(codes.NotFound, "plugin %s has no collector %q", s.p.Name, req.Component)
	}
	if !filepath.IsAbs(req.StepDir) || !filepath.IsAbs(req.RunDir) {
		return status.Errorf(codes.InvalidArgument, "run and step directories must be absolute, got %q and %q", req.RunDir, req.StepDir)
	}
	if err := os.MkdirAll(req.StepDir, 0o755); err != nil {
		return status.Errorf(codes.FailedPrecondition, "step directory: %v", err)
	}
	st := req.GetStorage()
	step := &Step{
		ID: req.StepId, Labels: req.Labels, Repetition: int(req.Repetition), Warmup: req.Warmup,
		Dir: req.StepDir, RunDir: req.RunDir,
		Storage: Storage{Backend: st.GetBackend(), Dir: st.GetDir(), FSType: st.GetFsType(), Options: st.GetOptions()},
		config:  req.ConfigJson, schema: schemaOf(s.info.Collectors, c.Name), send: stream.Send,
	}
	if err := c.Run(stream.Context(), step); err != nil {
		return status.Errorf(codes.Aborted, "%v", err)
	}
	return nil
}

func (s *server) Analyze(ctx context.Context, req *api.AnalyzeRequest) (*api.AnalyzeResponse, error) {
	a := s.p.analyzer(req.Component)
	if a == nil {
		return nil, status.Errorf(codes.NotFound, "plugin %s has no analyzer %q", s.p.Name, req.Component)
	}
	if err := os.MkdirAll(req.OutDir, 0o755); err != nil {
		return nil, status.Errorf(codes.FailedPrecondition, "output directory: %v", err)
	}
	in := &Analysis{RunDir: req.RunDir, OutDir: req.OutDir, Steps: stepsFromProto(req.Steps), config: req.ConfigJson, schema: schemaOf(s.info.Analyzers, a.Name)}
	res, err := a.Run(ctx, in)
	if err != nil {
		return nil, status.Errorf(codes.Aborted, "%v", err)
	}
	if res == nil {
		return &api.AnalyzeResponse{}, nil
	}
	return res.out.proto(), nil
}
