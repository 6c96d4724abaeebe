package main

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/droidprof/droidprof/internal/testenv"
)

// A config block in the documentation is a fenced block whose info string
// is hcl, yaml or yml. The rule docs follow, and TestDocConfigsValidate
// checks:
//
//   - a block that defines an experiment (HCL: a top-level `experiment`
//     block; YAML: a top-level `experiment:` key) is a whole config and must
//     pass `droidprof validate` as it is, against the real plugins (the
//     built-in ones and examples/plugin-hashrate, built for the test);
//   - any other block is a fragment of an experiment body (a lone
//     `storage {}` block, say). An HCL fragment must be marked by an HTML
//     comment on the line right above its fence,
//     `<!-- fragment: CONTEXT -->`, and is validated inside
//     `experiment "fragment" { CONTEXT  BLOCK }`, so CONTEXT supplies what
//     the fragment refers to (e.g. `matrix { fs = ["ext4", "xfs"] }`).
//     YAML blocks must be whole experiments.
//
// The block is written to a file padded with blank lines so that the line
// numbers in validate's errors are those of the markdown file.

// docBlock is one fenced config block of a markdown file.
type docBlock struct {
	file    string // markdown file, relative to the repository root
	line    int    // line of the block's first content line
	lang    string // "hcl" or "yaml"
	text    string
	context string // the fragment marker's CONTEXT; "" if unmarked
	marked  bool   // a fragment marker precedes the fence
}

var (
	fenceOpen      = regexp.MustCompile("^\\s*```\\s*(hcl|yaml|yml)\\s*$")
	fenceClose     = regexp.MustCompile("^\\s*```\\s*$")
	fragmentMarker = regexp.MustCompile(`^\s*<!--\s*fragment:(.*)-->\s*$`)
	hclExperiment  = regexp.MustCompile(`(?m)^\s*experiment\s+"`)
	yamlExperiment = regexp.MustCompile(`(?m)^experiment\s*:`)
)

// configBlocks extracts the fenced config blocks of a markdown file.
func configBlocks(t *testing.T, root, rel string) []docBlock {
	t.Helper()
	f, err := os.Open(filepath.Join(root, rel))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var (
		blocks []docBlock
		cur    *docBlock
		body   []string
		prev   string
	)
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case cur == nil:
			if m := fenceOpen.FindStringSubmatch(line); m != nil {
				cur = &docBlock{file: rel, line: n + 1, lang: strings.Replace(m[1], "yml", "yaml", 1)}
				if fm := fragmentMarker.FindStringSubmatch(prev); fm != nil {
					cur.marked, cur.context = true, strings.TrimSpace(fm[1])
				}
				body = nil
			}
		case fenceClose.MatchString(line):
			cur.text = strings.Join(body, "\n") + "\n"
			blocks = append(blocks, *cur)
			cur = nil
		default:
			body = append(body, line)
		}
		prev = line
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if cur != nil {
		t.Errorf("%s:%d: unterminated ```%s block", rel, cur.line-1, cur.lang)
	}
	return blocks
}

// config renders the block as a config file whose line numbers match the
// markdown file, or explains why it cannot be validated.
func (b docBlock) config() (string, error) {
	whole := hclExperiment.MatchString(b.text)
	if b.lang == "yaml" {
		whole = yamlExperiment.MatchString(b.text)
	}
	switch {
	case whole && b.marked:
		return "", fmt.Errorf("block is marked as a fragment but defines an experiment")
	case whole:
		return strings.Repeat("\n", b.line-1) + b.text, nil
	case b.lang == "yaml":
		return "", fmt.Errorf("a YAML block must be a whole experiment (a top-level experiment: key)")
	case !b.marked:
		return "", fmt.Errorf("block is not a whole experiment; mark it as a fragment with <!-- fragment: CONTEXT --> on the line above its fence")
	}
	head := []string{`experiment "fragment" {`}
	if b.context != "" {
		head = append(head, b.context)
	}
	pad := b.line - 1 - len(head)
	if pad < 0 {
		pad = 0
	}
	return strings.Repeat("\n", pad) + strings.Join(head, "\n") + "\n" + b.text + "}\n", nil
}

