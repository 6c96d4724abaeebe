package smali

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/droidprof/droidprof/internal/debsrc"
	"github.com/droidprof/droidprof/vm/smali/ast"
)

// integrationFiles fetches smali's smali-integration-tests (44 files, from
// the libsmali-java source package) and returns them by path relative to
// src/test/smali, after the syntax updates for smali 2.5.2.
func integrationFiles(t *testing.T) map[string][]byte {
	t.Helper()
	dir := debsrc.ForTest(t, "libsmali-java", "*/smali-integration-tests/*")
	roots, _ := filepath.Glob(filepath.Join(dir, "*", "smali-integration-tests", "src", "test", "smali"))
	if len(roots) != 1 {
		t.Fatalf("no smali-integration-tests/src/test/smali under %s", dir)
	}
	files := map[string][]byte{}
	err := filepath.WalkDir(roots[0], func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".smali") {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(roots[0], path)
		files[rel] = src
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 44 {
		t.Errorf("found %d integration test files, want 44", len(files))
	}
	return files
}

// updateSyntax applies the known syntax updates that the integration tests,
// written for an older smali, need for smali 2.5.2 (shared/reference,
// dalvik-and-dex.md §6.C):
//
//  1. .parameter "name" … .end parameter (AnnotationTests) became
//     .param pN, "name" … .end param, where pN is the register of the
//     method's next parameter.
//  2. .local vN, name:Type with a bare name (AutofixTests/GotoTest) needs
//     the name as a string literal: .local vN, "name":Type.
//  3. const/high16 and const-wide/high16 (InstructionTests/Format21h) took
//     the high 16 bits (0x3000); now they take the whole value
//     (0x30000000, 0x3000000000000000L).
//
// It also returns how many lines each update changed.
func updateSyntax(src []byte) ([]byte, [3]int) {
	var n [3]int
	lines := strings.Split(string(src), "\n")
	var paramRegs []int // registers of the current method's parameters
	next := 0
	for i, line := range lines {
		trimmed := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(trimmed, ".method "):
			paramRegs, next = parameterRegisters(trimmed), 0
		case strings.HasPrefix(trimmed, ".parameter"):
			reg := -1
			if next < len(paramRegs) {
				reg = paramRegs[next]
			}
			next++
			rest := strings.TrimSpace(strings.TrimPrefix(trimmed, ".parameter"))
			repl := fmt.Sprintf(".param p%d", reg)
			if rest != "" {
				repl += ", " + rest
			}
			lines[i] = strings.Replace(line, trimmed, repl, 1)
			n[0]++
		case trimmed == ".end parameter":
			lines[i] = strings.Replace(line, ".end parameter", ".end param", 1)
			n[0]++
		}
		if m := bareLocal.FindStringSubmatchIndex(lines[i]); m != nil {
			l := lines[i]
			lines[i] = l[:m[2]] + strconv.Quote(l[m[2]:m[3]]) + l[m[3]:]
			n[1]++
		}
		if m := high16.FindStringSubmatch(lines[i]); m != nil {
			v, err := strconv.ParseInt(m[3], 0, 64)
			if err == nil && v > -0x8000 && v < 0x10000 {
				var lit string
				if m[2] == "-wide" {
					lit = fmt.Sprintf("%#xL", uint64(v)<<48)
				} else {
					lit = fmt.Sprintf("%#x", uint32(v)<<16)
				}
				lines[i] = strings.Replace(lines[i], m[1]+m[3], m[1]+lit, 1)
				n[2]++
			}
		}
	}
	return []byte(strings.Join(lines, "\n")), n
}

var (
	bareLocal = regexp.MustCompile(`^\s*\.local\s+[vp]\d+\s*,\s*([A-Za-z_$][A-Za-z0-9_$]*)\s*:`)
	high16    = regexp.MustCompile(`^(\s*const(-wide)?/high16\s+[vp]\d+\s*,\s*)(-?(?:0x[0-9a-fA-F]+|\d+))\s*$`)
)

// parameterRegisters gives the p registers of a method's parameters from
// its .method line.
func parameterRegisters(methodLine string) []int {
	open, closing := strings.Index(methodLine, "("), strings.Index(methodLine, ")")
	if open < 0 || closing < open {
		return nil
	}
	reg := 1
	if strings.Contains(methodLine[:open], " static ") {
		reg = 0
	}
	var regs []int
	params := methodLine[open+1 : closing]
	for i := 0; i < len(params); i++ {
		regs = append(regs, reg)
		array := false
		for params[i] == '[' {
			i++
			array = true
		}
		c := params[i]
		if c == 'L' {
			i += strings.IndexByte(params[i:], ';')
		}
		reg++
		if (c == 'J' || c == 'D') && !array {
			reg++
		}
	}
	return regs
}

// TestIntegrationFilesParse parses every smali-integration-tests file. The
// originals of the three files the updates touch must fail (so the updates
// are needed), the updated ones must all parse, at API 28.
func TestIntegrationFilesParse(t *testing.T) {
	files := integrationFiles(t)
	parsed := 0
	var updates [3]int
	for name, src := range files {
		updated, n := updateSyntax(src)
		for i := range n {
			updates[i] += n[i]
		}
		if n != [3]int{} {
			if _, err := Parse(name, src, &Options{API: 28}); err == nil {
				t.Errorf("%s: the original parses, but smali 2.5.2 rejects it", name)
			}
		}
		if _, err := Parse(name, updated, &Options{API: 28}); err != nil {
			t.Errorf("%s:\n%v", name, err)
			continue
		}
		parsed++
	}
	t.Logf("%d/%d integration test files parse; updated lines: .parameter %d, bare .local names %d, high16 literals %d",
		parsed, len(files), updates[0], updates[1], updates[2])
	if updates[0] == 0 || updates[1] == 0 || updates[2] == 0 {
		t.Errorf("expected every syntax update to apply at least once, got %v", updates)
	}
}

var _ = ast.Pos{}
