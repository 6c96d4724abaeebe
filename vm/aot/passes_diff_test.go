package aot_test

import (
	"fmt"
	"math"
	"math/rand"
	"strings"
	"testing"

	"github.com/droidprof/droidprof/vm/aot/frontend"
	"github.com/droidprof/droidprof/vm/aot/ssa"
	"github.com/droidprof/droidprof/vm/dex"
	"github.com/droidprof/droidprof/vm/smali"
	"github.com/droidprof/droidprof/vm/smali/ast"
)

// randomProgram writes a random static method m(III)I in smali: int
// arithmetic (division, shifts, literals), a long pair, a float, an int
// array (reallocated with computed lengths, sometimes null) indexed by
// computed values, branches forward and back, a
// packed-switch, all inside a try range whose catch-all handler returns
// a register's value as it was when something threw. Registers keep one
// type each so the method verifies. Without back, branches only go
// forward, so the method ends. With calls, it also reads and writes the
// static int field LCLASS;->s and calls LCLASS;->h(III)I (LCLASS; is
// the caller's to replace).
func randomProgram(r *rand.Rand, n int, back bool, name string, calls bool) string {
	ints := []string{"v0", "v1", "v2", "v3", "v4", "v5", "v11", "v12", "p0", "p1", "p2"}
	small := []string{"v0", "v1", "v2", "v3", "v4", "v5", "v11", "v12"} // writable, 4-bit
	ri := func() string { return ints[r.Intn(len(ints))] }
	rw := func() string { return small[r.Intn(len(small))] }
	i := 0 // the instruction being written
	label := func() string {
		if back && r.Intn(5) == 0 {
			return fmt.Sprintf(":L%d", r.Intn(n)) // maybe backward
		}
		return fmt.Sprintf(":L%d", i+1+r.Intn(n-i)) // forward; n is the end
	}
	var sb, payloads strings.Builder
	fmt.Fprintf(&sb, ".method public static %s(III)I\n    .registers 16\n", name)
	for i, v := range small {
		fmt.Fprintf(&sb, "    const/16 %s, %d\n", v, r.Intn(40)-10+i)
	}
	fmt.Fprintf(&sb, "    const-wide/16 v6, %d\n", r.Intn(100))
	fmt.Fprintf(&sb, "    const/4 v8, %d\n    new-array v8, v8, [I\n", r.Intn(8))
	sb.WriteString("    const v9, 0\n    int-to-float v9, v0\n")
	sb.WriteString("  :try_start\n")
	binops := []string{"add-int", "sub-int", "mul-int", "div-int", "rem-int", "and-int", "or-int", "xor-int", "shl-int", "shr-int", "ushr-int"}
	lits := []string{"add-int/lit8", "rsub-int/lit8", "mul-int/lit8", "div-int/lit8", "rem-int/lit8", "and-int/lit8", "shl-int/lit8", "ushr-int/lit8"}
	conds := []string{"eq", "ne", "lt", "ge", "gt", "le"}
	nsw := 0
	for i = 0; i < n; i++ {
		fmt.Fprintf(&sb, "  :L%d\n", i)
		k := r.Intn(24)
		if calls && r.Intn(6) == 0 {
			k = 100 + r.Intn(3)
		}
		switch {
		case k == 100:
			fmt.Fprintf(&sb, "    sget %s, LCLASS;->s:I\n", rw())
		case k == 101:
			fmt.Fprintf(&sb, "    sput %s, LCLASS;->s:I\n", ri())
		case k == 102:
			fmt.Fprintf(&sb, "    invoke-static {%s, %s, %s}, LCLASS;->h(III)I\n    move-result %s\n", ri(), ri(), ri(), rw())
		case k < 5:
			fmt.Fprintf(&sb, "    %s %s, %s, %s\n", binops[r.Intn(len(binops))], rw(), ri(), ri())
		case k < 8:
			fmt.Fprintf(&sb, "    %s %s, %s, %d\n", lits[r.Intn(len(lits))], rw(), ri(), r.Intn(11)-3)
		case k < 10:
			fmt.Fprintf(&sb, "    if-%s %s, %s, %s\n", conds[r.Intn(len(conds))], ri(), ri(), label())
		case k == 10:
			fmt.Fprintf(&sb, "    if-%sz %s, %s\n", conds[r.Intn(len(conds))], ri(), label())
		case k == 11:
			fmt.Fprintf(&sb, "    aget %s, v8, %s\n", rw(), ri())
		case k == 12:
			fmt.Fprintf(&sb, "    aput %s, v8, %s\n", ri(), ri())
		case k == 13:
			fmt.Fprintf(&sb, "    array-length %s, v8\n", rw())
		case k == 14:
			ops := []string{"int-to-long v6, %s", "add-long v6, v6, v6", "mul-long/2addr v6, v6", "shl-long v6, v6, %s", "long-to-int %s, v6", "div-long v6, v6, v6", "cmp-long %s, v6, v6"}
			op := ops[r.Intn(len(ops))]
			if strings.Contains(op, "%s") {
				reg := rw()
				if strings.HasPrefix(op, "int-to") || strings.HasPrefix(op, "shl") {
					reg = ri()
				}
				op = fmt.Sprintf(op, reg)
			}
			fmt.Fprintf(&sb, "    %s\n", op)
		case k == 15:
			ops := []string{"int-to-float v9, %s", "add-float v9, v9, v9", "mul-float/2addr v9, v9", "div-float v9, v9, v9", "float-to-int %s, v9", "cmpg-float %s, v9, v9", "neg-float v9, v9"}
			op := ops[r.Intn(len(ops))]
			if strings.Contains(op, "%s") {
				reg := rw()
				if strings.HasPrefix(op, "int-to") {
					reg = ri()
				}
				op = fmt.Sprintf(op, reg)
			}
			fmt.Fprintf(&sb, "    %s\n", op)
		case k == 16:
			ops := []string{"neg-int", "not-int", "int-to-byte", "int-to-char", "int-to-short", "move"}
			fmt.Fprintf(&sb, "    %s %s, %s\n", ops[r.Intn(len(ops))], rw(), ri())
		case k == 17:
			fmt.Fprintf(&sb, "    const/16 %s, %d\n", rw(), r.Intn(200)-100)
		case k == 18:
			fmt.Fprintf(&sb, "    packed-switch %s, :sw%d\n", ri(), nsw)
			fmt.Fprintf(&payloads, "  :sw%d\n    .packed-switch %d\n", nsw, r.Intn(5)-2)
			for j := r.Intn(4) + 1; j > 0; j-- {
				fmt.Fprintf(&payloads, "        %s\n", label())
			}
			payloads.WriteString("    .end packed-switch\n")
			nsw++
		case k == 19:
			fmt.Fprintf(&sb, "    add-int/lit16 %s, %s, %d\n", rw(), ri(), r.Intn(1000))
		case k == 20:
			sb.WriteString("    const/4 v8, 0\n") // null: the next access throws
		case k == 21 || k == 22:
			// an access guarded by index < length, as loops do; the
			// index may still be negative
			idx, tmp := ri(), rw()
			for tmp == idx {
				tmp = rw()
			}
			fmt.Fprintf(&sb, "    array-length %s, v8\n    if-ge %s, %s, :g%d\n    aget %s, v8, %s\n  :g%d\n", tmp, idx, tmp, i, rw(), idx, i)
		default:
			// a length in [-15, 15]: sometimes negative, never large
			tmp := rw()
			fmt.Fprintf(&sb, "    rem-int/lit8 %s, %s, 16\n    new-array v8, %s, [I\n", tmp, ri(), tmp)
		}
	}
	fmt.Fprintf(&sb, "  :L%d\n  :try_end\n", n)
	sb.WriteString("    .catchall {:try_start .. :try_end} :handler\n")
	sb.WriteString("    long-to-int v1, v6\n    add-int/2addr v0, v1\n    float-to-int v1, v9\n    add-int/2addr v0, v1\n    return v0\n")
	sb.WriteString("  :handler\n    move-exception v10\n    add-int/lit16 v0, v0, 1000\n    add-int/2addr v0, v1\n    return v0\n")
	sb.WriteString(payloads.String())
	sb.WriteString(".end method\n")
	return sb.String()
}

