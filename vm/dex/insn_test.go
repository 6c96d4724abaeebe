package dex

import (
	"errors"
	"os"
	"strings"
	"testing"
)

func TestDecode(t *testing.T) {
	for _, c := range []struct {
		units []uint16
		want  Instruction
	}{
		{[]uint16{0x0000}, Instruction{Op: 0x00, Size: 1}},
		{[]uint16{0x2101}, Instruction{Op: 0x01, Size: 1, A: 1, B: 2}},                                                                            // 12x move v1, v2
		{[]uint16{0xf312}, Instruction{Op: 0x12, Size: 1, A: 3, Lit: -1}},                                                                         // 11n const/4 v3, -1
		{[]uint16{0xab0a}, Instruction{Op: 0x0a, Size: 1, A: 0xab}},                                                                               // 11x move-result
		{[]uint16{0xfe28}, Instruction{Op: 0x28, Size: 1, Lit: -2}},                                                                               // 10t goto -2
		{[]uint16{0x0029, 0x8000}, Instruction{Op: 0x29, Size: 2, Lit: -32768}},                                                                   // 20t
		{[]uint16{0x0102, 0xffff}, Instruction{Op: 0x02, Size: 2, A: 1, B: 0xffff}},                                                               // 22x
		{[]uint16{0x0538, 0x0010}, Instruction{Op: 0x38, Size: 2, A: 5, Lit: 16}},                                                                 // 21t if-eqz
		{[]uint16{0x0513, 0xfffe}, Instruction{Op: 0x13, Size: 2, A: 5, Lit: -2}},                                                                 // 21s const/16
		{[]uint16{0x0515, 0x8000}, Instruction{Op: 0x15, Size: 2, A: 5, Lit: -0x80000000}},                                                        // 21h const/high16
		{[]uint16{0x0519, 0x4000}, Instruction{Op: 0x19, Size: 2, A: 5, Lit: 0x4000 << 48}},                                                       // 21h const-wide/high16
		{[]uint16{0x051a, 0x1234}, Instruction{Op: 0x1a, Size: 2, A: 5, Index: 0x1234}},                                                           // 21c const-string
		{[]uint16{0x0190, 0x0302}, Instruction{Op: 0x90, Size: 2, A: 1, B: 2, C: 3}},                                                              // 23x add-int
		{[]uint16{0x01d8, 0x8002}, Instruction{Op: 0xd8, Size: 2, A: 1, B: 2, Lit: -128}},                                                         // 22b add-int/lit8
		{[]uint16{0x2132, 0xfff0}, Instruction{Op: 0x32, Size: 2, A: 1, B: 2, Lit: -16}},                                                          // 22t if-eq
		{[]uint16{0x21d0, 0x7fff}, Instruction{Op: 0xd0, Size: 2, A: 1, B: 2, Lit: 32767}},                                                        // 22s add-int/lit16
		{[]uint16{0x2152, 0x0007}, Instruction{Op: 0x52, Size: 2, A: 1, B: 2, Index: 7}},                                                          // 22c iget
		{[]uint16{0x0003, 0x0100, 0xffff}, Instruction{Op: 0x03, Size: 3, A: 0x100, B: 0xffff}},                                                   // 32x move/16
		{[]uint16{0x002a, 0x0000, 0x8000}, Instruction{Op: 0x2a, Size: 3, Lit: -0x80000000}},                                                      // 30t goto/32
		{[]uint16{0x022b, 0x0010, 0x0000}, Instruction{Op: 0x2b, Size: 3, A: 2, Lit: 16}},                                                         // 31t packed-switch
		{[]uint16{0x0214, 0x5678, 0x1234}, Instruction{Op: 0x14, Size: 3, A: 2, Lit: 0x12345678}},                                                 // 31i const
		{[]uint16{0x021b, 0x0001, 0x0001}, Instruction{Op: 0x1b, Size: 3, A: 2, Index: 0x10001}},                                                  // 31c const-string/jumbo
		{[]uint16{0x546e, 0x0009, 0x3210}, Instruction{Op: 0x6e, Size: 3, A: 5, Index: 9, Args: [5]uint8{0, 1, 2, 3, 4}}},                         // 35c
		{[]uint16{0x0374, 0x0009, 0x0100}, Instruction{Op: 0x74, Size: 3, A: 3, Index: 9, C: 0x100}},                                              // 3rc
		{[]uint16{0x30fa, 0x0012, 0x0210, 0x0010}, Instruction{Op: 0xfa, Size: 4, A: 3, Index: 0x12, Proto: 0x10, Args: [5]uint8{0, 1, 2, 0, 0}}}, // 45cc
		{[]uint16{0x07fb, 0x0012, 0x0002, 0x0011}, Instruction{Op: 0xfb, Size: 4, A: 7, Index: 0x12, C: 2, Proto: 0x11}},                          // 4rcc
		{[]uint16{0x0118, 0x2d18, 0x5444, 0x21fb, 0x4009}, Instruction{Op: 0x18, Size: 5, A: 1, Lit: 0x400921fb54442d18}},                         // 51l
		{[]uint16{0x0100, 0x0002, 0x0000, 0x0000, 1, 0, 2, 0}, Instruction{Op: 0, Payload: PackedSwitchPayload, Size: 8, A: 2}},
		{[]uint16{0x0200, 0x0001, 5, 0, 9, 0}, Instruction{Op: 0, Payload: SparseSwitchPayload, Size: 6, A: 1}},
		{[]uint16{0x0300, 0x0001, 0x0003, 0x0000, 0x0201, 0x0003}, Instruction{Op: 0, Payload: ArrayDataPayload, Size: 6, A: 1, B: 3}},
	} {
		got, err := Decode(c.units, 0)
		if err != nil {
			t.Errorf("Decode(% x): %v", c.units, err)
			continue
		}
		if got != c.want {
			t.Errorf("Decode(% x) (%s) = %+v, want %+v", c.units, got.Op, got, c.want)
		}
	}
}

