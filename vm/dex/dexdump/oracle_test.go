package dexdump

import (
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"fmt"
	"github.com/droidprof/droidprof/internal/testenv"
	"hash/adler32"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/droidprof/droidprof/vm/dex"
)

// tool returns the path of an oracle binary (Debian packages dexdump,
// dexlist, libsmali-java). It skips the test when the tool is missing, or
// fails under DROIDPROF_REQUIRE_PRIVILEGED=1 (CI installs them).
func tool(t *testing.T, name string) string {
	t.Helper()
	return testenv.Tool(t, name, debianPackage(name))
}

// run runs an oracle in dir and returns its stdout.
func run(t *testing.T, dir, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(tool(t, name), args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, stderr.String())
	}
	return stdout.String()
}

// assemble assembles smali sources with the real smali into dir/out.
func assemble(t *testing.T, dir, out string, api int, files ...string) string {
	t.Helper()
	args := append([]string{"assemble", "-a", fmt.Sprint(api), "-o", filepath.Join(dir, out)}, files...)
	run(t, dir, "smali", args...)
	return filepath.Join(dir, out)
}

// ours returns our dump (with dexdump's flags) and list of the DEX at
// dir/name.
func ours(t *testing.T, dir, name string, opt Options) (string, string) {
	t.Helper()
	f := readLikeART(t, filepath.Join(dir, name))
	var dump, list bytes.Buffer
	if err := Dump(&dump, f, name, opt); err != nil {
		t.Fatal(err)
	}
	if err := List(&list, f, name); err != nil {
		t.Fatal(err)
	}
	return dump.String(), list.String()
}

var allFlags = Options{Annotations: true, Disassemble: true, FileHeader: true, SectionHeaders: true}

// TestRealDexdumpOnARTFiles is the second oracle for the ART files: the
// real dexdump and dexlist installed on this machine.
func TestRealDexdumpOnARTFiles(t *testing.T) {
	tool(t, "dexdump")
	tool(t, "dexlist")
	dir := artGoldens(t)
	for _, name := range goldenNames {
		t.Run(name, func(t *testing.T) {
			dump, list := ours(t, dir, name+".dex", allFlags)
			compareText(t, "dexdump -adfh", run(t, dir, "dexdump", "-adfh", name+".dex"), dump)
			compareText(t, "dexlist", run(t, dir, "dexlist", name+".dex"), list)
		})
	}
}

// TestSmaliAssembled compares our output with the real dexdump's on DEX
// files the real smali assembles from testdata/smali, which cover every
// instruction format, the three payloads, tries with typed and catch-all
// handlers, debug info, annotations, static values, call sites and method
// handles.
func TestSmaliAssembled(t *testing.T) {
	src, err := filepath.Abs("../testdata/smali")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, c := range []struct {
		out   string
		api   int
		files []string
	}{
		{"formats.dex", 15, []string{"Formats.smali", "Inner.smali", "Empty.smali"}},
		{"invoke.dex", 28, []string{"Invoke.smali"}},
	} {
		t.Run(c.out, func(t *testing.T) {
			var paths []string
			for _, f := range c.files {
				paths = append(paths, filepath.Join(src, f))
			}
			assemble(t, dir, c.out, c.api, paths...)
			for _, flags := range []struct {
				arg string
				opt Options
			}{{"-d", Options{Disassemble: true}}, {"-adfh", allFlags}} {
				dump, list := ours(t, dir, c.out, flags.opt)
				compareText(t, "dexdump "+flags.arg, run(t, dir, "dexdump", flags.arg, c.out), dump)
				compareText(t, "dexlist", run(t, dir, "dexlist", c.out), list)
			}
		})
	}
}

// TestEveryOpcode disassembles every opcode 0x00–0xff with two operand
// patterns and compares with the real dexdump. The DEX is assembled by smali
// with one method of nops per opcode; each method's first code units are
// then overwritten with the opcode and operand units, and the checksum and
// signature recomputed. dexdump runs with -j (no verifier), since most
// patched methods are not verifiable.
func TestEveryOpcode(t *testing.T) {
	tool(t, "dexdump")
	dir := t.TempDir()
	var src strings.Builder
	src.WriteString(".class public LOps;\n.super Ljava/lang/Object;\n")
	for op := 0; op < 256; op++ {
		fmt.Fprintf(&src, ".method public static m%02x()V\n    .registers 16\n%s    return-void\n.end method\n", op, strings.Repeat("    nop\n", 6))
	}
	smaliPath := filepath.Join(dir, "Ops.smali")
	if err := os.WriteFile(smaliPath, []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	base := assemble(t, dir, "base.dex", 28, smaliPath)
	data, err := os.ReadFile(base)
	if err != nil {
		t.Fatal(err)
	}
	f, err := dex.Read(data)
	if err != nil {
		t.Fatal(err)
	}
	for i, pattern := range []struct {
		high  uint16   // high byte of the first code unit
		units []uint16 // the following code units
	}{
		{0x21, []uint16{0x0003, 0x4321, 0x0001, 0x8000}},
		{0xf1, []uint16{0xfffe, 0x7fff, 0xffff, 0x0102}},
	} {
		patched := bytes.Clone(data)
		for _, m := range f.ClassDefs[0].Data.DirectMethods {
			name := f.Strings[f.Methods[m.Method].Name]
			var op uint16
			fmt.Sscanf(name, "m%02x", &op)
			if pattern.high == 0xf1 && (op == 0x24 || (op >= 0x6e && op <= 0x72) || op == 0xe9 || op == 0xfa || op == 0xfc) {
				continue // 15 arguments: not decodable (dexdump reads past its array)
			}
			off := m.Code.InsnsOff()
			binary.LittleEndian.PutUint16(patched[off:], op|pattern.high<<8)
			for j, u := range pattern.units {
				binary.LittleEndian.PutUint16(patched[off+2+2*uint32(j):], u)
			}
		}
		sig := sha1.Sum(patched[32:])
		copy(patched[12:32], sig[:])
		binary.LittleEndian.PutUint32(patched[8:], adler32.Checksum(patched[12:]))
		name := fmt.Sprintf("ops%d.dex", i)
		if err := os.WriteFile(filepath.Join(dir, name), patched, 0o644); err != nil {
			t.Fatal(err)
		}
		dump, _ := ours(t, dir, name, Options{Disassemble: true})
		compareText(t, name, run(t, dir, "dexdump", "-d", "-j", name), dump)
	}
}

// debianPackage names the package that provides an oracle tool.
func debianPackage(tool string) string {
	if tool == "smali" || tool == "baksmali" {
		return "libsmali-java"
	}
	return tool
}