// TestPassesPreserveSemantics builds random methods and runs each, before
// and after the passes, on the same arguments with the IR evaluator: the
// results (returned value or exception) must be equal. It also checks
// that the programs exercise what they are meant to: some throw, some
// return, some take the handler.
func TestPassesPreserveSemantics(t *testing.T) {
	programs := 400
	if testing.Short() {
		programs = 60
	}
	r := rand.New(rand.NewSource(17))
	inputs := []int64{0, 1, -1, 2, 3, 7, 100, math.MinInt32, math.MaxInt32}
	seen := map[string]int{}
	for p := 0; p < programs; p++ {
		src := randomProgram(r, 5+r.Intn(30), true, "m", true) + randomProgram(r, 5+r.Intn(10), false, "h", false)
		src = strings.ReplaceAll(src, "LCLASS;", "LT;")
		cls, err := smali.Parse("T.smali", []byte(".class public LT;\n.super Ljava/lang/Object;\n.field public static s:I\n"+src), &smali.Options{API: 28})
		if err != nil {
			t.Fatalf("program %d: %v\n%s", p, err, src)
		}
		data, err := smali.Assemble([]*ast.Class{cls}, &smali.AssembleOptions{API: 28})
		if err != nil {
			t.Fatalf("program %d: %v\n%s", p, err, src)
		}
		f := readDEX(t, data)
		m := methodNamed(t, f, "LT;", "m")
		callee := calleeIR(t, f)
		before, err := frontend.Build(m)
		if err != nil {
			t.Fatalf("program %d: %v\n%s", p, err, src)
		}
		after, err := frontend.Build(m)
		if err != nil {
			t.Fatal(err)
		}
		// every other program runs with a random set of passes
		// disabled, so each pass also meets IR the others did not clean
		cfg := ssa.Config{Check: true, Disabled: map[string]bool{}}
		if p%2 == 1 {
			for _, name := range ssa.PassNames() {
				if r.Intn(2) == 0 {
					cfg.Disabled[name] = true
				}
			}
		}
		if err := ssa.Optimize(after, cfg); err != nil {
			t.Fatalf("program %d: %v\n%s", p, err, src)
		}
		for k := 0; k < 4; k++ {
			args := []int64{inputs[r.Intn(len(inputs))], inputs[r.Intn(len(inputs))], int64(r.Int31n(20) - 5)}
			want, err := evalIR(before, args, 20000, &evalEnv{statics: map[int64]int64{}, callee: callee})
			if err != nil {
				t.Fatalf("program %d before the passes: %v\n%s\n%s", p, err, src, before)
			}
			got, err := evalIR(after, args, 20000, &evalEnv{statics: map[int64]int64{}, callee: callee})
			if err != nil {
				t.Fatalf("program %d after the passes: %v\n%s\n%s", p, err, src, after)
			}
			if want.steps || got.steps {
				seen["out of steps"]++
				continue
			}
			if got != want {
				t.Fatalf("program %d on %v: %v before the passes, %v after (disabled: %v)\n%s\nbefore:\n%s\nafter:\n%s", p, args, want, got, cfg.Disabled, src, before, after)
			}
			switch {
			case want.exception != "":
				seen["uncaught"]++
			case want.ret >= 900:
				seen["returned (maybe from the handler)"]++
			default:
				seen["returned"]++
			}
		}
	}
	t.Logf("outcomes: %v", seen)
}

// methodNamed returns the method called name of class desc in f.
func methodNamed(t testing.TB, f *dex.File, desc, name string) frontend.Method {
	t.Helper()
	for _, def := range f.ClassDefs {
		if f.TypeName(def.Class) != desc {
			continue
		}
		for _, em := range def.Data.DirectMethods {
			if f.Str(f.Methods[em.Method].Name) == name {
				return frontend.Method{File: f, Method: em.Method, Access: em.Access, Code: em.Code}
			}
		}
	}
	t.Fatalf("no method %s.%s", desc, name)
	return frontend.Method{}
}

// calleeIR returns a resolver of the methods of f to their IR as the
// front end builds it, built once each.
func calleeIR(t testing.TB, f *dex.File) func(int64) (*ssa.Func, error) {
	built := map[int64]*ssa.Func{}
	return func(idx int64) (*ssa.Func, error) {
		if fn := built[idx]; fn != nil {
			return fn, nil
		}
		ref := f.Methods[idx]
		m := methodNamed(t, f, f.TypeName(ref.Class), f.Str(ref.Name))
		fn, err := frontend.Build(m)
		if err != nil {
			return nil, err
		}
		built[idx] = fn
		return fn, nil
	}
}
