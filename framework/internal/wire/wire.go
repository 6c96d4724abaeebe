// Package wire is the go-plugin glue shared by the SDK (which serves a plugin)
// and the host (which launches and talks to plugins): the handshake, the
// plugin set, and process launch with the safety settings every plugin gets.
package wire

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"

	"github.com/droidprof/droidprof/framework/api"
	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"
)

// Handshake guards against running a plugin binary by hand; it is not security.
var Handshake = plugin.HandshakeConfig{
	ProtocolVersion:  api.ProtocolVersion,
	MagicCookieKey:   "DROIDPROF_PLUGIN",
	MagicCookieValue: "4b0d0d5e-droidprof-plugin",
}

// Name is the single plugin type every droidprof plugin binary dispenses.
const Name = "droidprof"

// MaxMsgSize raises gRPC's 4 MiB receive default on the plugin side; host to
// plugin messages larger than 4 MiB fail without it.
const MaxMsgSize = 64 << 20

// Servers are the gRPC services a plugin implements.
type Servers struct {
	api.PluginServer
	api.CollectorServer
	api.AnalyzerServer
}

// Client is the host's view of a running plugin.
type Client struct {
	api.PluginClient
	api.CollectorClient
	api.AnalyzerClient
}

// GRPCPlugin adapts Servers and Client to go-plugin.
type GRPCPlugin struct {
	plugin.NetRPCUnsupportedPlugin
	Impl *Servers
}

// GRPCServer registers the plugin's services.
func (p *GRPCPlugin) GRPCServer(_ *plugin.GRPCBroker, s *grpc.Server) error {
	api.RegisterPluginServer(s, p.Impl.PluginServer)
	api.RegisterCollectorServer(s, p.Impl.CollectorServer)
	api.RegisterAnalyzerServer(s, p.Impl.AnalyzerServer)
	return nil
}

// GRPCClient returns the host-side stubs.
func (p *GRPCPlugin) GRPCClient(_ context.Context, _ *plugin.GRPCBroker, c *grpc.ClientConn) (any, error) {
	return &Client{api.NewPluginClient(c), api.NewCollectorClient(c), api.NewAnalyzerClient(c)}, nil
}

// PluginSets is the VersionedPlugins map both sides use.
func PluginSets(impl *Servers) map[int]plugin.PluginSet {
	return map[int]plugin.PluginSet{api.ProtocolVersion: {Name: &GRPCPlugin{Impl: impl}}}
}

// Process is a launched plugin.
type Process struct {
	*Client
	gp  *plugin.Client
	pid int
}

// LaunchOptions tune Launch.
type LaunchOptions struct {
	Logger       hclog.Logger
	StartTimeout time.Duration
	// Checksum, when set, is the expected sha256 of cmd.Path; go-plugin
	// verifies it before exec.
	Checksum []byte
}

// Launch starts cmd as a plugin and connects to it. The process dies with the
// host (Pdeathsig) and runs in its own process group, so a whole collector
// tree can be stopped together.
func Launch(cmd *exec.Cmd, opt LaunchOptions) (*Process, error) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	setDeathSignal(cmd.SysProcAttr)
	cmd.Env = append(os.Environ(), cmd.Env...)
	cfg := &plugin.ClientConfig{
		HandshakeConfig:  Handshake,
		VersionedPlugins: PluginSets(nil),
		Cmd:              cmd,
		AllowedProtocols: []plugin.Protocol{plugin.ProtocolGRPC},
		Managed:          true,
		Logger:           opt.Logger,
		StartTimeout:     opt.StartTimeout,
		// A short socket directory keeps unix socket paths under 108 bytes
		// whatever TMPDIR is.
		UnixSocketConfig: &plugin.UnixSocketConfig{TempDir: os.TempDir()},
	}
	if opt.Checksum != nil {
		cfg.SecureConfig = &plugin.SecureConfig{Checksum: opt.Checksum, Hash: newSHA256()}
	}
	gp := plugin.NewClient(cfg)
	rpc, err := gp.Client()
	if err != nil {
		gp.Kill()
		return nil, fmt.Errorf("start plugin %s: %w", cmd.Path, err)
	}
	raw, err := rpc.Dispense(Name)
	if err != nil {
		gp.Kill()
		return nil, fmt.Errorf("connect to plugin %s: %w", cmd.Path, err)
	}
	pid := 0
	if rc := gp.ReattachConfig(); rc != nil {
		pid = rc.Pid
	}
	return &Process{Client: raw.(*Client), gp: gp, pid: pid}, nil
}

// Exited reports whether the plugin process has ended. go-plugin notices an
// exit only once the plugin's stdout and stderr are closed, which a
// grandchild holding them (fio, a workload) can delay indefinitely, so the
// process itself is asked too.
func (p *Process) Exited() bool { return p.gp.Exited() || !processAlive(p.Pid()) }

// Pid is the plugin's process id.
func (p *Process) Pid() int { return p.pid }

// Kill stops the plugin: gracefully first, then its whole process group.
func (p *Process) Kill() {
	pid := p.Pid()
	p.gp.Kill()
	if pid > 0 {
		// Children a collector started (fio, workloads) are in the group.
		_ = syscall.Kill(-pid, syscall.SIGKILL)
	}
}
