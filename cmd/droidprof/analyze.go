package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/droidprof/droidprof/framework/results"
	"github.com/droidprof/droidprof/framework/runner"
	"github.com/hashicorp/go-plugin"
)

func cmdAnalyze(env *env, args []string) error {
	fs := flag.NewFlagSet("analyze", flag.ContinueOnError)
	out := fs.String("out", "", "run store directory (default $DROIDPROF_HOME/runs or ./runs)")
	only := fs.String("plugin", "", "run only this plugin's analyzers")
	pos, err := flags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return &exitError{code: 2, err: errors.New("usage: droidprof analyze RUN [--plugin P] [--out DIR]")}
	}
	dir, _, err := env.openRun(*out, pos[0])
	if err != nil {
		return err
	}
	res, err := env.analyze(*out, dir, *only)
	if res == nil {
		return err
	}
	fmt.Fprintf(env.stdout, "run %s %s\n", res.RunID, dir)
	summarize(env.stdout, res)
	fmt.Fprintf(env.stdout, "report: %s/report.html\n", dir)
	if prev, perr := runner.Previous(dir); perr == nil && len(prev) > 0 {
		fmt.Fprintf(env.stdout, "earlier analysis kept in %s (compare them: droidprof compare %s %s)\n", prev[len(prev)-1], prev[len(prev)-1], dir)
	}
	if err != nil {
		return fmt.Errorf("analyze %s: %w", res.RunID, err)
	}
	return nil
}

// analyze (re-)runs the analyzers of the stored run in dir (of one plugin
// when only is set) with the plugins of this droidprof, and stops them after.
func (e *env) analyze(out, dir, only string) (*results.Results, error) {
	st, err := runner.ReadStored(dir)
	if err != nil {
		return nil, err
	}
	if len(st.Analyzers) == 0 {
		return nil, fmt.Errorf("run %s has no analyze block", dir)
	}
	store, err := e.store(out)
	if err != nil {
		return nil, err
	}
	defer store.Close()
	plugins := e.plugins(st.PluginDirs...)
	defer plugin.CleanupClients()
	defer plugins.Close()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	r := &runner.Runner{Plugins: plugins, Store: store, Logger: e.logger}
	return r.Analyze(ctx, dir, only)
}
