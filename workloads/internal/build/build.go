// Package build compiles the workloads' Java sources to DEX files with
// javadex. It is shared by the generator (workloads/gen) and the freshness
// test, so both build exactly the same way.
package build

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"

	"github.com/droidprof/droidprof/internal/javadex"
	"github.com/droidprof/droidprof/workloads"
)

// All compiles every DEX file of workloads.All from the directories under
// javaDir into outDir, several at a time. The error, if any, is the first
// failure in registry order; it wraps javadex.ErrUnavailable when the tools
// are missing.
func All(ctx context.Context, javaDir, outDir string) error {
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return err
	}
	files := workloads.DEXFiles()
	errs := make([]error, len(files))
	sem := make(chan struct{}, runtime.NumCPU())
	var wg sync.WaitGroup
	for i, f := range files {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			errs[i] = One(ctx, javaDir, filepath.Join(outDir, f.Name), f.Sources)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return fmt.Errorf("%s: %w", files[i].Name, err)
		}
	}
	return nil
}

// One compiles the source directories (relative to javaDir) into the DEX
// file out.
func One(ctx context.Context, javaDir, out string, sources []string) error {
	var srcs []string
	for _, s := range sources {
		srcs = append(srcs, filepath.Join(javaDir, s))
	}
	return javadex.Compile(ctx, javadex.Options{Sources: srcs, Out: out})
}
