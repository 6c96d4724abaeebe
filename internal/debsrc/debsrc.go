// Package debsrc fetches files from Debian source packages at test time, so
// third-party conformance suites and goldens (ART's test/dexdump, smali's
// integration tests) are used without ever being committed. It uses a
// private apt state whose mirror is copied from the machine's own Debian
// sources file; the system's apt configuration is not touched. FetchBinary
// does the same for binary packages of any suite (e.g. bullseye's dx).
package debsrc

import (
	"bufio"
	"errors"
	"fmt"
	"github.com/droidprof/droidprof/internal/testenv"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// Suite is the Debian release source packages are taken from.
const Suite = "bookworm"

// sourcesFile is the machine's Debian sources list (deb822 format).
var sourcesFile = "/etc/apt/sources.list.d/debian.sources"

// ErrUnavailable means this machine cannot fetch source packages (no apt, no
// Debian sources file, or no network).
var ErrUnavailable = errors.New("Debian source packages are not available here")

// Fetch returns a directory holding the files of source package pkg whose
// paths inside the upstream tarball match one of the tar wildcard patterns
// (e.g. "*/test/dexdump/*"). The first call downloads and extracts them into
// the user cache directory; later calls, also from other processes, reuse it.
func Fetch(pkg string, patterns ...string) (string, error) {
	key := pkg + "-" + strings.NewReplacer("*", "_", "/", "_").Replace(strings.Join(patterns, "+"))
	return cached(key, func(root, work, staging string) error {
		apt, err := aptState(root, work, "deb-src", Suite, "lists")
		if err != nil {
			return err
		}
		// The Debian packaging tarball sometimes 404s; the upstream tarball,
		// which holds what we need, still arrives, so the exit status is not
		// trusted and the tarball is looked for instead.
		out, _ := run(work, "apt-get", append(apt, "-qq", "source", "--download-only", pkg)...)
		origs, _ := filepath.Glob(filepath.Join(work, pkg+"_*.orig.tar.*"))
		if len(origs) == 0 {
			return fmt.Errorf("%w: no upstream tarball of %s downloaded:\n%s", ErrUnavailable, pkg, out)
		}
		args := append([]string{"-xf", origs[0], "-C", staging, "--wildcards"}, patterns...)
		if out, err := run(work, "tar", args...); err != nil {
			return fmt.Errorf("extract %v from %s: %v\n%s", patterns, filepath.Base(origs[0]), err, out)
		}
		return nil
	})
}

// FetchBinary returns the directory into which the binary package pkg of
// Debian release suite (e.g. "bullseye") was unpacked with dpkg -x, so its
// files are at the same paths as when installed (dir/usr/share/java/...).
// Like Fetch it downloads once into the user cache; nothing is installed.
func FetchBinary(suite, pkg string) (string, error) {
	return cached("bin-"+suite+"-"+pkg, func(root, work, staging string) error {
		if _, err := exec.LookPath("dpkg"); err != nil {
			return fmt.Errorf("%w: dpkg not found", ErrUnavailable)
		}
		// apt-get update drops index files its sources do not name, so each
		// suite's binary index keeps its own lists directory.
		apt, err := aptState(root, work, "deb", suite, "lists-bin-"+suite)
		if err != nil {
			return err
		}
		if out, err := run(work, "apt-get", append(apt, "-qq", "download", pkg)...); err != nil {
			return fmt.Errorf("%w: apt-get download %s (%s): %v\n%s", ErrUnavailable, pkg, suite, err, out)
		}
		debs, _ := filepath.Glob(filepath.Join(work, pkg+"_*.deb"))
		if len(debs) != 1 {
			return fmt.Errorf("apt-get download %s (%s): want one .deb, got %v", pkg, suite, debs)
		}
		if out, err := run(work, "dpkg", "-x", debs[0], staging); err != nil {
			return fmt.Errorf("dpkg -x %s: %v\n%s", filepath.Base(debs[0]), err, out)
		}
		return nil
	})
}

// cached returns root/key, filling it first if needed: fill gets a scratch
// directory and a staging directory to populate, which is published
// atomically. A lock makes parallel test binaries fetch each item once.
func cached(key string, fill func(root, work, staging string) error) (string, error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	root := filepath.Join(cache, "droidprof", "debsrc")
	dest := filepath.Join(root, key)
	if err := os.MkdirAll(root, 0o755); err != nil {
		return "", err
	}
	unlock, err := lock(filepath.Join(root, ".lock"))
	if err != nil {
		return "", err
	}
	defer unlock()
	if _, err := os.Stat(filepath.Join(dest, ".complete")); err == nil {
		return dest, nil
	}
	work, err := os.MkdirTemp(root, "work-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(work)
	staging := filepath.Join(work, "staging")
	if err := os.MkdirAll(staging, 0o755); err != nil {
		return "", err
	}
	if err := fill(root, work, staging); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(staging, ".complete"), []byte(key+"\n"), 0o644); err != nil {
		return "", err
	}
	os.RemoveAll(dest)
	if err := os.Rename(staging, dest); err != nil {
		return "", err
	}
	return dest, nil
}

// aptState writes a private apt configuration for one stanza (types "deb" or
// "deb-src") of the machine's own mirror, updates its index in root/lists,
// and returns the apt-get options that use it; downloads land in work.
func aptState(root, work, types, suite, lists string) ([]string, error) {
	if _, err := exec.LookPath("apt-get"); err != nil {
		return nil, fmt.Errorf("%w: apt-get not found", ErrUnavailable)
	}
	mirror, err := mirror()
	if err != nil {
		return nil, err
	}
	listsDir := filepath.Join(root, lists)
	for _, d := range []string{filepath.Join(work, "parts"), filepath.Join(listsDir, "partial"), filepath.Join(work, "archives", "partial")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
	}
	stanza := fmt.Sprintf("Types: %s\nURIs: %s\nSuites: %s\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n", types, mirror, suite)
	if err := os.WriteFile(filepath.Join(work, "parts", "private.sources"), []byte(stanza), 0o644); err != nil {
		return nil, err
	}
	apt := []string{
		"-o", "Dir::Etc::SourceList=/dev/null",
		"-o", "Dir::Etc::SourceParts=" + filepath.Join(work, "parts"),
		"-o", "Dir::State::Lists=" + listsDir,
		"-o", "Dir::Cache::Archives=" + filepath.Join(work, "archives"),
		"-o", "Debug::NoLocking=1",
	}
	if out, err := run(work, "apt-get", append(apt, "-qq", "update")...); err != nil {
		return nil, fmt.Errorf("%w: apt-get update (%s %s): %v\n%s", ErrUnavailable, types, suite, err, out)
	}
	return apt, nil
}

// ForTest is Fetch for tests: when the package cannot be fetched the test is
// skipped with the reason, or fails when DROIDPROF_REQUIRE_PRIVILEGED=1 (CI).
func ForTest(t testing.TB, pkg string, patterns ...string) string {
	t.Helper()
	dir, err := Fetch(pkg, patterns...)
	if err == nil {
		return dir
	}
	if !errors.Is(err, ErrUnavailable) {
		t.Fatalf("source package %s: %v", pkg, err)
	}
	testenv.SkipOrFail(t, "source package %s: %v", pkg, err)
	return ""
}

// mirror reads the first URI of the machine's Debian sources (the main
// archive), so no mirror host is ever written in this code.
func mirror() (string, error) {
	f, err := os.Open(sourcesFile)
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "URIs:"); ok {
			if fields := strings.Fields(rest); len(fields) > 0 {
				return fields[0], nil
			}
		}
	}
	return "", fmt.Errorf("%w: no URIs line in %s", ErrUnavailable, sourcesFile)
}

func run(dir, name string, args ...string) ([]byte, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	return cmd.CombinedOutput()
}

// lock takes an exclusive lock on path, so parallel test binaries fetch a
// package once.
func lock(path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX); err != nil {
		f.Close()
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	return func() { unix.Flock(int(f.Fd()), unix.LOCK_UN); f.Close() }, nil
}
