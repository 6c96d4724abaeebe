package engine

import (
	"bytes"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/droidprof/droidprof/vm/aot/ssa"
)

// TestExprGenReproduces runs the committed generator and compares what
// it writes with the committed expr_gen.go, so that the generated file
// is never edited by hand nor left behind its generator.
func TestExprGenReproduces(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command to run exprgen.go: %v", err)
	}
	gen, err := filepath.Abs("exprgen.go")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	// exprgen imports only the standard library, so it runs outside the
	// module, writing into dir
	cmd := exec.Command(goBin, "run", gen)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go run exprgen.go: %v\n%s", err, out)
	}
	got, err := os.ReadFile(filepath.Join(dir, "expr_gen.go"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("expr_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("expr_gen.go (%d bytes) is not what exprgen.go writes (%d bytes): run go generate", len(want), len(got))
	}
}

// goCmp is each Select comparison as Go evaluates it on int32s.
var goCmp = []struct {
	op ssa.Op
	f  func(p, q int32) bool
}{
	{ssa.OpEq, func(p, q int32) bool { return p == q }},
	{ssa.OpNe, func(p, q int32) bool { return p != q }},
	{ssa.OpLt, func(p, q int32) bool { return p < q }},
	{ssa.OpGe, func(p, q int32) bool { return p >= q }},
	{ssa.OpGt, func(p, q int32) bool { return p > q }},
	{ssa.OpLe, func(p, q int32) bool { return p <= q }},
}

// selectPairs are comparison operands either side of the sign bit, where
// a signed and an unsigned comparison differ.
var selectPairs = [][2]int32{{-1, 1}, {1, -1}, {5, 5}, {-7, -7}, {math.MinInt32, math.MaxInt32}, {math.MaxInt32, math.MinInt32}, {0, -1}, {3, 4}}

// Slots of the frames below: the comparison's operands at 0 and 1, the
// arms at 2 and 4 (two words for a long), the destination at 6.
const (
	sA, sB, sX, sY, sD = 0, 1, 2, 4, 6
	armX, armY         = 0x1111, 0x2222
	longX, longY       = 0x1111_0000_0000_3333, 0x2222_0000_0000_4444
)

// TestSelectShapes runs each generated Select constructor for each
// comparison on operands where it holds and where it does not: the
// chosen arm's value, and only the chosen tree arm evaluated.
func TestSelectShapes(t *testing.T) {
	frameOf := func(p, q int32) *frame {
		r := make([]uint32, 8)
		r[sA], r[sB] = uint32(p), uint32(q)
		return &frame{r: r}
	}
	slots := func(f *frame, long bool) {
		if long {
			setL(f.r, sX, longX)
			setL(f.r, sY, longY)
			return
		}
		f.r[sX], f.r[sY] = armX, armY
	}
	for _, c := range goCmp {
		for _, pq := range selectPairs {
			tst := intTest{op: c.op, a: sA, b: sB, ok: true}
			holds := c.f(pq[0], pq[1])
			pick := func(x, y uint64) uint64 {
				if holds {
					return x
				}
				return y
			}
			// ran counts the tree arms' evaluations: x adds 1, y 16
			var ran int
			treeX := func(*frame) uint32 { ran++; return armX }
			treeY := func(*frame) uint32 { ran += 16; return armY }
			longTX := func(*frame) uint64 { ran++; return longX }
			longTY := func(*frame) uint64 { ran += 16; return longY }
			wantRan := int(pick(1, 16))
			cases := []struct {
				shape string
				run   func(f *frame) uint64
				want  uint64
				ran   int // the tree arms' evaluations it makes
			}{
				{"selectSlots", func(f *frame) uint64 { return uint64(selectSlots(tst, sX, sY)(f)) }, pick(armX, armY), 0},
				{"selectSlotsStore", func(f *frame) uint64 {
					if !selectSlotsStore(tst, sD, sX, sY)(f) {
						t.Error("selectSlotsStore's instruction returned false")
					}
					return uint64(f.r[sD])
				}, pick(armX, armY), 0},
				{"selectBy/uint64", func(f *frame) uint64 { return selectBy(tst, longTX, longTY)(f) }, pick(longX, longY), wantRan},
				{"selectBy/float32", func(f *frame) uint64 {
					fx := func(*frame) float32 { ran++; return 1.5 }
					fy := func(*frame) float32 { ran += 16; return -2.5 }
					return uint64(math.Float32bits(selectBy(tst, fx, fy)(f)))
				}, pick(uint64(math.Float32bits(1.5)), uint64(math.Float32bits(-2.5))), wantRan},
				{"selectArms/trees", func(f *frame) uint64 { return uint64(selectArms(tst, intArm{t: treeX}, intArm{t: treeY})(f)) }, pick(armX, armY), wantRan},
				{"selectArms/slots", func(f *frame) uint64 { return uint64(selectArms(tst, intArm{s: sX}, intArm{s: sY})(f)) }, pick(armX, armY), 0},
				{"selectArmsStore/trees", func(f *frame) uint64 {
					selectArmsStore(tst, sD, intArm{t: treeX}, intArm{t: treeY})(f)
					return uint64(f.r[sD])
				}, pick(armX, armY), wantRan},
				{"selectArmsStore/tree and slot", func(f *frame) uint64 {
					selectArmsStore(tst, sD, intArm{t: treeX}, intArm{s: sY})(f)
					return uint64(f.r[sD])
				}, pick(armX, armY), int(pick(1, 0))},
				{"selectArms/slot and comparison", func(f *frame) uint64 {
					y := cmpArm(intOpnd{kind: compoundCmp[ssa.OpGe], s: sA, s2: sB})
					return uint64(selectArms(tst, intArm{s: sX}, y)(f))
				}, pick(armX, uint64(bit(pq[0] >= pq[1]))), 0},
				{"selectArmsMove/slots", func(f *frame) uint64 {
					selectArmsMove(tst, sD, intArm{s: sX}, intArm{s: sY})(f)
					return uint64(f.r[sD])
				}, pick(armX, armY), 0},
				{"selectArmsMove/comparisons", func(f *frame) uint64 {
					// x: r[A] < r[B] as 0 or 1, y: r[A] == r[B]
					x := cmpArm(intOpnd{kind: compoundCmp[ssa.OpLt], s: sA, s2: sB})
					y := cmpArm(intOpnd{kind: compoundCmp[ssa.OpEq], s: sA, s2: sB})
					selectArmsMove(tst, sD, x, y)(f)
					return uint64(f.r[sD])
				}, uint64(bit(pq[0] < pq[1])*bit(holds) + bit(pq[0] == pq[1])*bit(!holds)), 0},
				{"selectLongStore/trees", func(f *frame) uint64 {
					selectLongStore(tst, sD, longArm{t: longTX}, longArm{t: longTY})(f)
					return getL(f.r, sD)
				}, pick(longX, longY), wantRan},
				{"selectLongStore/slots", func(f *frame) uint64 {
					selectLongStore(tst, sD, longArm{s: sX}, longArm{s: sY})(f)
					return getL(f.r, sD)
				}, pick(longX, longY), 0},
			}
			for _, k := range cases {
				f := frameOf(pq[0], pq[1])
				slots(f, k.shape == "selectLongStore/slots")
				ran = 0
				if got := k.run(f); got != k.want {
					t.Errorf("%s %v (%d, %d): %#x, want %#x", k.shape, c.op, pq[0], pq[1], got, k.want)
				}
				if ran != k.ran {
					t.Errorf("%s %v (%d, %d): tree arms evaluated %#x, want %#x (1 for x, 16 for y)", k.shape, c.op, pq[0], pq[1], ran, k.ran)
				}
			}
		}
	}
}
