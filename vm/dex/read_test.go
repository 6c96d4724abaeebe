package dex

import (
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/adler32"
	"os"
	"strings"
	"testing"
)

// testdata/formats.dex and invoke.dex are assembled by the real smali from
// testdata/smali (see testdata/README.md).
func readTestdata(t *testing.T, name string) ([]byte, *File) {
	t.Helper()
	data, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	f, err := Read(data)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return data, f
}

// fix recomputes the signature and checksum after a patch.
func fix(b []byte) []byte {
	sig := sha1.Sum(b[32:])
	copy(b[12:32], sig[:])
	binary.LittleEndian.PutUint32(b[8:], adler32.Checksum(b[12:]))
	return b
}

func methodByName(t *testing.T, f *File, class, name string) EncodedMethod {
	t.Helper()
	for _, cd := range f.ClassDefs {
		if f.TypeName(cd.Class) != class || cd.Data == nil {
			continue
		}
		for _, m := range append(append([]EncodedMethod{}, cd.Data.DirectMethods...), cd.Data.VirtualMethods...) {
			if f.Strings[f.Methods[m.Method].Name] == name {
				return m
			}
		}
	}
	t.Fatalf("no method %s.%s", class, name)
	return EncodedMethod{}
}

func classByName(t *testing.T, f *File, class string) *ClassDef {
	t.Helper()
	for i := range f.ClassDefs {
		if f.TypeName(f.ClassDefs[i].Class) == class {
			return &f.ClassDefs[i]
		}
	}
	t.Fatalf("no class %s", class)
	return nil
}

