package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
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

// cmdServe runs the results server; `serve token create` makes push tokens.
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
		return &exitError{code: 2, err: errors.New("usage: droidprof serve [--addr HOST:PORT] [--data DIR] [--db sqlite:PATH|postgres://…] [--private] [--max-upload SIZE] | serve token create [--name NAME]")}
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

func cmdServeToken(env *env, args []string) error {
	if len(args) == 0 || args[0] != "create" {
		return &exitError{code: 2, err: errors.New("usage: droidprof serve token create [--name NAME] [--data DIR] [--db sqlite:PATH|postgres://…]")}
	}
	fs := flag.NewFlagSet("serve token create", flag.ContinueOnError)
	name := fs.String("name", "", "what the token is for (shown as who pushed a run)")
	sf := addServerFlags(fs)
	pos, err := flags(fs, args[1:])
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return &exitError{code: 2, err: fmt.Errorf("serve token create: unexpected %q", pos[0])}
	}
	if *name == "" {
		*name, _ = os.Hostname()
	}
	cat, _, err := sf.open(env, false)
	if err != nil {
		return err
	}
	defer cat.Close()
	tok, err := cat.CreateToken(context.Background(), *name)
	if err != nil {
		return err
	}
	fmt.Fprintln(env.stdout, tok)
	return nil
}
