// Package vm runs DEX programs on droidprof's Dalvik runtime, like
// dalvikvm: a boot class path (the core library, core.dex), an application
// class path, a main class and its arguments.
package vm

import (
	"context"
	"errors"
	"io"
)

// Options configures one VM.
type Options struct {
	// ClassPath lists the application's DEX files, searched in order
	// after the core library.
	ClassPath []string
	// HeapMax bounds the Java heap in bytes; 0 means DefaultHeapMax.
	HeapMax int64
	// Stdout and Stderr receive System.out and System.err; nil discards.
	Stdout, Stderr io.Writer
}

// DefaultHeapMax is ART's default maximum heap size.
const DefaultHeapMax = 256 << 20

// Run loads the class path, runs mainClass.main(args) (mainClass in
// "pkg.Name" or "pkg/Name" form) and returns the process exit status
// dalvikvm would: the argument of System.exit, 1 after an uncaught
// exception, 0 otherwise. err reports a failure of the VM itself (an
// unreadable class path, a cancelled ctx), never a Java exception.
func Run(ctx context.Context, opts Options, mainClass string, args []string) (exitCode int, err error) {
	return 0, errors.New("vm: not implemented yet")
}
