package aot_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/droidprof/droidprof/vm/aot"
	"github.com/droidprof/droidprof/vm/aot/ssa"
	"github.com/droidprof/droidprof/workloads"
)

// TestCompileCorpusInlined compiles core.dex and every workload DEX with
// both inliners and the IR checked after each pass: no more fallbacks
// than without inlining, and every guard names a reference and a
// method of the file.
func TestCompileCorpusInlined(t *testing.T) {
	for name, data := range corpus(t) {
		t.Run(name, func(t *testing.T) {
			f := readDEX(t, data)
			plain := aot.Compile(f, aot.Options{Passes: ssa.Config{Check: true}})
			r := aot.Compile(f, aot.Options{Passes: ssa.Config{Check: true}, Inline: true})
			if len(r.Fallbacks) > len(plain.Fallbacks) {
				t.Errorf("%d fallbacks with inlining, %d without", len(r.Fallbacks), len(plain.Fallbacks))
				for _, fb := range r.Fallbacks {
					t.Logf("  %s: %v", fb.Name, fb.Reason)
				}
			}
			guards := 0
			for _, m := range r.Methods {
				for _, b := range m.Func.Blocks {
					for _, v := range b.Values {
						if v.Op != ssa.OpTargetIs {
							continue
						}
						guards++
						for _, aux := range slices.Concat(ssa.TargetIsVariants(v)...) {
							ref, want, _, _ := ssa.TargetIsFields(aux)
							if int(ref) >= len(f.Methods) || int(want) >= len(f.Methods) || f.Methods[ref].Name != f.Methods[want].Name {
								t.Errorf("%s: guard %v names reference %d and method %d", m.Name, v.LongString(), ref, want)
							}
						}
					}
				}
			}
			t.Logf("%d methods, %d guards", len(r.Methods), guards)
		})
	}
}

// TestVirtualInlinerCaffeineMethod checks the variants of caffeine-method's
// loop: per shape, twice with that shape's area inlined (two guards); per
// op, its apply (one guard); and that SameClassInliner offers nothing for
// a virtual call (an invoke-virtual of a private method dispatches by
// name on the receiver's class).
func TestVirtualInlinerCaffeineMethod(t *testing.T) {
	b, err := workloads.Workload{Name: "caffeine-method", DEX: "caffeine-method.dex"}.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	f := readDEX(t, b)
	r := aot.Compile(f, aot.Options{Inline: true, Filter: func(n string) bool { return strings.Contains(n, ".round:") }})
	if len(r.Methods) != 1 {
		t.Fatalf("%d methods named round compiled, want 1 (fallbacks %v)", len(r.Methods), r.Fallbacks)
	}
	var got []string
	for _, blk := range r.Methods[0].Func.Blocks {
		for _, v := range blk.Values {
			if v.Op == ssa.OpTargetIs {
				for _, aux := range slices.Concat(ssa.TargetIsVariants(v)...) {
					ref, want, _, _ := ssa.TargetIsFields(aux)
					got = append(got, f.MethodName(ref)+" -> "+f.MethodName(want))
				}
			}
		}
	}
	slices.Sort(got)
	got = slices.Compact(got)
	want := []string{
		"Lcaffeine/MethodTest$Op;.apply:(II)I -> Lcaffeine/MethodTest$Add;.apply:(II)I",
		"Lcaffeine/MethodTest$Op;.apply:(II)I -> Lcaffeine/MethodTest$Mix;.apply:(II)I",
		"Lcaffeine/MethodTest$Shape;.area:(I)I -> Lcaffeine/MethodTest$Square;.area:(I)I",
		"Lcaffeine/MethodTest$Shape;.area:(I)I -> Lcaffeine/MethodTest$Tri;.area:(I)I",
		"Lcaffeine/MethodTest$Shape;.twice:(I)I -> Lcaffeine/MethodTest$Shape;.twice:(I)I",
	}
	if !slices.Equal(got, want) {
		t.Errorf("guards of round:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// SameClassInliner: a private method of round's class, named by an
	// invoke-virtual, is not offered; by an invoke-direct it is
	var bump, round uint32
	for i := range f.Methods {
		switch f.MethodName(uint32(i)) {
		case "Lcaffeine/MethodTest;.bump:(I)I":
			bump = uint32(i)
		case "Lcaffeine/MethodTest;.round:(I)J":
			round = uint32(i)
		}
	}
	inl := aot.SameClassInliner(f, round, ssa.Config{})
	for _, c := range []struct {
		op   ssa.Op
		want bool
	}{{ssa.OpInvokeDirect, true}, {ssa.OpInvokeVirtual, false}, {ssa.OpInvokeInterface, false}} {
		call := &ssa.Value{Op: c.op, Type: ssa.TypeInt, Aux: int64(bump)}
		if got := inl(call) != nil; got != c.want {
			t.Errorf("SameClassInliner offers bump for %s: %v, want %v", c.op, got, c.want)
		}
	}
}
