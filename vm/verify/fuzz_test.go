package verify_test

import (
	"encoding/binary"
	"testing"

	"github.com/droidprof/droidprof/vm/core"
	"github.com/droidprof/droidprof/vm/dex"
	"github.com/droidprof/droidprof/vm/verify"
)

// FuzzVerify runs the verifier on arbitrary code units (and register
// counts) in place of a method's code: it may reject them, never panic.
// The DEX around the method supplies strings, types, fields, methods and
// payload-shaped seeds.
func FuzzVerify(f *testing.F) {
	src := static("(IJLjava/lang/Object;)V", 8, `
    const/4 v0, 0
    new-array v1, p0, [I
    fill-array-data v1, :arr
    iget v2, p3, LT;->i:I
    invoke-static {p0, p1, p2, p3}, LT;->m(IJLjava/lang/Object;)V
    packed-switch p0, :sw
    sparse-switch p0, :sp
    return-void
  :arr
    .array-data 4
        1 2
    .end array-data
  :sw
    .packed-switch 1
        :arr
    .end packed-switch
  :sp
    .sparse-switch
        3 -> :arr
    .end sparse-switch`)
	seed := func(insns []uint16) []byte {
		b := make([]byte, 2*len(insns))
		for i, u := range insns {
			binary.LittleEndian.PutUint16(b[2*i:], u)
		}
		return b
	}
	base := assemble(f, src)
	boot := readDEX(f, core.DEX())
	h := verify.NewFiles(boot, base)
	code := base.ClassDefs[0].Data.DirectMethods[0].Code
	f.Add(uint8(8), seed(code.Insns))
	f.Add(uint8(3), []byte{0x12, 0x00, 0x0e, 0x00})
	f.Fuzz(func(t *testing.T, regs uint8, units []byte) {
		if len(units) < 2 {
			return
		}
		insns := make([]uint16, len(units)/2)
		for i := range insns {
			insns[i] = binary.LittleEndian.Uint16(units[2*i:])
		}
		c := *code
		c.Insns = insns
		c.Registers = uint16(regs)
		c.Tries, c.Handlers = nil, nil
		if len(insns) > 4 {
			c.Tries = []dex.Try{{Start: uint32(insns[0]) % uint32(len(insns)), Count: insns[1] % 8, Handler: 0}}
			c.Handlers = []dex.CatchHandler{{HasCatchAll: true, CatchAll: uint32(insns[2]) % uint32(len(insns))}}
		}
		def := base.ClassDefs[0]
		data := *def.Data
		data.DirectMethods = append([]dex.EncodedMethod(nil), data.DirectMethods...)
		data.DirectMethods[0].Code = &c
		def.Data = &data
		_ = verify.Class(base, &def, h)
	})
}
