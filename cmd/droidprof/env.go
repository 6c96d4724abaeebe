package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/droidprof/droidprof/framework/config"
	"github.com/droidprof/droidprof/framework/host"
	"github.com/hashicorp/go-hclog"
)

// env is what commands read from the outside world; tests replace it.
type env struct {
	stdout, stderr io.Writer
	getenv         func(string) string
	environ        []string
	self           string
	logger         hclog.Logger
}

func newEnv() *env {
	self, err := os.Executable()
	if err != nil {
		self = os.Args[0]
	}
	level := hclog.LevelFromString(os.Getenv("DROIDPROF_LOG_LEVEL"))
	if level == hclog.NoLevel {
		level = hclog.Warn
	}
	return &env{
		stdout: os.Stdout, stderr: os.Stderr, getenv: os.Getenv, environ: os.Environ(), self: self,
		logger: hclog.New(&hclog.LoggerOptions{Name: "droidprof", Output: os.Stderr, Level: level}),
	}
}

// plugins discovers plugins, including the directories an experiment names.
func (e *env) plugins(extraDirs ...string) *host.Manager {
	d := host.Discovery{Self: e.self, Builtins: builtinNames(), Dirs: host.DefaultDirs(e.getenv, extraDirs...)}
	found, warnings := d.Find()
	for _, w := range warnings {
		fmt.Fprintln(e.stderr, "warning:", w)
	}
	m := host.NewManager(found, e.logger)
	m.Searched = d.Searched()
	return m
}

// load reads and resolves an experiment, reporting every problem at once;
// the returned manager must be closed.
func (e *env) load(path string, set []string) (*config.Plan, *host.Manager, error) {
	var m *host.Manager
	plan, err := config.LoadPlan(path, config.Options{Env: e.environ, Set: set}, func(exp *config.Experiment) config.Schemas {
		m = e.plugins(exp.PluginDirs...)
		return m
	})
	if err != nil {
		if m != nil {
			m.Close()
			err = withSearched(err, m.Searched)
		}
		return nil, nil, err
	}
	for _, w := range plan.Warnings {
		fmt.Fprintln(e.stderr, "warning:", w)
	}
	return plan, m, nil
}

// withSearched adds to an "Unknown plugin" diagnostic where plugins were
// looked for: a plugin built into ./plugins.d but run from another directory
// is the usual cause.
func withSearched(err error, searched string) error {
	var ds config.Diagnostics
	if !errors.As(err, &ds) {
		return err
	}
	for _, d := range ds {
		if d.Summary == "Unknown plugin" && !strings.Contains(d.Detail, searched) {
			d.Detail += " " + strings.ToUpper(searched[:1]) + searched[1:] + "."
		}
	}
	return err
}
