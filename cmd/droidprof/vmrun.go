package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/droidprof/droidprof/framework/units"
	"github.com/droidprof/droidprof/vm"
)

const vmUsage = "usage: droidprof vm run [-cp A.dex:B.dex] [--heap-max SIZE] CLASS [ARGS...]"

// cmdVM runs DEX programs on the VM, as dalvikvm does.
func cmdVM(env *env, args []string) error {
	if len(args) == 0 {
		return &exitError{code: 2, err: errors.New(vmUsage)}
	}
	switch args[0] {
	case "run":
		return vmRun(env, args[1:])
	case "compile":
		return vmCompile(env, args[1:])
	}
	return &exitError{code: 2, err: fmt.Errorf("unknown vm command %q%s; %s", args[0], suggest(args[0], []string{"run"}), vmUsage)}
}

func vmRun(env *env, args []string) error {
	fs := flag.NewFlagSet("vm run", flag.ContinueOnError)
	fs.SetOutput(env.stderr)
	cp := fs.String("cp", "", "class path: DEX files separated by ':'")
	fs.StringVar(cp, "classpath", "", "same as -cp")
	heapMax := fs.String("heap-max", "", "maximum Java heap, e.g. 64MiB (default 256MiB)")
	// Flags stop at the class name: what follows belongs to the program.
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return &exitError{code: 2, err: fmt.Errorf("%v; %s", err, vmUsage)}
	}
	if fs.NArg() == 0 {
		return &exitError{code: 2, err: errors.New(vmUsage)}
	}
	opts := vm.Options{Stdout: env.stdout, Stderr: env.stderr}
	if *cp != "" {
		opts.ClassPath = filepath.SplitList(*cp)
	}
	if *heapMax != "" {
		n, err := units.ParseSize(*heapMax)
		if err != nil {
			return &exitError{code: 2, err: fmt.Errorf("--heap-max: %w", err)}
		}
		opts.HeapMax = n
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	code, err := vm.Run(ctx, opts, fs.Arg(0), fs.Args()[1:])
	if err != nil {
		return err
	}
	if code != 0 {
		return &exitError{code: code}
	}
	return nil
}
