package ssa

import "testing"

func TestInsertBarriers(t *testing.T) {
	testPass(t, "barriers", []passCase{
		{"field get and put, before their null checks", `
func f
b0:
  v0 = Param <ref> [0]
  v1 = Param <ref> [1]
  v2 = NullCheck <void> v0
  v3 = IGet <int> v0 [3]
  v4 = IPut <void> v1 v3 [4]
  Return`, `
func f
b0:
  v0 = Param <ref> [0]
  v1 = Param <ref> [1]
  v5 = Barrier <void> v0
  v2 = NullCheck <void> v0
  v3 = IGet <int> v0 [3]
  v6 = Barrier <void> v1
  v4 = IPut <void> v1 v3 [4]
  Return`},
		{"an element access keeps its checks next to it; an implicit length has no barrier of its own", `
func f
b0:
  v0 = Param <ref> [0]
  v1 = Param <int> [1]
  v2 = NullCheck <void> v0
  v3 = ArrayLength <int> v0
  v4 = BoundsCheck <void> v1 v3
  v5 = AGet <int> v0 v1
  v6 = BoundsCheck <void> v5 v3
  v7 = APut <void> v0 v5 v1
  Return v5`, `
func f
b0:
  v0 = Param <ref> [0]
  v1 = Param <int> [1]
  v8 = Barrier <void> v0
  v2 = NullCheck <void> v0
  v3 = ArrayLength <int> v0
  v4 = BoundsCheck <void> v1 v3
  v5 = AGet <int> v0 v1
  v9 = Barrier <void> v0
  v6 = BoundsCheck <void> v5 v3
  v7 = APut <void> v0 v5 v1
  Return v5`},
		{"array-length used as data is an access", `
func f
b0:
  v0 = Param <ref> [0]
  v1 = NullCheck <void> v0
  v2 = ArrayLength <int> v0
  Return v2`, `
func f
b0:
  v0 = Param <ref> [0]
  v3 = Barrier <void> v0
  v1 = NullCheck <void> v0
  v2 = ArrayLength <int> v0
  Return v2`},
		{"instance invoke receivers and monitor-enter; not static invokes or monitor-exit", `
func f
b0:
  v0 = Param <ref> [0]
  v1 = Param <ref> [1]
  v2 = NullCheck <void> v0
  v3 = InvokeVirtual <void> v0 v1 [7]
  v4 = InvokeStatic <void> v1 [8]
  v5 = NullCheck <void> v1
  v6 = MonitorEnter <void> v1
  v7 = MonitorExit <void> v1
  v8 = FillArrayData <void> v0 [20]
  Return`, `
func f
b0:
  v0 = Param <ref> [0]
  v1 = Param <ref> [1]
  v9 = Barrier <void> v0
  v2 = NullCheck <void> v0
  v3 = InvokeVirtual <void> v0 v1 [7]
  v4 = InvokeStatic <void> v1 [8]
  v10 = Barrier <void> v1
  v5 = NullCheck <void> v1
  v6 = MonitorEnter <void> v1
  v7 = MonitorExit <void> v1
  v11 = Barrier <void> v0
  v8 = FillArrayData <void> v0 [20]
  Return`},
		{"a reference comparison barriers both operands at the end of its block", `
func f
b0:
  v0 = Param <ref> [0]
  v1 = Param <ref> [1]
  v2 = Eq <bool> v0 v1
  If v2 -> b1 b2
b1: <- b0
  v3 = Const <ref> [0]
  v4 = Ne <bool> v0 v3
  If v4 -> b2 b3
b2: <- b0 b1
  Return
b3: <- b1
  v5 = Const <int> [3]
  v6 = Param <int> [2]
  v7 = Eq <bool> v5 v6
  If v7 -> b4 b4
b4: <- b3 b3
  Return`, `
func f
b0:
  v0 = Param <ref> [0]
  v1 = Param <ref> [1]
  v2 = Eq <bool> v0 v1
  v8 = Barrier <void> v0
  v9 = Barrier <void> v1
  If v2 -> b1 b2
b1: <- b0
  v3 = Const <ref> [0]
  v4 = Ne <bool> v0 v3
  If v4 -> b2 b3
b2: <- b0 b1
  Return
b3: <- b1
  v5 = Const <int> [3]
  v6 = Param <int> [2]
  v7 = Eq <bool> v5 v6
  If v7 -> b4 b4
b4: <- b3 b3
  Return`},
	})
}

