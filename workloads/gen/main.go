// Command gen rebuilds the workloads' committed DEX files (workloads/dex)
// from their Java sources (workloads/java) with javac --release 8 and dx.
// It is run by "go generate" in the workloads directory:
//
//	cd workloads && go generate
//
// Flags -java and -out choose other directories.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/droidprof/droidprof/workloads/internal/build"
)

func main() {
	javaDir := flag.String("java", "java", "directory holding the workloads' source directories")
	outDir := flag.String("out", "dex", "directory to write the DEX files to")
	flag.Parse()
	if err := build.All(context.Background(), *javaDir, *outDir); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}
