package dex

import (
	"slices"
	"testing"
)

func TestSpecialOp(t *testing.T) {
	for _, c := range []struct {
		addr uint32
		line int32
		op   uint8
		ok   bool
	}{
		{0, -4, 0x0a, true},
		{0, 10, 0x18, true},
		{0, 11, 0, false},
		{1, 1, 0x1e, true},
		{16, 1, 0xff, true},
		{16, 2, 0, false},
		{17, -4, 0, false},
	} {
		op, ok := SpecialOp(c.addr, c.line)
		if op != c.op || ok != c.ok {
			t.Errorf("SpecialOp(%d, %d) = %#x, %v; want %#x, %v", c.addr, c.line, op, ok, c.op, c.ok)
		}
	}
}

// TestLocals runs the state machine on a hand-made method: an instance
// method (int, long) with registers v0..v4 (this = v1, params v2, v3-v4).
func TestLocals(t *testing.T) {
	f := &File{
		Strings: []string{"LC;", "I", "J", "m", "x", "y", "z", "sig"},
		Types:   []uint32{0, 1, 2},
		Protos:  []Proto{{Return: 1, Params: []uint32{1, 2}}},
		Methods: []MethodRef{{Class: 0, Proto: 0, Name: 3}},
	}
	sp := func(addr uint32, line int32) DebugOp {
		op, _ := SpecialOp(addr, line)
		return DebugOp{Op: op, Reg: NoIndex, Name: NoIndex, Type: NoIndex, Sig: NoIndex}
	}
	d := &DebugInfo{LineStart: 7, ParamNames: []uint32{4, NoIndex}, Ops: []DebugOp{
		{Op: DbgSetPrologueEnd},
		sp(0, 0),
		{Op: DbgStartLocal, Reg: 0, Name: 5, Type: 1, Sig: NoIndex},
		sp(2, 1),
		{Op: DbgEndLocal, Reg: 0},
		{Op: DbgAdvancePC, Value: 3},
		{Op: DbgAdvanceLine, Value: -3},
		{Op: DbgRestartLocal, Reg: 0},
		{Op: DbgStartLocalExtended, Reg: 2, Name: 6, Type: NoIndex, Sig: 7},
		sp(1, 2),
		{Op: DbgEndLocal, Reg: 4}, // not live: ignored
		{Op: DbgRestartLocal, Reg: 4},
	}}
	m := EncodedMethod{Method: 0, Code: &Code{Registers: 5, Ins: 4, Insns: make([]uint16, 10), Debug: d}}
	pos := d.Positions()
	if want := []Position{{Addr: 0, Line: 7, File: NoIndex, PrologueEnd: true}, {Addr: 2, Line: 8, File: NoIndex}, {Addr: 6, Line: 7, File: NoIndex}}; !slices.Equal(pos, want) {
		t.Errorf("positions %+v, want %+v", pos, want)
	}
	want := []Local{
		{Reg: 0, Start: 0, End: 2, Name: 5, Type: 1, Sig: NoIndex},
		{Reg: 2, Start: 0, End: 5, Name: 4, Type: 1, Sig: NoIndex},
		{Reg: 0, Start: 5, End: 10, Name: 5, Type: 1, Sig: NoIndex},
		{Reg: 1, Start: 0, End: 10, This: true, Name: NoIndex, Type: 0, Sig: NoIndex},
		{Reg: 2, Start: 5, End: 10, Name: 6, Type: NoIndex, Sig: 7},
		{Reg: 3, Start: 0, End: 10, Name: NoIndex, Type: 2, Sig: NoIndex},
		{Reg: 0, Start: 6, End: 10, Name: NoIndex, Type: NoIndex, Sig: NoIndex}, // ART: a restarted, never started register reports reg 0
	}
	if got := f.Locals(m); !slices.Equal(got, want) {
		t.Errorf("locals\n got %+v\nwant %+v", got, want)
	}
	// Debug info naming the wrong number of parameters gives no locals,
	// as in ART.
	d.ParamNames = d.ParamNames[:1]
	if got := f.Locals(m); got != nil {
		t.Errorf("parameter count mismatch: %+v", got)
	}
}
