package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/droidprof/droidprof/framework/units"
	"github.com/droidprof/droidprof/vm"
	"github.com/droidprof/droidprof/vm/aot/engine"
	"github.com/droidprof/droidprof/vm/aot/ssa"
	"github.com/droidprof/droidprof/vm/gc"
	"github.com/droidprof/droidprof/vm/runtime"
)

const vmUsage = "usage: droidprof vm run [-cp A.dex:B.dex] [-Xms SIZE] [-Xmx SIZE] [-XX:HeapGrowthLimit=SIZE] [-XX:HeapTargetUtilization=F] " +
	"[-XX:HeapMinFree=SIZE] [-XX:HeapMaxFree=SIZE] [-Xgc:cms|ss,gcstress,preverify,postverify] [-verbose:gc,barriers] [--engine=interp|aot] [--oat FILE.oat] [--barriers=LEVEL] [--preload-classes FILE] CLASS [ARGS...]"

// vmHelp explains the options, named and written as dalvikvm's.
const vmHelp = vmUsage + `

Options (as dalvikvm takes them; SIZE is a byte count with an optional
k, m or g suffix, e.g. -Xmx64m, or a droidprof size such as 64MiB):
  -cp, -classpath PATH        the application's DEX files, separated by ':'
  -XmsSIZE                    initial heap footprint (default 2m)
  -XmxSIZE                    heap limit, 1m to 1g (default 256m); --heap-max SIZE is the same
  -XX:HeapGrowthLimit=SIZE    footprint limit of an ordinary app (default: -Xmx)
  -XX:HeapTargetUtilization=F live fraction the heap grows to after a GC, in (0, 1) (default 0.75)
  -XX:HeapMinFree=SIZE        least free space after a GC (default 512k)
  -XX:HeapMaxFree=SIZE        most free space after a GC (default 8m)
  -Xgc:LIST                   comma list: the collector, cms (mark-sweep, default) or ss (copying
                              semi-space; CMS and SS as ART spells them); gcstress (collect at every
                              allocation from a new call stack); preverify, postverify (verify the heap around each GC);
                              nogcstress, nopreverify, nopostverify undo them
  -verbose:gc                 print a line per GC to stderr, as ART logs it
  -verbose:barriers           print the barrier counts to stderr when the program ends
                              (-verbose:gc,barriers for both)
  --engine=interp|aot         the execution engine: the portable interpreter (default) or aot,
                              which compiles each method at its first call (vm/aot/engine)
  --oat FILE.oat              with --engine=aot: take the compiled methods of a class path DEX file
                              from its .oat cache (droidprof vm compile APP.dex -o FILE.oat)
  --barriers=LEVEL            paper 003's object-access barriers in compiled code (aot only):
                              off (default), none (at every access point), cache (skip the
                              object the last barrier saw), elim (redundant ones removed at
                              compile time) or all (cache and elim)
  --preload-classes FILE      classes to initialise in the zygote phase, one per line (pkg.Name;
                              # starts a comment), as Android's preloaded-classes file
`

// cmdVM runs DEX programs on the VM, as dalvikvm does.
func cmdVM(env *env, args []string) error {
	if len(args) == 0 {
		return &exitError{code: 2, err: errors.New(vmUsage + "\n" + vmCompileUsage)}
	}
	switch args[0] {
	case "run":
		return vmRun(env, args[1:])
	case "compile":
		return vmCompile(env, args[1:])
	}
	return &exitError{code: 2, err: fmt.Errorf("unknown vm command %q%s; %s", args[0], suggest(args[0], []string{"run", "compile"}), vmUsage+"\n"+vmCompileUsage)}
}

// vmArgs is a parsed `vm run` command line.
type vmArgs struct {
	classPath []string
	gc        gc.Config
	verboseGC bool
	verboseB  bool // -verbose:barriers
	engine    string
	oat       string
	barriers  string
	preload   []string
	main      string
	args      []string
	help      bool
}

// errNoClass is parseVMArgs's error for a command line without a class.
var errNoClass = errors.New("no class to run")

