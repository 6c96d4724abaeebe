// Package pgtest starts a throw-away PostgreSQL cluster for tests: initdb in
// a temporary directory, the server on a Unix socket there (no TCP port),
// stopped and removed afterwards. It uses Debian's postgresql package
// (binaries in /usr/lib/postgresql/N/bin) or the binaries on PATH.
package pgtest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"

	_ "github.com/jackc/pgx/v5/stdlib"
)

// Cluster is a running throw-away PostgreSQL.
type Cluster struct {
	dir  string // holds data/ and the socket
	bin  string
	cred *syscall.Credential // when run as root: the postgres user
	user string
}

// ErrNotInstalled is returned by Start when no PostgreSQL is found.
var ErrNotInstalled = errors.New("PostgreSQL is not installed (Debian: apt-get install postgresql)")

// binDir finds the directory of initdb and pg_ctl.
func binDir() (string, error) {
	if p, err := exec.LookPath("initdb"); err == nil {
		return filepath.Dir(p), nil
	}
	m, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	if len(m) == 0 {
		return "", ErrNotInstalled
	}
	sort.Strings(m) // the newest version last (single digits aside, good enough)
	return filepath.Dir(m[len(m)-1]), nil
}

// Start initialises and starts a cluster.
func Start() (*Cluster, error) {
	bin, err := binDir()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "droidprof-pg-")
	if err != nil {
		return nil, err
	}
	c := &Cluster{dir: dir, bin: bin}
	if err := c.start(); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	return c, nil
}

func (c *Cluster) start() error {
	c.user = "postgres"
	if os.Geteuid() == 0 {
		// PostgreSQL refuses to run as root: run it as the postgres user
		// the Debian package creates, in a directory it owns.
		u, err := user.Lookup("postgres")
		if err != nil {
			return fmt.Errorf("running as root needs the postgres user: %w", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		c.cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
		if err := os.Chmod(c.dir, 0o755); err != nil {
			return err
		}
		if err := os.Chown(c.dir, uid, gid); err != nil {
			return err
		}
	} else if u, err := user.Current(); err == nil {
		c.user = u.Username
	}
	data := filepath.Join(c.dir, "data")
	if err := c.run("initdb", "-D", data, "-U", c.user, "--auth=trust", "--no-sync", "-E", "UTF8"); err != nil {
		return err
	}
	return c.run("pg_ctl", "-D", data, "-w", "-l", filepath.Join(c.dir, "log"), "-o",
		"-c listen_addresses='' -c unix_socket_directories="+c.dir+" -c fsync=off -c max_connections=200", "start")
}

func (c *Cluster) run(name string, args ...string) error {
	cmd := exec.Command(filepath.Join(c.bin, name), args...)
	cmd.Dir = c.dir
	if c.cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: c.cred}
	}
	if out, err := cmd.CombinedOutput(); err != nil {
		log, _ := os.ReadFile(filepath.Join(c.dir, "log"))
		return fmt.Errorf("%s: %w\n%s\n%s", name, err, out, log)
	}
	return nil
}

// DSN is the URL of database db in the cluster.
func (c *Cluster) DSN(db string) string {
	return fmt.Sprintf("postgres://%s@/%s?host=%s&sslmode=disable", c.user, db, c.dir)
}

// Admin is the URL of the cluster's maintenance database, for NewDatabase.
func (c *Cluster) Admin() string { return c.DSN("postgres") }

// NewDatabase creates an empty database in the cluster whose maintenance
// database admin names, and returns its URL.
func NewDatabase(ctx context.Context, admin string) (string, error) {
	var b [6]byte
	rand.Read(b[:])
	name := "t_" + hex.EncodeToString(b[:])
	db, err := sql.Open("pgx", admin)
	if err != nil {
		return "", err
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
		return "", fmt.Errorf("create database: %w", err)
	}
	return strings.Replace(admin, "/postgres?", "/"+name+"?", 1), nil
}

// Stop stops the cluster and removes it.
func (c *Cluster) Stop() error {
	err := c.run("pg_ctl", "-D", filepath.Join(c.dir, "data"), "-m", "immediate", "-w", "stop")
	return errors.Join(err, os.RemoveAll(c.dir))
}