func TestInsertBarriersCached(t *testing.T) {
	f, err := Parse(`
func f
b0:
  v0 = Param <ref> [0]
  v1 = IGet <int> v0 [3]
  Return v1`)
	if err != nil {
		t.Fatal(err)
	}
	insertBarriers(f, BarrierCached, true)
	want := normalise(`
func f
b0:
  v0 = Param <ref> [0]
  v2 = Barrier <void> v0 [1]
  v1 = IGet <int> v0 [3]
  Return v1`)
	if got := normalise(f.String()); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestBarrierPipeline(t *testing.T) {
	src := `
func f
b0:
  v0 = Param <ref> [0]
  v1 = NullCheck <void> v0
  v2 = IGet <int> v0 [3]
  v3 = NullCheck <void> v0
  v4 = IGet <int> v0 [4]
  v5 = Add <int> v2 v4
  Return v5`
	for _, c := range []struct {
		level BarrierLevel
		want  int
		aux   int64
	}{
		{BarriersOff, 0, 0},
		{BarriersNone, 2, 0},
		{BarriersCache, 2, 1},
		{BarriersElim, 1, 0},
		{BarriersAll, 1, 1},
	} {
		f, err := Parse(src)
		if err != nil {
			t.Fatal(err)
		}
		var ran []string
		cfg := Config{Check: true, Barriers: c.level, After: func(p string, _ *Func) { ran = append(ran, p) }}
		if err := Optimize(f, cfg); err != nil {
			t.Fatalf("%s: %v", c.level, err)
		}
		if n := CountBarriers(f); n != c.want {
			t.Errorf("%s: %d barriers, want %d (passes %v)\n%s", c.level, n, c.want, ran, f)
		}
		for _, b := range f.Blocks {
			for _, v := range b.Values {
				if v.Op == OpBarrier && v.Aux != c.aux {
					t.Errorf("%s: %s, want Aux %d", c.level, v.LongString(), c.aux)
				}
			}
		}
	}
}

func TestParseBarrierLevel(t *testing.T) {
	for _, c := range []struct {
		in   string
		want BarrierLevel
		err  bool
	}{
		{"", BarriersOff, false},
		{"off", BarriersOff, false},
		{"none", BarriersNone, false},
		{"cache", BarriersCache, false},
		{"elim", BarriersElim, false},
		{"all", BarriersAll, false},
		{"All", 0, true},
		{"fast", 0, true},
	} {
		got, err := ParseBarrierLevel(c.in)
		if (err != nil) != c.err || (err == nil && got != c.want) {
			t.Errorf("ParseBarrierLevel(%q) = %v, %v", c.in, got, err)
		}
		if err == nil && c.in != "" && got.String() != c.in {
			t.Errorf("%v.String() = %q, want %q", got, got.String(), c.in)
		}
	}
}

// TestInlinedReceiverBarrier checks that an inlined instance call keeps
// its receiver's barrier at every level (and its check barrier), in the
// call's place, and that the Access the inline pass left is gone from the
// code the engine lowers.
func TestInlinedReceiverBarrier(t *testing.T) {
	const caller = `
func f
b0:
  v0 = Param <ref> [0]
  v1 = NullCheck <void> v0
  v2 = InvokeDirect <void> v0 [2]
  v3 = Const <int> [7]
  Return v3`
	const emptyInit = `
func init
b0:
  v0 = This <ref>
  Return`
	for _, c := range []struct {
		level          BarrierLevel
		check          bool
		barriers, chks int
	}{
		{BarriersOff, false, 0, 0},
		{BarriersNone, false, 1, 0},
		{BarriersCache, true, 1, 1},
		{BarriersElim, false, 1, 0},
		{BarriersAll, true, 1, 1},
	} {
		f, err := Parse(caller)
		if err != nil {
			t.Fatal(err)
		}
		g, err := Parse(emptyInit)
		if err != nil {
			t.Fatal(err)
		}
		cfg := Config{Check: true, Barriers: c.level, CheckBarriers: c.check, Inline: func(*Value) *Func { return g }}
		if err := Optimize(f, cfg); err != nil {
			t.Fatalf("%s: %v", c.level, err)
		}
		chks := 0
		for _, b := range f.Blocks {
			for _, v := range b.Values {
				switch {
				case v.Op == OpInvokeDirect:
					t.Errorf("%s: the call was not inlined:\n%s", c.level, f)
				case v.Op == OpAccess:
					t.Errorf("%s: an Access is left:\n%s", c.level, f)
				case v.Op == OpBarrier && v.Aux == BarrierCheck:
					chks++
				case v.Op == OpBarrier && v.Args[0].Op != OpParam:
					t.Errorf("%s: %s is not the receiver's", c.level, v.LongString())
				}
			}
		}
		if n := CountBarriers(f); n != c.barriers || chks != c.chks {
			t.Errorf("%s (check %v): %d barriers and %d check barriers, want %d and %d\n%s", c.level, c.check, n, chks, c.barriers, c.chks, f)
		}
	}
}