// parseVMArgs reads dalvikvm's options up to the class name; what follows
// the class name belongs to the program.
func parseVMArgs(args []string) (*vmArgs, error) {
	a := &vmArgs{}
	var preVerify, postVerify bool
	i := 0
	// value returns the option's separate argument (-cp PATH).
	value := func(opt string) (string, error) {
		if i+1 >= len(args) {
			return "", fmt.Errorf("%s: missing value", opt)
		}
		i++
		return args[i], nil
	}
	for ; i < len(args); i++ {
		arg := args[i]
		if arg == "--" {
			i++
			break
		}
		if !strings.HasPrefix(arg, "-") {
			break
		}
		var err error
		switch name, val, hasVal := strings.Cut(arg, "="); {
		case arg == "-h" || arg == "-help" || arg == "--help":
			a.help = true
			return a, nil
		case name == "-cp" || name == "-classpath" || name == "--cp" || name == "--classpath":
			if !hasVal {
				val, err = value(arg)
			}
			a.classPath = filepath.SplitList(val)
		case name == "--heap-max" || name == "-heap-max":
			if !hasVal {
				if val, err = value(arg); err != nil {
					break
				}
			}
			a.gc.Max, err = parseHeapSize("--heap-max", val)
		case strings.HasPrefix(arg, "-Xms"):
			a.gc.Start, err = parseHeapSize("-Xms", arg[len("-Xms"):])
		case strings.HasPrefix(arg, "-Xmx"):
			a.gc.Max, err = parseHeapSize("-Xmx", arg[len("-Xmx"):])
		case name == "-XX:HeapGrowthLimit" && hasVal:
			a.gc.GrowthLimit, err = parseHeapSize(name+"=", val)
		case name == "-XX:HeapMinFree" && hasVal:
			a.gc.MinFree, err = parseHeapSize(name+"=", val)
		case name == "-XX:HeapMaxFree" && hasVal:
			a.gc.MaxFree, err = parseHeapSize(name+"=", val)
		case name == "-XX:HeapTargetUtilization" && hasVal:
			f, perr := strconv.ParseFloat(val, 64)
			switch {
			case perr != nil:
				err = fmt.Errorf("%s: not a number", arg)
			case !(f > 0 && f < 1):
				err = fmt.Errorf("%s: must be in (0, 1)", arg)
			}
			a.gc.TargetUtilization = f
		case strings.HasPrefix(arg, "-Xgc:"):
			err = parseXgc(arg, &a.gc, &preVerify, &postVerify)
		case name == "--engine" || name == "-engine":
			if !hasVal {
				if val, err = value(arg); err != nil {
					break
				}
			}
			if _, err = vm.NewEngine(val); err == nil {
				a.engine = val
			}
		case name == "--oat" || name == "-oat":
			if !hasVal {
				val, err = value(arg)
			}
			a.oat = val
		case name == "--preload-classes" || name == "-preload-classes":
			if !hasVal {
				if val, err = value(arg); err != nil {
					break
				}
			}
			a.preload, err = readPreloadedClasses(val)
		case name == "--barriers" || name == "-barriers":
			if !hasVal {
				if val, err = value(arg); err != nil {
					break
				}
			}
			if _, err = ssa.ParseBarrierLevel(val); err == nil {
				a.barriers = val
			}
		case strings.HasPrefix(arg, "-verbose:"):
			for _, tag := range strings.Split(arg[len("-verbose:"):], ",") {
				switch tag {
				case "gc":
					a.verboseGC = true
				case "barriers":
					a.verboseB = true
				default:
					err = fmt.Errorf("%s: droidprof's VM logs only -verbose:gc and -verbose:barriers, not %q", arg, tag)
				}
				if err != nil {
					break
				}
			}
		default:
			err = fmt.Errorf("unknown option %q", arg)
		}
		if err != nil {
			return nil, err
		}
	}
	a.gc.Verify = preVerify || postVerify
	if a.oat != "" && a.engine != "aot" {
		return nil, fmt.Errorf("--oat %s: only the aot engine uses an .oat cache; add --engine=aot", a.oat)
	}
	if a.barriers != "" && a.barriers != "off" && a.engine != "aot" {
		return nil, fmt.Errorf("--barriers=%s: barriers are compiled in, so they need --engine=aot", a.barriers)
	}
	if i >= len(args) {
		return nil, errNoClass
	}
	a.main, a.args = args[i], args[i+1:]
	return a, nil
}

// parseHeapSize reads a heap size as dalvikvm does (a byte count with an
// optional k, m or g suffix, a multiple of 1 KiB), or written as droidprof
// writes sizes elsewhere (64MiB).
func parseHeapSize(opt, s string) (uint32, error) {
	n, err := parseDalvikSize(s)
	if err != nil {
		m, uerr := units.ParseSize(s)
		if uerr != nil {
			return 0, fmt.Errorf("%s%s: %w", opt, s, err)
		}
		n = m
	}
	switch {
	case n <= 0:
		return 0, fmt.Errorf("%s%s: must be positive", opt, s)
	case n%1024 != 0:
		return 0, fmt.Errorf("%s%s: must be a multiple of 1024", opt, s)
	case n > gc.MaxMax:
		return 0, fmt.Errorf("%s%s: larger than the largest heap, %s", opt, s, gc.Bytes(gc.MaxMax))
	}
	return uint32(n), nil
}

