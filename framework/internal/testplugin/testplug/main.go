// Command testplug is the test plugin as a binary of its own, for tests
// outside framework/ (the CLI's end-to-end test), which may not import an
// internal package of the framework but may build and run this command.
package main

import (
	"github.com/droidprof/droidprof/framework/internal/testplugin"
	"github.com/droidprof/droidprof/framework/sdk"
)

func main() { sdk.Serve(testplugin.Plugin()) }
