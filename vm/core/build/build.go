// Package build compiles the core library's Java sources into a DEX file.
// It is shared by the generator (vm/core/gen) and the freshness test, so
// both build core.dex in exactly the same way.
package build

import (
	"context"
	"os"
	"path/filepath"

	"github.com/droidprof/droidprof/internal/javadex"
)

// MinSDK is the --min-sdk-version passed to dx. The library uses no
// lambdas or other invoke-custom features, so 24 (DEX 035/037) suffices.
const MinSDK = 24

// Build compiles the Java sources under src into the DEX file out. The
// sources are the whole class library: javac gets an empty boot class path,
// so every java.* class it needs must come from src itself, and dx runs with
// --core-library because the classes are in java.*.
func Build(ctx context.Context, src, out string) error {
	work, err := os.MkdirTemp("", "vm-core-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	empty := filepath.Join(work, "empty")
	if err := os.Mkdir(empty, 0o755); err != nil {
		return err
	}
	return javadex.Compile(ctx, javadex.Options{
		Sources:       []string{src},
		Bootclasspath: []string{empty},
		Classes:       filepath.Join(work, "classes"),
		Out:           out,
		CoreLibrary:   true,
		MinSDK:        MinSDK,
	})
}