// parseDalvikSize reads digits with an optional k, m or g suffix (either
// case), the form ART's ParseMemoryOption accepts.
func parseDalvikSize(s string) (int64, error) {
	mult := int64(1)
	digits := s
	if s != "" {
		switch s[len(s)-1] {
		case 'k', 'K':
			mult = 1 << 10
		case 'm', 'M':
			mult = 1 << 20
		case 'g', 'G':
			mult = 1 << 30
		}
		if mult != 1 {
			digits = s[:len(s)-1]
		}
	}
	if digits == "" || strings.TrimLeft(digits, "0123456789") != "" {
		return 0, errors.New("not a size (want digits with an optional k, m or g suffix, e.g. 64m)")
	}
	n, err := strconv.ParseInt(digits, 10, 64)
	if err != nil || n > (1<<40)/mult {
		return 0, errors.New("size too large")
	}
	return n * mult, nil
}

// parseXgc reads a -Xgc: list as ART does: the collector and the
// verification and stress switches, later entries overriding earlier.
func parseXgc(arg string, c *gc.Config, preVerify, postVerify *bool) error {
	for _, opt := range strings.Split(arg[len("-Xgc:"):], ",") {
		switch opt {
		case "gcstress":
			c.Stress = true
		case "nogcstress":
			c.Stress = false
		case "preverify":
			*preVerify = true
		case "nopreverify":
			*preVerify = false
		case "postverify":
			*postVerify = true
		case "nopostverify":
			*postVerify = false
		case "MS", "GSS", "CC", "CMC", "HSpaceCompact", "MC":
			return fmt.Errorf("%s: collector %s is ART's but not droidprof's (want cms or ss)", arg, opt)
		default:
			col, err := gc.ParseCollector(opt)
			if err != nil {
				return fmt.Errorf("%s: %q is not a collector (cms, ss) or an option (gcstress, preverify, postverify)", arg, opt)
			}
			c.Collector = col
		}
	}
	return nil
}

func vmRun(env *env, args []string) error {
	a, err := parseVMArgs(args)
	if err != nil {
		if errors.Is(err, errNoClass) {
			return &exitError{code: 2, err: errors.New(vmUsage)}
		}
		return &exitError{code: 2, err: fmt.Errorf("vm run: %w (droidprof vm run -help lists the options)", err)}
	}
	if a.help {
		fmt.Fprint(env.stderr, vmHelp)
		return nil
	}
	opts := vm.Options{ClassPath: a.classPath, GC: a.gc, Stdout: env.stdout, Stderr: env.stderr, Engine: a.engine, Oat: a.oat, Preload: a.preload, Barriers: a.barriers}
	if err := a.gc.WithDefaults().Validate(); err != nil {
		return &exitError{code: 2, err: fmt.Errorf("vm run: %w", err)}
	}
	if a.verboseGC {
		opts.Hooks = &runtime.Hooks{GCEnd: verboseGC(env.stderr)}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	v, err := vm.New(opts)
	if err != nil {
		return err
	}
	code, err := v.RunMain(ctx, a.main, a.args)
	if err != nil {
		return err
	}
	if a.verboseB {
		printBarrierStats(env.stderr, v)
	}
	if code != 0 {
		return &exitError{code: code}
	}
	return nil
}

// printBarrierStats is -verbose:barriers: the aot engine's barrier
// counts, static and at run time.
func printBarrierStats(w io.Writer, v *runtime.VM) {
	e, ok := v.Engine.(*engine.Engine)
	if !ok {
		fmt.Fprintln(w, "barriers: none (the interpreter runs no barriers; --engine=aot)")
		return
	}
	s := e.Stats()
	b := s.Barriers
	fmt.Fprintf(w, "barriers (%s): %d in %d compiled methods; %d run, %d cache hits, %d recorded",
		b.Level, b.Static, s.Compiled, b.Executed, b.CacheHits, b.Recorded())
	if bm := v.AccessBitmap(); bm != nil {
		fmt.Fprintf(w, "; access bitmap %s", gc.Bytes(uint64(bm.Bytes())))
	}
	fmt.Fprintln(w)
}

// verboseGC is the GCEnd hook of -verbose:gc: one ART-style line per
// collection on w.
func verboseGC(w io.Writer) func(runtime.GCInfo) {
	return func(g runtime.GCInfo) { fmt.Fprintln(w, vm.GCLogLine(g)) }
}

// readPreloadedClasses reads a preloaded-classes file: a class name
// (pkg.Name) per line; blank lines and # comments are skipped.
func readPreloadedClasses(path string) ([]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("--preload-classes: %w", err)
	}
	var names []string
	for i, line := range strings.Split(string(data), "\n") {
		line, _, _ = strings.Cut(line, "#")
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if strings.ContainsAny(line, " \t/;") {
			return nil, fmt.Errorf("--preload-classes: %s:%d: %q is not a class name (pkg.Name)", path, i+1, line)
		}
		names = append(names, line)
	}
	return names, nil
}