// TestMalformed checks that each kind of damage gives a FormatError naming
// the item and the file offset of the problem.
func TestMalformed(t *testing.T) {
	orig, f := readTestdata(t, "formats.dex")
	formats := classByName(t, f, "LFormats;")
	run := methodByName(t, f, "LFormats;", "run").Code
	big := methodByName(t, f, "LFormats;", "formats").Code
	triesOff := big.InsnsOff() + 2*uint32(len(big.Insns))
	if len(big.Insns)%2 == 1 {
		triesOff += 2
	}
	str79 := binary.LittleEndian.Uint32(orig[0x70+4*79:])
	size := uint32(len(orig))
	put32 := func(off int, v uint32) func([]byte) []byte {
		return func(b []byte) []byte { binary.LittleEndian.PutUint32(b[off:], v); return b }
	}
	put16 := func(off int, v uint16) func([]byte) []byte {
		return func(b []byte) []byte { binary.LittleEndian.PutUint16(b[off:], v); return b }
	}
	for _, c := range []struct {
		name   string
		mutate func([]byte) []byte
		fix    bool // recompute checksum and signature
		want   string
		off    int64
	}{
		{"short", func(b []byte) []byte { return b[:0x40] }, false, "shorter than the 112-byte header", 0},
		{"magic", func(b []byte) []byte { b[1] = 'x'; return b }, false, "bad magic", 0},
		{"version", func(b []byte) []byte { b[6] = '1'; return b }, false, "unsupported DEX version 031", 4},
		{"truncated", func(b []byte) []byte { return b[:len(b)-4] }, false, "file_size 0xe88 does not match the data size 0xe84", 32},
		{"checksum", func(b []byte) []byte { b[len(b)-1] ^= 1; return b }, false, "checksum mismatch: header has", 8},
		{"signature", func(b []byte) []byte {
			b[len(b)-1] ^= 1
			binary.LittleEndian.PutUint32(b[8:], adler32.Checksum(b[12:]))
			return b
		}, false, "signature mismatch: header has", 12},
		{"endian", put32(40, 0x78563412), true, "endian_tag 0x78563412", 40},
		{"string_ids size", put32(56, 0x10000000), true, "268435456 entries of 4 bytes at 0x70 do not fit", 0x70},
		{"string_data_off", put32(0x74, 0x99999), true, "string_ids[1] at 0x74: string_data_off 0x99999 beyond file size 0xe88", 0x74},
		{"mutf8", func(b []byte) []byte { b[str79+1] = 0xff; return b }, true, "string_ids[79] string_data_item at 0x" + hex(str79) + ": illegal MUTF-8 lead byte 0xff at string byte 0", int64(str79)},
		{"utf16 size", func(b []byte) []byte { b[str79]--; return b }, true, "string has 26 UTF-16 code units, header says 25", int64(str79)},
		{"type descriptor", put32(0x1c0+12, 0xffff), true, "type_ids[3] at 0x1cc: descriptor_idx 65535 out of range (84 strings)", 0x1cc},
		{"proto params", put32(0x22c+8, size+4), true, "proto_ids[0] type_list at 0xe8c: offset 0xe8c beyond file size 0xe88", int64(size + 4)},
		{"method class", put16(0x318, 0x7000), true, "method_ids[0] at 0x318: class_idx 28672 out of range", 0x318},
		{"map_off", put32(52, size), true, "map_list at 0xe88: map_off 0xe88 beyond file size", int64(size)},
		{"class_data_off", put32(0x398+2*32+24, size+0x100), true, "class_defs[2] (LFormats;) class_data_item at 0xf88: class_data_off 0xf88 beyond file size", int64(size + 0x100)},
		{"duplicate class", put32(0x398+32, f.ClassDefs[0].Class), true, "class_defs[1] (LEmpty;) at 0x3b8: class already defined by class_defs[0]", 0x3b8},
		{"shared class data", put32(0x398+2*32+24, f.ClassDefs[1].ClassDataOff), true, "is already used by another class", int64(f.ClassDefs[1].ClassDataOff)},
		{"uleb", func(b []byte) []byte { copy(b[formats.ClassDataOff:], []byte{0xff, 0xff, 0xff, 0xff, 0xff}); return b }, true, "static_fields_size: uleb128 longer than 5 bytes", int64(formats.ClassDataOff + 4)},
		{"insns_size", put32(int(run.Off+12), 0x7fffffff), true, "code_item of LFormats;.run:()V at " + "0x" + hex(run.Off+12) + ": insns_size 2147483647 code units runs past the end", int64(run.Off + 12)},
		{"ins_size", put16(int(run.Off+2), 9), true, "ins_size 9 exceeds registers_size 1", int64(run.Off + 2)},
		{"handler_off", put16(int(triesOff+6), 0x777), true, "try_item[0]: handler_off 0x777 is not the start of a handler", int64(triesOff + 6)},
		{"try range", put16(int(triesOff+4), 0xffff), true, "try_item[0] covers", int64(triesOff)},
		{"debug_info_off", put32(int(big.Off+8), size+8), true, "debug_info_item at 0xe90: debug_info_off 0xe90 beyond file size", int64(size + 8)},
		{"value arg", func(b []byte) []byte { b[formats.StaticValuesOff+1] = 0xff; return b }, true, "encoded_value of type boolean has value_arg 7, at most 1 allowed", int64(formats.StaticValuesOff + 1)},
		{"value type", func(b []byte) []byte { b[formats.StaticValuesOff+1] = 0x05; return b }, true, "unknown encoded_value type 0x05", int64(formats.StaticValuesOff + 1)},
		{"value index", func(b []byte) []byte {
			b[formats.StaticValuesOff+1] = 0x17 | 1<<5
			b[formats.StaticValuesOff+2] = 0xff
			b[formats.StaticValuesOff+3] = 0xff
			return b
		}, true, "encoded_value of type string: index 65535 out of range (84 strings)", int64(formats.StaticValuesOff + 1)},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := c.mutate(bytes.Clone(orig))
			if c.fix {
				fix(b)
			}
			_, err := Read(b)
			var fe *FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("got %v, want a FormatError", err)
			}
			if !strings.Contains(err.Error(), c.want) || fe.Offset != c.off {
				t.Errorf("got %q (offset %#x)\nwant %q at offset %#x", err, fe.Offset, c.want, c.off)
			}
		})
	}
}

func hex(v uint32) string { return fmt.Sprintf("%x", v) }

// TestEveryByteDamaged flips each byte of a valid file in turn: reading must
// never panic, and must either fail with a FormatError or succeed.
func TestEveryByteDamaged(t *testing.T) {
	for _, name := range []string{"formats.dex", "invoke.dex"} {
		orig, _ := readTestdata(t, name)
		for i := range orig {
			for _, x := range []byte{0xff, 0x80, 0x01} {
				b := bytes.Clone(orig)
				b[i] ^= x
				f, err := ReadWithOptions(b, Options{SkipChecksum: true, SkipSignature: true})
				if err != nil {
					var fe *FormatError
					if !errors.As(err, &fe) {
						t.Fatalf("%s byte %#x ^ %#x: %v is not a FormatError", name, i, x, err)
					}
					continue
				}
				for _, cd := range f.ClassDefs {
					if cd.Data == nil {
						continue
					}
					for _, m := range append(append([]EncodedMethod{}, cd.Data.DirectMethods...), cd.Data.VirtualMethods...) {
						if m.Code != nil {
							it := m.Code.Iterator()
							for it.Next() {
							}
							f.Locals(m)
						}
					}
				}
			}
		}
	}
}
