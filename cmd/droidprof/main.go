// Command droidprof runs profiling experiments with plugins, stores the runs
// and compares them. See the README for a tour.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

// command is one subcommand of the CLI; these names are a contract.
type command struct {
	name, args, help string
	run              func(env *env, args []string) error
	hidden           bool
}

func commands() []command {
	return []command{
		{name: "run", args: "CONFIG [--out DIR] [--set k=v]...", help: "run an experiment and store it as a run", run: cmdRun},
		{name: "validate", args: "CONFIG [--set k=v]...", help: "check a config against the plugins' schemas without running", run: cmdValidate},
		{name: "plugins", args: "[--json]", help: "list the available plugins and their settings", run: cmdPlugins},
		{name: "runs", args: "[--json] [--experiment NAME] [--status S] [--out DIR]", help: "list stored runs, newest first", run: cmdRuns},
		{name: "show", args: "RUN [--json] [--out DIR]", help: "show a run's results (RUN: ID, unique ID prefix or path)", run: cmdShow},
		{name: "compare", args: "RUN_A RUN_B [--format text|md|html|json] [--out DIR]", help: "compare two runs with benchstat's statistics", run: cmdCompare},
		{name: "analyze", args: "RUN [--plugin P] [--out DIR]", help: "(re-)run a stored run's analyzers on its data", run: cmdAnalyze},
		{name: "report", args: "RUN [--out DIR]", help: "regenerate a run's report.md and report.html (analysing it first if it has no analysis)", run: cmdReport},
		{name: "serve", args: "[--addr HOST:PORT] [--data DIR] [--db sqlite:PATH|postgres://…] [--private] | token create [--name N] [--scope read|push] | token list | token revoke ID|NAME", help: "run the results server: push runs to it, browse, compare and rank them", run: cmdServe},
		{name: "push", args: "RUN... --server URL --token T [--artifacts] [--out DIR]", help: "upload runs to a results server (pushing twice stores once)", run: cmdPush},
		{name: "dex", args: "dump [-a] [-d] [-f] [-h] [-i] FILE... | list FILE...", help: "print DEX files as AOSP dexdump / dexlist do", run: cmdDex},
		{name: "smali", args: "assemble [-a API] -o OUT.dex FILE...", help: "assemble smali sources into a DEX file", run: cmdSmali},
		{name: "vm", args: "run [-cp A.dex:B.dex] [-XmxSIZE] [-Xgc:cms|ss] [-verbose:gc] [dalvikvm heap options] CLASS [ARGS...] | compile FILE.dex [--dump=PASS]", help: "run a DEX program on droidprof's VM, as dalvikvm does; show the AOT compiler's IR", run: cmdVM},
		{name: "version", help: "print the droidprof version", run: cmdVersion},
		{name: "plugin", args: "serve NAME", help: "serve a built-in plugin (used by droidprof itself)", run: cmdPlugin, hidden: true},
	}
}

// exitError carries a process exit status.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit status %d", e.code)
	}
	return e.err.Error()
}
func (e *exitError) Unwrap() error { return e.err }

func main() {
	env := newEnv()
	err := dispatch(env, os.Args[1:])
	if err == nil {
		return
	}
	code := 1
	var ee *exitError
	if errors.As(err, &ee) {
		code = ee.code
	}
	// An exitError without a message (a program's own exit status)
	// prints nothing.
	if !errors.Is(err, flag.ErrHelp) && (ee == nil || ee.err != nil) {
		fmt.Fprintln(os.Stderr, "droidprof:", err)
	}
	os.Exit(code)
}

func dispatch(env *env, args []string) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(env.stdout)
		return nil
	}
	for _, c := range commands() {
		if c.name == args[0] {
			return c.run(env, args[1:])
		}
	}
	var names []string
	for _, c := range commands() {
		if !c.hidden {
			names = append(names, c.name)
		}
	}
	return &exitError{code: 2, err: fmt.Errorf("unknown command %q%s; commands: %s", args[0], suggest(args[0], names), strings.Join(names, ", "))}
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "droidprof — plugin-based profiling experiments\n\nUsage:")
	// Each form of a command on a line of its own (args separates them
	// by " | "), then what it does: one table of commands, as wide as the
	// longest (serve's four forms), pushed every description off an
	// 80-column terminal.
	for _, c := range commands() {
		if c.hidden {
			continue
		}
		for _, form := range strings.Split(c.args, " | ") {
			fmt.Fprintln(w, strings.TrimRight("  droidprof "+c.name+" "+form, " "))
		}
		fmt.Fprintf(w, "        %s\n", c.help)
	}
	fmt.Fprintln(w, "\n--out DIR is the run store: run stores runs in it, the other commands find them there.")
	fmt.Fprintln(w, "Environment: DROIDPROF_HOME (run store $DROIDPROF_HOME/runs when no --out),")
	fmt.Fprintln(w, "  DROIDPROF_PLUGIN_PATH (plugin dirs), DROIDPROF_<KEY> (config overrides).")
}

// suggest returns ` (did you mean "x"?)` for the closest name, if close.
func suggest(s string, names []string) string {
	best, bestD := "", 3
	for _, n := range names {
		if d := levenshtein(s, n); d < bestD {
			best, bestD = n, d
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}

func levenshtein(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

// flags parses args where flags and positional arguments may be mixed, as
// users type them (`droidprof run x.hcl --set a=b`).
func flags(fs *flag.FlagSet, args []string) ([]string, error) {
	fs.SetOutput(io.Discard)
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, &exitError{code: 2, err: fmt.Errorf("%s: %w", fs.Name(), err)}
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// multiFlag collects a repeatable flag.
type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }
