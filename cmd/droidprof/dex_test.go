package main

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/droidprof/droidprof/vm/dex"
	"github.com/droidprof/droidprof/vm/dex/dexdump"
)

// TestDexCommands runs `droidprof dex dump` and `droidprof dex list` on a DEX
// assembled by the real smali (vm/dex/testdata/formats.dex); the printers
// themselves are checked against AOSP's dexdump in vm/dex/dexdump.
func TestDexCommands(t *testing.T) {
	c := newCLI(t)
	data, err := os.ReadFile("../../vm/dex/testdata/formats.dex")
	if err != nil {
		t.Fatal(err)
	}
	c.write("formats.dex", string(data))
	f, err := dex.Read(data)
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if err := dexdump.Dump(&want, f, "formats.dex", dexdump.Options{Annotations: true, Disassemble: true, FileHeader: true, SectionHeaders: true}); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"-adfh"}, {"-a", "-d", "-f", "-h"}, {"-d", "-a", "-hf"}} {
		if got := c.ok(append(append([]string{"dex", "dump"}, args...), "formats.dex")...); got != want.String() {
			t.Errorf("dex dump %v differs from dexdump.Dump", args)
		}
	}
	want.Reset()
	if err := dexdump.List(&want, f, "formats.dex"); err != nil {
		t.Fatal(err)
	}
	if got := c.ok("dex", "list", "formats.dex"); got != want.String() {
		t.Errorf("dex list:\n%s\nwant\n%s", got, want.String())
	}

	// A damaged checksum is an error, unless -i.
	bad := bytes.Clone(data)
	bad[12] ^= 1 // the signature, which the checksum covers
	c.write("bad.dex", string(bad))
	c.write("text.dex", "not a dex file")
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"dex"}, 2, "usage: droidprof dex dump"},
		{[]string{"dex", "dupm"}, 2, `unknown dex command "dupm" (did you mean "dump"?)`},
		{[]string{"dex", "dump", "-d"}, 2, "usage: droidprof dex dump"},
		{[]string{"dex", "dump", "-x", "formats.dex"}, 2, "flag provided but not defined: -x"},
		{[]string{"dex", "list", "missing.dex"}, 1, "missing.dex: no such file"},
		{[]string{"dex", "dump", "bad.dex"}, 1, "bad.dex: dex: header at 0x8: checksum mismatch"},
		{[]string{"dex", "list", "text.dex"}, 1, "text.dex: dex: header at 0x0: file is 14 bytes, shorter than the 112-byte header"},
	} {
		_, errOut, code := c.run(tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.want) {
			t.Errorf("droidprof %v: exit %d, stderr %q; want exit %d and %q", tc.args, code, errOut, tc.code, tc.want)
		}
	}
	if out := c.ok("dex", "dump", "-i", "-d", "bad.dex"); !strings.Contains(out, "Opened 'bad.dex', DEX version '035'") {
		t.Errorf("dex dump -i: %s", out)
	}
}
