package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/droidprof/droidprof/framework/server/push"
)

func cmdPush(env *env, args []string) error {
	fs := flag.NewFlagSet("push", flag.ContinueOnError)
	serverURL := fs.String("server", "", "the results server's URL (default $DROIDPROF_SERVER)")
	token := fs.String("token", "", "a push token from droidprof serve token create (default $DROIDPROF_TOKEN)")
	artifacts := fs.Bool("artifacts", false, "also push the steps' raw artifacts (traces, profiles)")
	out := fs.String("out", "", "run store directory")
	pos, err := flags(fs, args)
	if err != nil {
		return err
	}
	if *serverURL == "" {
		*serverURL = env.getenv("DROIDPROF_SERVER")
	}
	if *token == "" {
		// The environment keeps the token out of shell history and ps.
		*token = env.getenv("DROIDPROF_TOKEN")
	}
	if len(pos) == 0 || *serverURL == "" || *token == "" {
		return &exitError{code: 2, err: errors.New("usage: droidprof push RUN... --server URL --token TOKEN [--artifacts] [--out DIR] (or DROIDPROF_SERVER, DROIDPROF_TOKEN)")}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	c := &push.Client{Server: *serverURL, Token: *token, Artifacts: *artifacts}
	var errs []error
	for _, ref := range pos {
		dir, _, err := env.openRun(*out, ref)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		res, err := c.Push(ctx, dir)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		fmt.Fprintf(env.stdout, "%s %s (%d of %d files uploaded)\n", res.RunID, res.Outcome, res.Uploaded, res.Files)
	}
	return errors.Join(errs...)
}
