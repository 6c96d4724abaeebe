// Package host finds plugins, starts them as child processes and keeps them
// under control: every plugin, built-in or third-party, runs out of process
// and is stopped on every exit path.
package host

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// BinaryPrefix is the file name prefix of third-party plugin binaries.
const BinaryPrefix = "droidprof-plugin-"

// Source says where a plugin comes from and how to start it.
type Source struct {
	Name    string
	Path    string   // executable
	Args    []string // arguments (built-ins: "plugin", "serve", NAME)
	BuiltIn bool
}

// Discovery lists where plugins are looked for.
type Discovery struct {
	// Self is the droidprof executable; built-ins are served by re-executing it.
	Self     string
	Builtins []string
	// Dirs are searched in order after the built-ins; the first plugin of a
	// name wins and later ones are reported as shadowed.
	Dirs []string
}

// DefaultDirs returns the standard plugin directories: ./plugins.d,
// $XDG_DATA_HOME/droidprof/plugins (default ~/.local/share/...), then every
// directory of DROIDPROF_PLUGIN_PATH, then extra (from the experiment config).
func DefaultDirs(getenv func(string) string, extra ...string) []string {
	dirs := []string{"plugins.d"}
	data := getenv("XDG_DATA_HOME")
	if data == "" {
		if home := getenv("HOME"); home != "" {
			data = filepath.Join(home, ".local", "share")
		}
	}
	if data != "" {
		dirs = append(dirs, filepath.Join(data, "droidprof", "plugins"))
	}
	for _, d := range filepath.SplitList(getenv("DROIDPROF_PLUGIN_PATH")) {
		if d != "" {
			dirs = append(dirs, d)
		}
	}
	return append(dirs, extra...)
}

// Find returns every plugin by name, and warnings about plugins that were
// shadowed by an earlier one of the same name or are not executable.
func (d Discovery) Find() (map[string]Source, []string) {
	found := map[string]Source{}
	var warnings []string
	for _, name := range d.Builtins {
		found[name] = Source{Name: name, Path: d.Self, Args: []string{"plugin", "serve", name}, BuiltIn: true}
	}
	for _, dir := range d.Dirs {
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue // absent directories are normal
		}
		for _, e := range entries {
			if !strings.HasPrefix(e.Name(), BinaryPrefix) || e.IsDir() {
				continue
			}
			name := strings.TrimPrefix(e.Name(), BinaryPrefix)
			path, err := filepath.Abs(filepath.Join(dir, e.Name()))
			if err != nil {
				continue
			}
			if fi, err := os.Stat(path); err != nil || fi.Mode()&0o111 == 0 {
				warnings = append(warnings, fmt.Sprintf("plugin %s at %s is not executable; ignored", name, path))
				continue
			}
			if prev, ok := found[name]; ok {
				where := prev.Path
				if prev.BuiltIn {
					where = "the built-in plugin"
				}
				warnings = append(warnings, fmt.Sprintf("plugin %s at %s is shadowed by %s", name, path, where))
				continue
			}
			found[name] = Source{Name: name, Path: path}
		}
	}
	return found, warnings
}

// Names returns the sorted plugin names of a discovery result.
func Names(found map[string]Source) []string {
	names := make([]string, 0, len(found))
	for n := range found {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