// docFiles lists the markdown files of the repository.
func docFiles(t *testing.T, root string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "runs" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(d.Name(), ".md") {
			rel, err := filepath.Rel(root, path)
			if err != nil {
				return err
			}
			files = append(files, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestDocConfigsValidate validates every config the repository shows a
// user: each fenced hcl/yaml block of every markdown file (see the rule
// above) and every file in configs/.
func TestDocConfigsValidate(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	c := newCLI(t)
	// The example plugin's README configs use it, as a user would: built
	// into ./plugins.d.
	bin := filepath.Join(c.dir, "plugins.d", "droidprof-plugin-hashrate")
	if out, err := exec.Command("go", "build", "-o", bin, filepath.Join(root, "examples", "plugin-hashrate")).CombinedOutput(); err != nil {
		t.Fatalf("go build the example plugin: %v\n%s", err, out)
	}

	var blocks []docBlock
	for _, f := range docFiles(t, root) {
		blocks = append(blocks, configBlocks(t, root, f)...)
	}
	if len(blocks) < 4 {
		t.Fatalf("found %d config blocks in the markdown files; the README and the example plugin's README alone have 4", len(blocks))
	}
	for _, b := range blocks {
		name := fmt.Sprintf("%s:%d", b.file, b.line)
		t.Run(name, func(t *testing.T) {
			src, err := b.config()
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			path := filepath.Join(t.TempDir(), "block."+b.lang)
			if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			if out, errOut, code := c.run("validate", path); code != 0 {
				if onlyMissingTools(errOut) {
					testenv.SkipOrFail(t, "%s needs a tool this machine lacks: %s", name, strings.TrimSpace(errOut))
				}
				t.Errorf("the ```%s block at %s does not validate:\n%s%s", b.lang, name,
					strings.ReplaceAll(out, path, b.file), strings.ReplaceAll(errOut, path, b.file))
			}
		})
	}

	configs, err := filepath.Glob(filepath.Join(root, "configs", "*"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range configs {
		switch filepath.Ext(f) {
		case ".hcl", ".yaml", ".yml":
		default:
			continue
		}
		if out, errOut, code := c.run("validate", f); code != 0 {
			if onlyMissingTools(errOut) {
				testenv.SkipOrFail(t, "%s needs a tool this machine lacks: %s", f, strings.TrimSpace(errOut))
			}
			t.Errorf("%s does not validate:\n%s%s", f, out, errOut)
		}
	}
}

// TestDocBlockExtraction checks the rule on a made-up markdown file, so that
// a block the walk misses or misreads cannot pass unnoticed.
func TestDocBlockExtraction(t *testing.T) {
	md := "# x\n\n```hcl\nexperiment \"a\" {}\n```\n\n<!-- fragment: matrix { fs = [\"ext4\"] } -->\n```hcl\nstorage {}\n```\n\n```yaml\nexperiment:\n  b: {}\n```\n\n```hcl\nstorage {}\n```\n\n```sh\nexperiment \"no\" {}\n```\n"
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "x.md"), []byte(md), 0o644); err != nil {
		t.Fatal(err)
	}
	blocks := configBlocks(t, dir, "x.md")
	if len(blocks) != 4 {
		t.Fatalf("%d blocks, want 4 (hcl, marked hcl fragment, yaml, unmarked hcl): %+v", len(blocks), blocks)
	}
	want := []struct {
		line   int
		lang   string
		marked bool
		ok     bool
	}{{4, "hcl", false, true}, {9, "hcl", true, true}, {13, "yaml", false, true}, {18, "hcl", false, false}}
	for i, b := range blocks {
		src, err := b.config()
		if b.line != want[i].line || b.lang != want[i].lang || b.marked != want[i].marked || (err == nil) != want[i].ok {
			t.Errorf("block %d: line %d lang %s marked %v err %v; want %+v", i, b.line, b.lang, b.marked, err, want[i])
			continue
		}
		if err != nil {
			continue
		}
		// Line numbers are kept: the block's first line is at b.line.
		if lines := strings.Split(src, "\n"); lines[b.line-1] != strings.SplitN(b.text, "\n", 2)[0] {
			t.Errorf("block %d: line %d of the config is %q, want the block's first line", i, b.line, lines[b.line-1])
		}
	}
}

// onlyMissingTools reports whether validate failed only because collectors
// need programs that are not installed: the config itself is valid, and the
// test skips (fails in CI) naming them instead of blaming the docs.
func onlyMissingTools(errOut string) bool {
	lines := strings.FieldsFunc(strings.TrimSpace(errOut), func(r rune) bool { return r == '\n' })
	for _, l := range lines {
		if !strings.Contains(l, ", not found in PATH") {
			return false
		}
	}
	return len(lines) > 0
}
