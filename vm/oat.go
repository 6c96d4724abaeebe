package vm

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/droidprof/droidprof/vm/aot/engine"
	"github.com/droidprof/droidprof/vm/aot/oat"
	"github.com/droidprof/droidprof/vm/dex"
	"github.com/droidprof/droidprof/vm/runtime"
)

// useOat gives the aot engine eng the .oat cache at path, for the DEX
// file it was compiled from: one of the class path (appPaths, parsed as
// app) or the core library (boot). A cache that is missing, corrupt,
// stale or of another compiler is an error that says how to remake it;
// it is never used in part.
func useOat(eng runtime.Engine, path string, boot *dex.File, app []*dex.File, appPaths []string, barriers string) error {
	e, ok := eng.(*engine.Engine)
	if !ok {
		return fmt.Errorf("vm: .oat cache %s: only the aot engine uses one (engine aot: --engine=aot, vm.engine = \"aot\")", path)
	}
	// the DEX file to name in the advice before the cache says which
	dexPath := "APP.dex"
	if len(appPaths) == 1 {
		dexPath = appPaths[0]
	}
	// the barrier level is part of the compiler's identity: the advice
	// must compile at the level this run uses
	flag := ""
	if barriers != "" && barriers != "off" {
		flag = " --barriers=" + barriers
	}
	remake := func() string {
		return fmt.Sprintf("recompile with droidprof vm compile %s%s -o %s", dexPath, flag, path)
	}
	c, err := oat.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("vm: .oat cache: %w; make it with droidprof vm compile %s -o %s", err, dexPath, path)
	}
	if err != nil && filepath.Ext(path) == ".dex" {
		return fmt.Errorf("vm: %w; %s looks like a DEX file, not its .oat cache: make one with droidprof vm compile %s -o %s",
			err, path, path, strings.TrimSuffix(path, ".dex")+".oat")
	}
	if err != nil {
		return fmt.Errorf("vm: %w; %s", err, remake())
	}
	var target *dex.File
	var stale error
	for i, f := range app {
		if c.Match(f) == nil {
			target, dexPath = f, appPaths[i]
			break
		}
		if filepath.Base(appPaths[i]) == filepath.Base(c.Location) {
			stale, dexPath = c.Match(f), appPaths[i]
		}
	}
	if target == nil && c.Match(boot) == nil {
		target, dexPath = boot, c.Location
	}
	switch {
	case target == nil && stale != nil:
		return fmt.Errorf("vm: %s: %s: %w; %s", path, dexPath, stale, remake())
	case target == nil:
		dexPath = c.Location
		return fmt.Errorf("vm: %s: %w: compiled from %s (checksum %08x), which is not on the class path; %s",
			path, oat.ErrStale, c.Location, c.DexChecksum, remake())
	}
	if err := e.UseCache(target, c); err != nil {
		return fmt.Errorf("vm: %s: %w; %s", path, err, remake())
	}
	return nil
}
