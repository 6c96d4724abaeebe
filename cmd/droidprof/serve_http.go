package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/droidprof/droidprof/framework/server"
	"github.com/droidprof/droidprof/framework/server/blobs"
	"github.com/droidprof/droidprof/framework/server/catalog"
	"github.com/droidprof/droidprof/framework/units"
)

// serverFlags are the flags that say where a results server keeps its data.
type serverFlags struct {
	data, db *string
}

func addServerFlags(fs *flag.FlagSet) serverFlags {
	return serverFlags{
		data: fs.String("data", "", "the server's data directory: uploaded files, and the SQLite catalog unless --db (default $DROIDPROF_HOME/server or ./droidprof-server)"),
		db:   fs.String("db", "", "the catalog database: sqlite:PATH or postgres://USER@HOST/DB (default sqlite:DATA/catalog.db)"),
	}
}

// open opens the catalog and, when withBlobs, the blob store.
func (f serverFlags) open(env *env, withBlobs bool) (*catalog.Catalog, *blobs.Store, error) {
	data := *f.data
	if data == "" {
		data = "droidprof-server"
		if home := env.getenv("DROIDPROF_HOME"); home != "" {
			data = filepath.Join(home, "server")
		}
	}
	if err := os.MkdirAll(data, 0o755); err != nil {
		return nil, nil, fmt.Errorf("server data directory: %w", err)
	}
	dsn := *f.db
	if dsn == "" {
		dsn = "sqlite:" + filepath.Join(data, "catalog.db")
	}
	cat, err := catalog.Open(context.Background(), dsn)
	if err != nil {
		return nil, nil, err
	}
	if !withBlobs {
		return cat, nil, nil
	}
	bs, err := blobs.Open(filepath.Join(data, "blobs"))
	if err != nil {
		cat.Close()
		return nil, nil, err
	}
	return cat, bs, nil
}

// cmdServe runs the results server; `serve token` creates, lists and
// revokes its tokens.
func cmdServe(env *env, args []string) error {
	if len(args) > 0 && args[0] == "token" {
		return cmdServeToken(env, args[1:])
	}
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on (host:port; port 0 picks a free one)")
	private := fs.Bool("private", false, "reading needs a token too (default: anyone who reaches the server can browse)")
	maxUpload := fs.String("max-upload", "1GiB", "largest file a push may upload")
	sf := addServerFlags(fs)
	pos, err := flags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return &exitError{code: 2, err: errors.New("usage: droidprof serve [--addr HOST:PORT] [--data DIR] [--db sqlite:PATH|postgres://…] [--private] [--max-upload SIZE] | serve token create|list|revoke")}
	}
	limit, err := units.ParseSize(*maxUpload)
	if err != nil || limit <= 0 {
		return &exitError{code: 2, err: fmt.Errorf("--max-upload %q: give a size such as 512MiB", *maxUpload)}
	}
	cat, bs, err := sf.open(env, true)
	if err != nil {
		return err
	}
	defer cat.Close()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	srv := &http.Server{
		Handler:           server.New(server.Config{Catalog: cat, Blobs: bs, Private: *private, MaxBlob: limit, Logger: env.logger}),
		ReadHeaderTimeout: 10 * time.Second,
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		shut, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		srv.Shutdown(shut)
	}()
	// Tests and scripts read the address from this line (--addr :0).
	fmt.Fprintf(env.stdout, "serving on http://%s\n", ln.Addr())
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve: %w", err)
	}
	return nil
}

// tokenUsage is the usage of droidprof serve token.
const tokenUsage = `usage: droidprof serve token create [--name NAME] [--scope read|push] [--data DIR] [--db …]
       droidprof serve token list [--data DIR] [--db …]
       droidprof serve token revoke ID|NAME [--data DIR] [--db …]`

func cmdServeToken(env *env, args []string) error {
	if len(args) == 0 {
		return &exitError{code: 2, err: errors.New(tokenUsage)}
	}
	fs := flag.NewFlagSet("serve token "+args[0], flag.ContinueOnError)
	sf := addServerFlags(fs)
	var name, scope *string
	switch args[0] {
	case "create":
		name = fs.String("name", "", "what the token is for (shown as who pushed a run; default: this host's name)")
		scope = fs.String("scope", "push", "read (browse a --private server) or push (push runs, and read)")
	case "list", "revoke":
	default:
		return &exitError{code: 2, err: fmt.Errorf("serve token %s: no such command\n%s", args[0], tokenUsage)}
	}
	pos, err := flags(fs, args[1:])
	if err != nil {
		return err
	}
	if want := map[string]int{"create": 0, "list": 0, "revoke": 1}[args[0]]; len(pos) != want {
		return &exitError{code: 2, err: errors.New(tokenUsage)}
	}
	var sc catalog.Scope
	if scope != nil {
		if sc, err = catalog.ParseScope(*scope); err != nil {
			return &exitError{code: 2, err: fmt.Errorf("--scope: %w", err)}
		}
	}
	cat, _, err := sf.open(env, false)
	if err != nil {
		return err
	}
	defer cat.Close()
	ctx := context.Background()
	switch args[0] {
	case "create":
		if *name == "" {
			*name, _ = os.Hostname()
		}
		tok, err := cat.CreateToken(ctx, *name, sc)
		if err != nil {
			return err
		}
		fmt.Fprintln(env.stdout, tok)
	case "list":
		toks, err := cat.Tokens(ctx)
		if err != nil {
			return err
		}
		return writeTokens(env.stdout, toks)
	case "revoke":
		t, err := cat.RevokeToken(ctx, pos[0])
		if err != nil {
			return err
		}
		fmt.Fprintf(env.stdout, "revoked token %s (%s, %s)\n", t.ID, t.Name, t.Scope)
	}
	return nil
}

// writeTokens prints the tokens as a table: never their secrets, which the
// server does not have.
func writeTokens(w io.Writer, toks []catalog.Token) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tSCOPE\tCREATED\tLAST USED\tREVOKED")
	at := func(t time.Time) string {
		if t.IsZero() {
			return "-"
		}
		return t.UTC().Format("2006-01-02 15:04:05Z")
	}
	for _, t := range toks {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", t.ID, t.Name, t.Scope, at(t.Created), at(t.LastUsed), at(t.Revoked))
	}
	return tw.Flush()
}
