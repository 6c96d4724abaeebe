package main

import (
	"errors"
	"flag"
	"fmt"
	"os"

	"github.com/droidprof/droidprof/vm/smali"
	"github.com/droidprof/droidprof/vm/smali/ast"
)

const smaliUsage = "usage: droidprof smali assemble [-a API] -o OUT.dex FILE.smali..."

// cmdSmali assembles smali sources into a DEX file, as smali assemble does.
func cmdSmali(env *env, args []string) error {
	if len(args) == 0 {
		return &exitError{code: 2, err: errors.New(smaliUsage)}
	}
	switch args[0] {
	case "assemble":
		return smaliAssemble(env, args[1:])
	}
	return &exitError{code: 2, err: fmt.Errorf("unknown smali command %q%s; %s", args[0], suggest(args[0], []string{"assemble"}), smaliUsage)}
}

func smaliAssemble(env *env, args []string) error {
	fs := flag.NewFlagSet("smali assemble", flag.ContinueOnError)
	api := fs.Int("a", smali.DefaultAPI, "target API level")
	out := fs.String("o", "", "output DEX file")
	files, err := flags(fs, args)
	if err != nil {
		return err
	}
	if len(files) == 0 || *out == "" {
		return &exitError{code: 2, err: errors.New(smaliUsage)}
	}
	var classes []*ast.Class
	for _, path := range files {
		c, err := smali.ParseFile(path, &smali.Options{API: *api})
		if err != nil {
			return err
		}
		classes = append(classes, c)
	}
	b, err := smali.Assemble(classes, &smali.AssembleOptions{API: *api})
	if err != nil {
		return err
	}
	return os.WriteFile(*out, b, 0o644)
}
