package opcode

import (
	"testing"

	"github.com/droidprof/droidprof/vm/dex"
)

// TestAgreesWithDexOpcodeTable cross-checks this table (written from the
// smali language) against vm/dex's (written from the instruction formats):
// every real mnemonic must name the same opcode with the same format and
// size. The lowering to DEX relies on the two agreeing.
func TestAgreesWithDexOpcodeTable(t *testing.T) {
	seen := map[uint8]string{}
	for _, info := range All() {
		if info.Odex || info.Ident != 0 {
			continue
		}
		op := dex.Opcode(info.Opcode)
		if op.String() != info.Name {
			t.Errorf("%s: opcode %#02x is %q in vm/dex", info.Name, info.Opcode, op)
		}
		if op.Format().String() != info.Format.String() || op.Format().Size() != info.Format.Units() {
			t.Errorf("%s: format %s (%d units) here, %s (%d units) in vm/dex", info.Name, info.Format, info.Format.Units(), op.Format(), op.Format().Size())
		}
		if prev, dup := seen[info.Opcode]; dup {
			t.Errorf("%s and %s share opcode %#02x", prev, info.Name, info.Opcode)
		}
		seen[info.Opcode] = info.Name
	}
	if len(seen) < 200 {
		t.Errorf("only %d real mnemonics checked", len(seen))
	}
}
