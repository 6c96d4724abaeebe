package runner

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/droidprof/droidprof/framework/report"
	"github.com/droidprof/droidprof/framework/results"
	"github.com/droidprof/droidprof/framework/runstore"
)

// PreviousDir is the directory of a run that holds its earlier analyses, one
// numbered subdirectory (001, 002, …) per re-analysis, oldest first.
const PreviousDir = "previous-analyses"

// Previous returns the directories of the earlier analyses of the run in
// dir, oldest first.
func Previous(dir string) ([]string, error) {
	ents, err := os.ReadDir(filepath.Join(dir, PreviousDir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("earlier analyses: %w", err)
	}
	var out []string
	for _, e := range ents {
		if _, err := strconv.Atoi(e.Name()); e.IsDir() && err == nil {
			out = append(out, filepath.Join(dir, PreviousDir, e.Name()))
		}
	}
	slices.Sort(out) // zero-padded names sort by number
	return out, nil
}

// keepPrevious preserves the run's current analysis — results.json, the
// reports and the analysis directory — in a new directory under PreviousDir
// before a re-analysis replaces it. Files are hard-linked where the
// filesystem allows (analysis outputs such as traces can be large), copied
// otherwise; the re-analysis removes an analyzer's directory before writing
// it again, so a link never sees the new content. A run that has no analysis
// yet keeps nothing and returns "".
func keepPrevious(dir string, res *results.Results) (string, error) {
	if len(res.Analyses) == 0 && !hasFiles(filepath.Join(dir, runstore.AnalysisDir)) {
		return "", nil
	}
	prev, err := Previous(dir)
	if err != nil {
		return "", err
	}
	n := len(prev) + 1
	if len(prev) > 0 {
		last, _ := strconv.Atoi(filepath.Base(prev[len(prev)-1]))
		n = last + 1
	}
	parent := filepath.Join(dir, PreviousDir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return "", fmt.Errorf("keep the earlier analysis: %w", err)
	}
	// Built under a temporary name and renamed, so that a re-analysis killed
	// half-way never leaves a numbered directory that lacks files.
	tmp, err := os.MkdirTemp(parent, ".keep-")
	if err != nil {
		return "", fmt.Errorf("keep the earlier analysis: %w", err)
	}
	defer os.RemoveAll(tmp)
	for _, name := range []string{results.FileName, report.MarkdownFile, report.HTMLFile, runstore.AnalysisDir} {
		if err := linkTree(filepath.Join(dir, name), filepath.Join(tmp, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("keep the earlier analysis: %w", err)
		}
	}
	final := filepath.Join(parent, fmt.Sprintf("%03d", n))
	if err := os.Rename(tmp, final); err != nil {
		return "", fmt.Errorf("keep the earlier analysis: %w", err)
	}
	return final, nil
}

// hasFiles reports whether the tree at dir holds a file; the runner makes an
// analyzer's directory before it runs, so empty directories say nothing.
func hasFiles(dir string) bool {
	found := errors.New("found")
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			return found
		}
		return nil
	})
	return err == found
}

// linkTree recreates the file or directory tree src at dst with hard links,
// copying a file where linking fails (another filesystem, no link support).
func linkTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		to := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(to, 0o755)
		case !d.Type().IsRegular():
			return nil // analyzers write regular files; nothing else is ours to keep
		}
		if os.Link(path, to) == nil {
			return nil
		}
		return copyFile(path, to)
	})
}

func copyFile(src, dst string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, data, 0o644)
}
