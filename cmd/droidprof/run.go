package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"text/tabwriter"

	"github.com/droidprof/droidprof/framework/progress"
	"github.com/droidprof/droidprof/framework/results"
	"github.com/droidprof/droidprof/framework/runner"
	"github.com/droidprof/droidprof/framework/stats"
	"github.com/hashicorp/go-plugin"
)

func cmdRun(env *env, args []string) error {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	out := fs.String("out", "", "run store directory (default $DROIDPROF_HOME/runs or ./runs)")
	var set multiFlag
	fs.Var(&set, "set", "override a config value, key=value (repeatable)")
	pos, err := flags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return &exitError{code: 2, err: errors.New("usage: droidprof run CONFIG [--out DIR] [--set k=v]...")}
	}
	store, err := env.store(*out)
	if err != nil {
		return err
	}
	defer store.Close()
	plan, plugins, err := env.load(pos[0], set)
	if err != nil {
		return err
	}
	// Plugins are stopped on every way out: return, panic, SIGINT, SIGTERM.
	defer plugin.CleanupClients()
	defer plugins.Close()
	if err := plugins.CheckTools(plan); err != nil {
		return err
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		stop() // a second Ctrl-C kills droidprof outright; Pdeathsig takes the plugins along
	}()

	bar := progress.New(env.stderr)
	r := &runner.Runner{Plugins: plugins, Store: store, Progress: bar, Logger: env.logger}
	res, dir, runErr := r.Run(ctx, plan)
	bar.Done()
	if res == nil {
		return runErr
	}
	fmt.Fprintf(env.stdout, "run %s %s\n", res.RunID, dir)
	summarize(env.stdout, res)
	fmt.Fprintf(env.stdout, "report: %s/report.html\n", dir)
	if *out != "" {
		fmt.Fprintf(env.stdout, "stored in %s: give the other commands --out %s too (droidprof runs --out %s)\n", *out, *out, *out)
	}
	switch {
	case res.Status == results.StatusIncomplete:
		return &exitError{code: 130, err: fmt.Errorf("run %s interrupted; kept what was collected (status incomplete)", res.RunID)}
	case runErr != nil:
		return fmt.Errorf("run %s %s: %w", res.RunID, res.Status, runErr)
	}
	return nil
}

// summarize prints the status and the median of every metric.
func summarize(w io.Writer, res *results.Results) {
	ok := 0
	for _, s := range res.Steps {
		if s.Status == "ok" {
			ok++
		}
	}
	ran := fmt.Sprintf("%d/%d steps ok", ok, len(res.Steps))
	if res.PlannedSteps > len(res.Steps) {
		ran += fmt.Sprintf(" (%d planned)", res.PlannedSteps)
	}
	fmt.Fprintf(w, "experiment %s: %s, %s, %d metrics\n", res.Experiment, res.Status, ran, len(res.Metrics))
	for _, s := range res.Steps {
		if s.Status != "ok" {
			fmt.Fprintf(w, "  step %s %s: %s\n", s.ID, s.Status, s.Error)
		}
	}
	for _, a := range res.Analyses {
		if a.Status != "ok" && a.Status != "skipped" {
			fmt.Fprintf(w, "  analyzer %s %s: %s\n", a.Analyzer, a.Status, a.Error)
		}
	}
	if len(res.Missing) > 0 {
		fmt.Fprintf(w, "  cells missing repetitions (analysed without them):\n")
		const show = 10
		for i, m := range res.Missing {
			if i == show {
				fmt.Fprintf(w, "    and %d more (results.json lists them all)\n", len(res.Missing)-show)
				break
			}
			fmt.Fprintf(w, "    %s\n", m)
		}
	}
	if len(res.Metrics) == 0 {
		return
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "metric\tlabels\tmedian\tunit\tn")
	for _, m := range res.Metrics {
		fmt.Fprintf(tw, "%s\t%s\t%.4g\t%s\t%d\n", m.Name, results.LabelString(m.Labels), stats.Median(m.Samples), m.Unit, len(m.Samples))
	}
	tw.Flush()
}

func cmdValidate(env *env, args []string) error {
	fs := flag.NewFlagSet("validate", flag.ContinueOnError)
	var set multiFlag
	fs.Var(&set, "set", "override a config value, key=value (repeatable)")
	pos, err := flags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return &exitError{code: 2, err: errors.New("usage: droidprof validate CONFIG [--set k=v]...")}
	}
	plan, plugins, err := env.load(pos[0], set)
	if err != nil {
		return err
	}
	defer plugins.Close()
	if err := plugins.CheckTools(plan); err != nil {
		return err
	}
	exp := plan.Experiment
	// Each collector runs once per combination of the axes it uses.
	var cols []string
	for _, s := range plan.Collect {
		axes := "no axis"
		if len(s.Axes) > 0 {
			axes = strings.Join(s.Axes, ", ")
		}
		cols = append(cols, fmt.Sprintf("%s.%s × %d (%s)", s.Plugin, s.Component, len(s.Cells), axes))
	}
	fmt.Fprintf(env.stdout, "%s: ok — experiment %q, %s; collectors %s; × %s (+%d warm-up) = %s, %s\n",
		pos[0], exp.Name, count(len(plan.Cells), "matrix cell"), strings.Join(cols, ", "),
		count(exp.Repeat, "repetition"), exp.Warmup, count(plan.CollectSteps(), "step"), count(len(plan.Analyze), "analyzer"))
	return nil
}

// count renders n with noun, plural unless n is 1 ("1 step", "4 steps").
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
