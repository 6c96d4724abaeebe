// Command gen rebuilds core.dex, the VM's core library, from the Java
// sources in java/. Run it through go generate in vm/core (see core.go); it
// needs javac and dx, see internal/javadex.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/droidprof/droidprof/vm/core/build"
)

func main() {
	src := flag.String("src", "java", "directory of the core library's Java sources")
	out := flag.String("o", "core.dex", "DEX file to write")
	flag.Parse()
	if err := build.Build(context.Background(), *src, *out); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}