func TestDecodeErrors(t *testing.T) {
	for _, c := range []struct {
		units []uint16
		pc    int
		want  string
	}{
		{[]uint16{0x0000}, 1, "beyond the end of the code"},
		{[]uint16{0x0118, 0, 0}, 0, "const-wide needs 5 code units, only 3 left"},
		{[]uint16{0x606e, 0, 0}, 0, "invoke-virtual has 6 arguments, at most 5 allowed"},
		{[]uint16{0x0100, 0x0002, 0, 0}, 0, "packed-switch-data payload needs 8 code units, only 4 left"},
		{[]uint16{0x0300, 0x0004}, 0, "array-data payload header truncated"},
		{[]uint16{0x0300, 0xffff, 0xffff, 0xffff}, 0, "array-data payload needs"},
	} {
		_, err := Decode(c.units, c.pc)
		var de *DecodeError
		if !errors.As(err, &de) || de.PC != c.pc || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Decode(% x, %d) = %v, want %q", c.units, c.pc, err, c.want)
		}
	}
	// Through Code, errors carry the file offset of the code unit.
	code := &Code{Off: 0x100, Insns: []uint16{0x000e, 0x0118}}
	it := code.Iterator()
	for it.Next() {
	}
	var fe *FormatError
	if !errors.As(it.Err(), &fe) || fe.Offset != 0x112 || !strings.Contains(fe.Error(), "insns[0x0001] at 0x112: const-wide needs 5 code units, only 1 left") {
		t.Errorf("iterator error %v", it.Err())
	}
}

func TestPayloadErrors(t *testing.T) {
	insns := []uint16{0x000e, 0x0200, 0x0000}
	if _, err := DecodePackedSwitch(insns, 1); err == nil || !strings.Contains(err.Error(), "expected a packed-switch-data payload") {
		t.Errorf("DecodePackedSwitch: %v", err)
	}
	if _, err := DecodeArrayData(insns, 7); err == nil {
		t.Error("DecodeArrayData beyond the end: no error")
	}
}

func TestOpcodeTable(t *testing.T) {
	for op := 0; op < 256; op++ {
		info := Opcode(op).Info()
		if info.Name == "" || info.Format.Size() == 0 {
			t.Errorf("opcode %#02x: %+v", op, info)
		}
		unused := strings.HasPrefix(info.Name, "unused-")
		if unused && (info.Flags&FlagUnused == 0 || info.Index != IndexUnknown) {
			t.Errorf("%s: flags %b index %d", info.Name, info.Flags, info.Index)
		}
	}
	for _, c := range []struct {
		op     Opcode
		name   string
		format Format
		index  IndexKind
	}{
		{0x1b, "const-string/jumbo", Format31c, IndexString},
		{0x24, "filled-new-array", Format35c, IndexType},
		{0x5b, "iput-object", Format22c, IndexField},
		{0x69, "sput-object", Format21c, IndexField},
		{0x78, "invoke-interface/range", Format3rc, IndexMethod},
		{0xd1, "rsub-int", Format22s, IndexNone},
		{0xe2, "ushr-int/lit8", Format22b, IndexNone},
		{0xfa, "invoke-polymorphic", Format45cc, IndexMethodAndProto},
		{0xfd, "invoke-custom/range", Format3rc, IndexCallSite},
		{0xfe, "const-method-handle", Format21c, IndexMethodHandle},
		{0xff, "const-method-type", Format21c, IndexProto},
	} {
		info := c.op.Info()
		if info.Name != c.name || info.Format != c.format || info.Index != c.index {
			t.Errorf("%#02x: %+v, want %s %s %d", c.op, info, c.name, c.format, c.index)
		}
	}
}

func BenchmarkDecodeIterate(b *testing.B) {
	data, err := os.ReadFile("testdata/formats.dex")
	if err != nil {
		b.Fatal(err)
	}
	f, err := Read(data)
	if err != nil {
		b.Fatal(err)
	}
	var codes []*Code
	for _, cd := range f.ClassDefs {
		if cd.Data != nil {
			for _, m := range append(append([]EncodedMethod{}, cd.Data.DirectMethods...), cd.Data.VirtualMethods...) {
				if m.Code != nil {
					codes = append(codes, m.Code)
				}
			}
		}
	}
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		for _, c := range codes {
			for it := NewIterator(c.Insns); it.Next(); {
				n++
			}
		}
	}
	b.ReportMetric(float64(n)/float64(b.N), "insns/op")
}
