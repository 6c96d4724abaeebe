package opcode

import "testing"

func TestTable(t *testing.T) {
	seen := map[uint8]string{}
	assemblable := 0
	for _, i := range All() {
		if Lookup(i.Name) != i {
			t.Errorf("Lookup(%q) is not the table entry", i.Name)
		}
		if i.Format.Units() == 0 {
			t.Errorf("%s: format %v has no size", i.Name, i.Format)
		}
		if i.Odex {
			continue
		}
		assemblable++
		if prev, dup := seen[i.Opcode]; dup {
			t.Errorf("opcode %#02x is both %s and %s", i.Opcode, prev, i.Name)
		}
		seen[i.Opcode] = i.Name
	}
	// 256 opcodes minus the unused 3e-43, 73, 79-7a and e3-f9.
	if assemblable != 224 {
		t.Errorf("%d assemblable mnemonics, want 224", assemblable)
	}
	for op := 0; op < 256; op++ {
		unused := (op >= 0x3e && op <= 0x43) || op == 0x73 || op == 0x79 || op == 0x7a || (op >= 0xe3 && op <= 0xf9)
		if _, ok := seen[uint8(op)]; ok == unused {
			t.Errorf("opcode %#02x: defined=%v, unused=%v", op, ok, unused)
		}
	}
}

func TestShapes(t *testing.T) {
	tests := []struct {
		name     string
		op       uint8
		format   Format
		operands []Operand
		minAPI   int
	}{
		{"nop", 0x00, Format10x, nil, 1},
		{"move/from16", 0x02, Format22x, []Operand{RegByte, RegShort}, 1},
		{"const/4", 0x12, Format11n, []Operand{RegNibble, LitNibble}, 1},
		{"const/high16", 0x15, Format21h, []Operand{RegByte, LitHigh16}, 1},
		{"const-wide/high16", 0x19, Format21h, []Operand{RegByte, LitWideHigh16}, 1},
		{"const-string/jumbo", 0x1b, Format31c, []Operand{RegByte, StringRef}, 1},
		{"filled-new-array/range", 0x25, Format3rc, []Operand{RegRange, TypeRef}, 1},
		{"if-lez", 0x3d, Format21t, []Operand{RegByte, Label}, 1},
		{"sput-short", 0x6d, Format21c, []Operand{RegByte, FieldRef}, 1},
		{"invoke-interface/range", 0x78, Format3rc, []Operand{RegRange, MethodRef}, 1},
		{"int-to-short", 0x8f, Format12x, []Operand{RegNibble, RegNibble}, 1},
		{"rem-double", 0xaf, Format23x, []Operand{RegByte, RegByte, RegByte}, 1},
		{"rem-double/2addr", 0xcf, Format12x, []Operand{RegNibble, RegNibble}, 1},
		{"rsub-int", 0xd1, Format22s, []Operand{RegNibble, RegNibble, LitShort}, 1},
		{"ushr-int/lit8", 0xe2, Format22b, []Operand{RegByte, RegByte, LitByte}, 1},
		{"invoke-polymorphic", 0xfa, Format45cc, []Operand{RegList, MethodRef, ProtoRef}, 26},
		{"invoke-custom/range", 0xfd, Format3rc, []Operand{RegRange, CallSiteRef}, 26},
		{"const-method-type", 0xff, Format21c, []Operand{RegByte, ProtoRef}, 28},
	}
	for _, tt := range tests {
		i := Lookup(tt.name)
		if i == nil {
			t.Errorf("%s: missing", tt.name)
			continue
		}
		if i.Opcode != tt.op || i.Format != tt.format || i.MinAPI != tt.minAPI || len(i.Operands) != len(tt.operands) {
			t.Errorf("%s: got %#02x %v %v API %d", tt.name, i.Opcode, i.Format, i.Operands, i.MinAPI)
			continue
		}
		for k := range tt.operands {
			if i.Operands[k] != tt.operands[k] {
				t.Errorf("%s: operand %d is %v, want %v", tt.name, k, i.Operands[k], tt.operands[k])
			}
		}
	}
	if Lookup("move-result-objects") != nil || Lookup(".array-data") != nil {
		t.Error("Lookup found a non-mnemonic")
	}
	if !Lookup("iget-quick").Odex {
		t.Error("iget-quick is odex-only")
	}
}
