package dex_test

import (
	"errors"
	"io"
	"testing"

	"github.com/droidprof/droidprof/vm/dex"
	"github.com/droidprof/droidprof/vm/dex/dexdump"
)

// FuzzRead reads arbitrary bytes and, when they form a DEX file, decodes
// everything: all classes, code, instructions, payloads, debug info
// (positions and locals), and prints the file in dexdump's and dexlist's
// formats (which walks every annotation and encoded value). Nothing may
// panic, and every read error must be a *dex.FormatError. The seed corpus in
// testdata/fuzz/FuzzRead holds small DEX files assembled by the real smali
// from testdata/smali (see testdata/README.md), plus the crashers found so
// far.
func FuzzRead(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		if _, err := dex.Read(data); err != nil {
			checkFormatError(t, err)
		}
		file, err := dex.ReadWithOptions(data, dex.Options{SkipChecksum: true, SkipSignature: true})
		if err != nil {
			checkFormatError(t, err)
			return
		}
		if work(file) > 1<<16 {
			// Methods may share code items, so printing can cost classes ×
			// methods × code size; keep each input fast for the fuzzer.
			return
		}
		decodeAll(file)
		opt := dexdump.Options{Annotations: true, Disassemble: true, FileHeader: true, SectionHeaders: true}
		_ = dexdump.Dump(io.Discard, file, "fuzz.dex", opt)
		_ = dexdump.List(io.Discard, file, "fuzz.dex")
	})
}

func checkFormatError(t *testing.T, err error) {
	t.Helper()
	var fe *dex.FormatError
	if !errors.As(err, &fe) {
		t.Fatalf("read error is not a *dex.FormatError: %v", err)
	}
}

// decodeAll decodes every instruction and payload of every method and runs
// the debug info state machines. It returns the number of instructions.
func decodeAll(f *dex.File) int {
	n := 0
	for _, cd := range f.ClassDefs {
		if cd.Data == nil {
			continue
		}
		for _, list := range [][]dex.EncodedMethod{cd.Data.DirectMethods, cd.Data.VirtualMethods} {
			for _, m := range list {
				if m.Code == nil {
					continue
				}
				it := m.Code.Iterator()
				for it.Next() {
					n++
					in := it.Inst()
					switch in.Op {
					case dex.OpPackedSwitch:
						_, _ = dex.DecodePackedSwitch(m.Code.Insns, int(in.Target(it.PC())))
					case dex.OpSparseSwitch:
						_, _ = dex.DecodeSparseSwitch(m.Code.Insns, int(in.Target(it.PC())))
					case dex.OpFillArrayData:
						_, _ = dex.DecodeArrayData(m.Code.Insns, int(in.Target(it.PC())))
					}
				}
				if m.Code.Debug != nil {
					n += len(m.Code.Debug.Positions())
				}
				n += len(f.Locals(m))
			}
		}
	}
	return n
}

// work estimates the cost of decoding and printing every method and
// annotation, counting shared items once per use.
func work(f *dex.File) int {
	n := 0
	for _, cd := range f.ClassDefs {
		n += values(cd.StaticValues)
		if dir := cd.Annotations; dir != nil {
			n += set(dir.Class)
			for _, fa := range dir.Fields {
				n += 1 + set(fa.Set)
			}
			for _, ma := range dir.Methods {
				n += 1 + set(ma.Set)
			}
			for _, pa := range dir.Params {
				for _, s := range pa.Sets {
					n += 1 + set(s)
				}
			}
		}
		if cd.Data == nil {
			continue
		}
		for _, list := range [][]dex.EncodedMethod{cd.Data.DirectMethods, cd.Data.VirtualMethods} {
			for _, m := range list {
				n++
				if c := m.Code; c != nil {
					n += len(c.Insns) + int(c.Registers)
					if c.Debug != nil {
						n += len(c.Debug.Ops)
					}
				}
			}
		}
	}
	return n
}

func set(s *dex.AnnotationSet) int {
	if s == nil {
		return 0
	}
	n := 0
	for _, a := range s.Items {
		n += 1 + annotation(a.EncodedAnnotation)
	}
	return n
}

func annotation(a dex.EncodedAnnotation) int {
	n := 0
	for _, e := range a.Elements {
		n += 1 + values([]dex.Value{e.Value})
	}
	return n
}

func values(vs []dex.Value) int {
	n := 0
	for _, v := range vs {
		n++
		n += values(v.Array)
		if v.Annotation != nil {
			n += annotation(*v.Annotation)
		}
	}
	return n
}
