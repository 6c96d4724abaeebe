package aot_test

import (
	"encoding/binary"
	"strings"
	"testing"

	"github.com/droidprof/droidprof/vm/aot"
	"github.com/droidprof/droidprof/vm/aot/frontend"
	"github.com/droidprof/droidprof/vm/aot/ssa"
	"github.com/droidprof/droidprof/vm/dex"
	"github.com/droidprof/droidprof/vm/smali"
	"github.com/droidprof/droidprof/vm/smali/ast"
)

const fuzzBase = `.class public LT;
.super Ljava/lang/Object;
.field public i:I
.field public w:J
.method public static m(IJLjava/lang/Object;)V
    .registers 8
    const/4 v0, 0
    new-array v1, p0, [I
    fill-array-data v1, :arr
    iget v2, p3, LT;->i:I
    iget-wide v2, p3, LT;->w:J
  :s
    invoke-static {p0, p1, p2, p3}, LT;->m(IJLjava/lang/Object;)V
  :e
    .catch Ljava/lang/Exception; {:s .. :e} :h
    packed-switch p0, :sw
    sparse-switch p0, :sp
    aget v0, v1, p0
    add-long/2addr p1, p1
    if-lt v0, p0, :s
    return-void
  :h
    move-exception v0
    throw v0
  :arr
    .array-data 4
        1 2
    .end array-data
  :sw
    .packed-switch 1
        :s
    .end packed-switch
  :sp
    .sparse-switch
        3 -> :e
    .end sparse-switch
.end method
`

// FuzzCompile feeds arbitrary code units, register counts and try
// ranges to the compiler in place of a method's code: it may fall back,
// never panic, and what it compiles passes the IR checker after every
// pass.
func FuzzCompile(f *testing.F) {
	c, err := smali.Parse("T.smali", []byte(fuzzBase), &smali.Options{API: 28})
	if err != nil {
		f.Fatal(err)
	}
	data, err := smali.Assemble([]*ast.Class{c}, &smali.AssembleOptions{API: 28})
	if err != nil {
		f.Fatal(err)
	}
	base := readDEX(f, data)
	em := base.ClassDefs[0].Data.DirectMethods[0]
	code := em.Code
	seed := func(insns []uint16) []byte {
		b := make([]byte, 2*len(insns))
		for i, u := range insns {
			binary.LittleEndian.PutUint16(b[2*i:], u)
		}
		return b
	}
	f.Add(uint8(8), uint8(5), true, seed(code.Insns))
	f.Add(uint8(3), uint8(0), false, []byte{0x12, 0x00, 0x0e, 0x00})
	f.Add(uint8(2), uint8(0), false, []byte{0x18, 0x00, 1, 0, 0, 0, 0, 0, 0, 0, 0x10, 0x00})
	f.Fuzz(func(t *testing.T, regs, ins uint8, tries bool, units []byte) {
		if len(units) < 2 {
			return
		}
		insns := make([]uint16, len(units)/2)
		for i := range insns {
			insns[i] = binary.LittleEndian.Uint16(units[2*i:])
		}
		c := *code
		c.Insns, c.Registers, c.Ins = insns, uint16(regs), uint16(ins)
		c.Tries, c.Handlers = nil, nil
		if tries && len(insns) > 4 {
			c.Tries = []dex.Try{{Start: uint32(insns[0]) % uint32(len(insns)), Count: insns[1] % 8, Handler: 0}}
			c.Handlers = []dex.CatchHandler{{HasCatchAll: true, CatchAll: uint32(insns[2]) % uint32(len(insns))}}
		}
		m := frontend.Method{File: base, Method: em.Method, Access: em.Access, Code: &c}
		_, err := aot.CompileMethod(m, ssa.Config{Check: true})
		if err != nil && (strings.Contains(err.Error(), "internal") || strings.Contains(err.Error(), "ssa check")) {
			t.Fatalf("the compiler broke its IR: %v", err)
		}
	})
}
