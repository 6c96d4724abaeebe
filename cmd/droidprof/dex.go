package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/droidprof/droidprof/vm/dex"
	"github.com/droidprof/droidprof/vm/dex/dexdump"
)

const dexUsage = "usage: droidprof dex dump [-a] [-d] [-f] [-h] [-i] FILE.dex... | droidprof dex list FILE.dex..."

// cmdDex prints DEX files as AOSP's dexdump and dexlist do.
func cmdDex(env *env, args []string) error {
	if len(args) == 0 {
		return &exitError{code: 2, err: errors.New(dexUsage)}
	}
	switch args[0] {
	case "dump":
		return dexDump(env, args[1:])
	case "list":
		return dexList(env, args[1:])
	}
	return &exitError{code: 2, err: fmt.Errorf("unknown dex command %q%s; %s", args[0], suggest(args[0], []string{"dump", "list"}), dexUsage)}
}

func dexDump(env *env, args []string) error {
	fs := flag.NewFlagSet("dex dump", flag.ContinueOnError)
	var opt dexdump.Options
	fs.BoolVar(&opt.Annotations, "a", false, "display annotations")
	fs.BoolVar(&opt.Disassemble, "d", false, "disassemble code sections")
	fs.BoolVar(&opt.FileHeader, "f", false, "display summary information from the file header")
	fs.BoolVar(&opt.SectionHeaders, "h", false, "display class_def headers")
	ignoreChecksum := fs.Bool("i", false, "ignore a bad checksum")
	files, err := flags(fs, splitShortFlags(args, "adfhi"))
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return &exitError{code: 2, err: errors.New(dexUsage)}
	}
	for _, path := range files {
		f, err := readDex(path, *ignoreChecksum)
		if err != nil {
			return err
		}
		if err := dexdump.Dump(env.stdout, f, path, opt); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	return nil
}

func dexList(env *env, args []string) error {
	fs := flag.NewFlagSet("dex list", flag.ContinueOnError)
	files, err := flags(fs, args)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return &exitError{code: 2, err: errors.New(dexUsage)}
	}
	for _, path := range files {
		f, err := readDex(path, false)
		if err != nil {
			return err
		}
		if err := dexdump.List(env.stdout, f, path); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	return nil
}

// readDex reads a DEX file as ART's tools accept it: the checksum is checked
// unless ignored, the SHA-1 signature is not (ART never checks it).
func readDex(path string, ignoreChecksum bool) (*dex.File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	f, err := dex.ReadWithOptions(data, dex.Options{SkipChecksum: ignoreChecksum, SkipSignature: true})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return f, nil
}

// splitShortFlags expands grouped one-letter flags ("-adfh") into separate
// ones, as dexdump's getopt accepts them.
func splitShortFlags(args []string, letters string) []string {
	var out []string
	for _, a := range args {
		if len(a) > 2 && a[0] == '-' && a[1] != '-' && strings.Trim(a[1:], letters) == "" {
			for _, c := range a[1:] {
				out = append(out, "-"+string(c))
			}
			continue
		}
		out = append(out, a)
	}
	return out
}
