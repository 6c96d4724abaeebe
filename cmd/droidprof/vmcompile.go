package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/droidprof/droidprof/vm/aot"
	"github.com/droidprof/droidprof/vm/aot/oat"
	"github.com/droidprof/droidprof/vm/aot/ssa"
	"github.com/droidprof/droidprof/vm/dex"
)

const vmCompileUsage = "usage: droidprof vm compile FILE.dex [-o FILE.oat] [--dump=PASS] [--method=NAME] [--format=text|dot] [--disable=PASS,...] [--barriers=off|none|cache|elim|all] | --passes"

// vmCompile compiles a DEX file's methods with the AOT compiler and
// prints a summary, or the IR of the selected methods after a pass.
func vmCompile(env *env, args []string) error {
	fs := flag.NewFlagSet("vm compile", flag.ContinueOnError)
	dump := fs.String("dump", "", "print the IR after this pass (build: as the front end made it; all: after every pass); passes: "+strings.Join(ssa.PassNames(), ", "))
	method := fs.String("method", "", "only the methods whose name (LClass;.name:(params)ret) contains this")
	format := fs.String("format", "text", "dump format: text or dot (Graphviz)")
	disable := fs.String("disable", "", "passes to skip, separated by commas")
	out := fs.String("o", "", "write the compiled methods to this .oat cache, for droidprof vm run --engine=aot --oat FILE")
	list := fs.Bool("passes", false, "list the passes in pipeline order and exit")
	barriers := fs.String("barriers", "off", "paper 003's object-access barriers: off, none (at every access point), cache, elim (redundant ones removed) or all; prints their static counts")
	files, err := flags(fs, args)
	if err != nil {
		return err
	}
	if *list {
		for _, p := range ssa.PassNames() {
			fmt.Fprintf(env.stdout, "%-16s %s\n", p, ssa.PassDoc(p))
		}
		return nil
	}
	if len(files) != 1 {
		return &exitError{code: 2, err: errors.New(vmCompileUsage)}
	}
	if *format != "text" && *format != "dot" {
		return &exitError{code: 2, err: fmt.Errorf("vm compile: --format %q: want text or dot", *format)}
	}
	if *dump != "" && *dump != "all" && !ssa.ValidPass(*dump) {
		return &exitError{code: 2, err: fmt.Errorf("vm compile: --dump %q: unknown pass%s; passes: build, %s, all", *dump, suggest(*dump, append([]string{"build", "all"}, ssa.PassNames()...)), strings.Join(ssa.PassNames(), ", "))}
	}
	level, err := ssa.ParseBarrierLevel(*barriers)
	if err != nil {
		return &exitError{code: 2, err: fmt.Errorf("vm compile: --barriers: %w", err)}
	}
	cfg := ssa.Config{Disabled: map[string]bool{}, Barriers: level}
	for _, p := range strings.Split(*disable, ",") {
		if p = strings.TrimSpace(p); p == "" {
			continue
		}
		if !ssa.ValidPass(p) || p == "build" {
			return &exitError{code: 2, err: fmt.Errorf("vm compile: --disable %q: unknown pass%s; passes: %s", p, suggest(p, ssa.PassNames()), strings.Join(ssa.PassNames(), ", "))}
		}
		cfg.Disabled[p] = true
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		return err
	}
	if *out != "" {
		if st, err := os.Stat(*out); err == nil {
			if in, ierr := os.Stat(files[0]); ierr == nil && os.SameFile(st, in) {
				return &exitError{code: 2, err: fmt.Errorf("vm compile: -o %s is the DEX file itself; name the .oat cache, e.g. -o %s", *out, strings.TrimSuffix(*out, ".dex")+".oat")}
			}
		}
	}
	f, err := dex.Read(data)
	if err != nil {
		return fmt.Errorf("%s: %w", files[0], err)
	}
	names := aot.Namer(f)
	var dumpErr error
	if *dump != "" {
		cfg.After = func(pass string, fn *ssa.Func) {
			if *dump != "all" && pass != *dump {
				return
			}
			if *format == "dot" {
				ssa.Fdot(env.stdout, fn, names)
				return
			}
			if *dump == "all" {
				fmt.Fprintf(env.stdout, "# after %s\n", pass)
			}
			ssa.Fprint(env.stdout, fn, names)
			fmt.Fprintln(env.stdout)
		}
		if *dump != "build" && *dump != "all" && cfg.Disabled[*dump] {
			dumpErr = fmt.Errorf("vm compile: --dump %s: that pass is disabled", *dump)
		}
	}
	if dumpErr != nil {
		return &exitError{code: 2, err: dumpErr}
	}
	// the engine's pipeline, inlining included, except for a cache,
	// which a VM with method hooks must be able to use
	opt := aot.Options{Passes: cfg, Inline: *out == ""}
	if *method != "" {
		opt.Filter = func(name string) bool { return strings.Contains(name, *method) }
	}
	start := time.Now()
	r := aot.Compile(f, opt)
	elapsed := time.Since(start)
	n := len(r.Methods) + len(r.Fallbacks)
	if *method != "" && n == 0 {
		return &exitError{code: 1, err: fmt.Errorf("vm compile: no method of %s matches %q", files[0], *method)}
	}
	w := env.stdout
	if *dump != "" {
		w = env.stderr // the summary must not spoil a dot file
	}
	fmt.Fprintf(w, "%s: %d methods, %d compiled, %d fallbacks to the interpreter; %d code units in %v (%.0f methods/s)\n",
		files[0], n, len(r.Methods), len(r.Fallbacks), r.Bytecodes, elapsed.Round(time.Microsecond), float64(n)/elapsed.Seconds())
	for _, fb := range r.Fallbacks {
		fmt.Fprintf(w, "fallback: %s: %v\n", fb.Name, fb.Reason)
	}
	if level != ssa.BarriersOff {
		printBarrierCounts(w, r, level, *method != "")
	}
	if *out == "" {
		return nil
	}
	cfg.After = nil
	start = time.Now()
	b, err := oat.Encode(oat.New(f, files[0], r, cfg))
	if err != nil {
		return fmt.Errorf("vm compile: %s: %w", *out, err)
	}
	if err := writeFileAtomic(*out, b); err != nil {
		return fmt.Errorf("vm compile: %w", err)
	}
	fmt.Fprintf(w, "wrote %s: %d bytes, %d methods compiled, %d fallbacks, in %v\n", *out, len(b), len(r.Methods), len(r.Fallbacks), time.Since(start).Round(time.Microsecond))
	return nil
}

// writeFileAtomic writes data to path through a temporary file in the
// same directory, so that a failed write leaves no partial file behind.
func writeFileAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}

// printBarrierCounts prints the static barrier count of the compiled
// methods at level, and with perMethod each method's.
func printBarrierCounts(w io.Writer, r *aot.Result, level ssa.BarrierLevel, perMethod bool) {
	total := 0
	for _, m := range r.Methods {
		total += m.Barriers
	}
	fmt.Fprintf(w, "barriers (%s): %d in %d compiled methods\n", level, total, len(r.Methods))
	if !perMethod {
		return
	}
	for _, m := range r.Methods {
		fmt.Fprintf(w, "%6d  %s\n", m.Barriers, m.Name)
	}
}
