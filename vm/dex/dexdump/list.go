package dexdump

import (
	"fmt"
	"io"
	"strings"

	"github.com/droidprof/droidprof/vm/dex"
)

// List prints f as `dexlist` prints the file name: one line per method with
// code, giving the file offset of its instructions, their size in bytes, the
// class, name and signature, the source file and the first line number.
func List(w io.Writer, f *dex.File, name string) error {
	p := newPrinter(w, f, Options{})
	fmt.Fprintf(p.w, "#%s\n", name)
	for i := range f.ClassDefs {
		cd := &f.ClassDefs[i]
		if cd.Data == nil {
			continue
		}
		file := "(none)"
		if cd.SourceFile != dex.NoIndex && f.Strings[cd.SourceFile] != "" {
			file = p.str(cd.SourceFile)
		}
		for _, l := range [][]dex.EncodedMethod{cd.Data.DirectMethods, cd.Data.VirtualMethods} {
			for _, m := range l {
				if m.Code == nil {
					continue
				}
				mr := f.Methods[m.Method]
				first := int32(-1)
				if m.Code.Debug != nil {
					if pos := m.Code.Debug.Positions(); len(pos) > 0 {
						first = int32(pos[0].Line)
					}
				}
				fmt.Fprintf(p.w, "0x%08x %d %s %s %s %s %d\n", m.Code.InsnsOff(), len(m.Code.Insns)*2,
					listClassName(p.typ(mr.Class)), p.str(mr.Name), p.proto(mr.Proto), file, first)
			}
		}
	}
	return p.w.Flush()
}

// listClassName is dexlist's dotted class name: the L and ; stripped, '/'
// replaced by '.'; other descriptors only get the replacement.
func listClassName(s string) string {
	if len(s) >= 2 && s[0] == 'L' {
		s = s[1 : len(s)-1]
	}
	return strings.ReplaceAll(s, "/", ".")
}
