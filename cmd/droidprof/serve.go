package main

import (
	"errors"
	"fmt"
	"sort"

	"github.com/droidprof/droidprof/framework/sdk"
	"github.com/droidprof/droidprof/plugins/artobj"
	"github.com/droidprof/droidprof/plugins/dpa"
	"github.com/droidprof/droidprof/plugins/mobibench"
	"github.com/droidprof/droidprof/plugins/mobigen"
	"github.com/droidprof/droidprof/plugins/most"
	"github.com/droidprof/droidprof/plugins/opcost"
)

// builtins are the plugins shipped inside the droidprof binary. They still run
// out of process: the host re-executes this binary as `droidprof plugin serve NAME`.
var builtins = map[string]func() *sdk.Plugin{
	"artobj":    artobj.Plugin,
	"dpa":       dpa.Plugin,
	"mobibench": mobibench.Plugin,
	"mobigen":   mobigen.Plugin,
	"most":      most.Plugin,
	"opcost":    opcost.Plugin,
}

func builtinNames() []string {
	names := make([]string, 0, len(builtins))
	for n := range builtins {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func cmdPlugin(env *env, args []string) error {
	if len(args) != 2 || args[0] != "serve" {
		return &exitError{code: 2, err: errors.New("usage: droidprof plugin serve NAME (started by droidprof itself)")}
	}
	p, ok := builtins[args[1]]
	if !ok {
		return &exitError{code: 2, err: fmt.Errorf("no built-in plugin %q%s", args[1], suggest(args[1], builtinNames()))}
	}
	sdk.Serve(p())
	return nil
}
