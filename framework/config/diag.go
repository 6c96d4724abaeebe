package config

import (
	"fmt"
	"sort"
	"strings"

	"github.com/agext/levenshtein"
	"github.com/hashicorp/hcl/v2"
)

// Pos is a position in a config file. Line and Column count from 1; a zero
// Line means the whole file, a zero Column the whole line.
type Pos struct {
	File   string
	Line   int
	Column int
}

// String renders the position as file:line:col.
func (p Pos) String() string {
	switch {
	case p.Line == 0:
		return p.File
	case p.Column == 0:
		return fmt.Sprintf("%s:%d", p.File, p.Line)
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Column)
}

// short renders file:line, the form used when one message refers to another
// place ("already defined at x.hcl:7").
func (p Pos) short() string {
	if p.Line == 0 {
		return p.File
	}
	return fmt.Sprintf("%s:%d", p.File, p.Line)
}

func posOf(r hcl.Range) Pos {
	return Pos{File: r.Filename, Line: r.Start.Line, Column: r.Start.Column}
}

// where locates a value: a file position, or the override that supplied it
// ("env:DROIDPROF_REPEAT", "--set repeat=5").
type where struct {
	pos Pos
	src string
}

func (w where) diag(summary, detail string) *Diagnostic {
	return &Diagnostic{Pos: w.pos, Source: w.src, Summary: summary, Detail: detail}
}

// Diagnostic is one problem found in an experiment config.
type Diagnostic struct {
	// Pos is where the problem is in the config file; zero when the problem
	// comes from an override.
	Pos Pos
	// Source names the override the problem comes from: "env:DROIDPROF_X" or
	// "--set key=value". Empty for problems in the file.
	Source  string
	Summary string
	Detail  string
}

// Where renders the location of the problem: Source if set, else Pos.
func (d *Diagnostic) Where() string {
	if d.Source != "" {
		return d.Source
	}
	return d.Pos.String()
}

// Error renders "where: summary: detail".
func (d *Diagnostic) Error() string {
	msg := d.Summary
	if d.Detail != "" {
		if msg != "" {
			msg += ": "
		}
		msg += d.Detail
	}
	if w := d.Where(); w != "" {
		msg = w + ": " + msg
	}
	return msg
}

// Diagnostics lists every problem found, in file order, overrides last. It is
// the error type returned by Load, Parse and Resolve.
type Diagnostics []*Diagnostic

// Error renders one diagnostic per line.
func (ds Diagnostics) Error() string {
	lines := make([]string, len(ds))
	for i, d := range ds {
		lines[i] = d.Error()
	}
	return strings.Join(lines, "\n")
}

// err sorts and de-duplicates ds and returns it as an error, or nil when it
// is empty (never a typed nil).
func (ds Diagnostics) err() error {
	if len(ds) == 0 {
		return nil
	}
	seen := map[string]bool{}
	out := Diagnostics{}
	for _, d := range ds {
		if k := d.Error(); !seen[k] {
			seen[k] = true
			out = append(out, d)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if (a.Source == "") != (b.Source == "") {
			return a.Source == ""
		}
		if a.Source != "" {
			return false
		}
		if a.Pos.File != b.Pos.File {
			return a.Pos.File < b.Pos.File
		}
		if a.Pos.Line != b.Pos.Line {
			return a.Pos.Line < b.Pos.Line
		}
		return a.Pos.Column < b.Pos.Column
	})
	return out
}

// fromHCL converts the errors among hcl diagnostics (warnings are dropped).
func fromHCL(hd hcl.Diagnostics) Diagnostics {
	var ds Diagnostics
	for _, d := range hd {
		if d.Severity != hcl.DiagError {
			continue
		}
		var pos Pos
		switch {
		case d.Subject != nil:
			pos = posOf(*d.Subject)
		case d.Context != nil:
			pos = posOf(*d.Context)
		}
		ds = append(ds, &Diagnostic{Pos: pos, Summary: d.Summary, Detail: d.Detail})
	}
	return ds
}

// suggest returns the option closest to given, if it is close enough to be a
// likely typo (the same threshold HCL uses), else "".
func suggest(given string, options []string) string {
	best, bestD := "", 3
	for _, o := range options {
		if o == given {
			continue
		}
		if d := levenshtein.Distance(given, o, nil); d < bestD {
			best, bestD = o, d
		}
	}
	return best
}

// didYouMean returns ` Did you mean "x"?` or "".
func didYouMean(given string, options []string) string {
	if s := suggest(given, options); s != "" {
		return fmt.Sprintf(" Did you mean %q?", s)
	}
	return ""
}

func unsupportedArgument(pos Pos, name string, attrs, blocks []string) *Diagnostic {
	hint := didYouMean(name, attrs)
	if hint == "" && contains(blocks, name) {
		hint = fmt.Sprintf(" Did you mean to define a block of type %q?", name)
	}
	return &Diagnostic{Pos: pos, Summary: "Unsupported argument",
		Detail: fmt.Sprintf("An argument named %q is not expected here.%s", name, hint)}
}

func unsupportedBlock(pos Pos, name string, attrs, blocks []string) *Diagnostic {
	hint := didYouMean(name, blocks)
	if hint == "" && contains(attrs, name) {
		hint = fmt.Sprintf(" Did you mean to define argument %q? If so, use the equals sign to assign it a value.", name)
	}
	return &Diagnostic{Pos: pos, Summary: "Unsupported block type",
		Detail: fmt.Sprintf("Blocks of type %q are not expected here.%s", name, hint)}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
