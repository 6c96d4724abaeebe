package verify_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/droidprof/droidprof/vm/core"
	"github.com/droidprof/droidprof/vm/dex"
	"github.com/droidprof/droidprof/vm/smali"
	"github.com/droidprof/droidprof/vm/smali/ast"
	"github.com/droidprof/droidprof/vm/verify"
)

// assemble builds class LT; from smali source (the .class header is
// added) and returns the DEX file.
func assemble(t testing.TB, body string) *dex.File {
	t.Helper()
	src := ".class public LT;\n.super Ljava/lang/Object;\n.field public i:I\n.field public o:Ljava/lang/Object;\n" + body
	c, err := smali.Parse("T.smali", []byte(src), &smali.Options{API: 28})
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	data, err := smali.Assemble([]*ast.Class{c}, &smali.AssembleOptions{API: 28})
	if err != nil {
		t.Fatalf("assemble: %v", err)
	}
	return readDEX(t, data)
}

// verifyT verifies class LT; of f against the core library.
func verifyT(t *testing.T, f *dex.File) error {
	t.Helper()
	boot := readDEX(t, core.DEX())
	return verify.Class(f, &f.ClassDefs[0], verify.NewFiles(boot, f))
}

// static wraps a body in a static method "m" with the given signature
// and register count.
func static(sig string, regs int, code string) string {
	return ".method public static m" + sig + "\n.registers " + itoa(regs) + "\n" + code + "\n.end method\n"
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

func TestVerifier(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want string // "" to accept; else a substring of the error
		pc   int    // the dex pc the error names
	}{
		// Acceptance of valid code.
		{"ok int arithmetic", static("(I)I", 2, "add-int/lit8 v0, p0, 1\nreturn v0"), "", 0},
		{"ok long pair", static("(J)J", 4, "const-wide/16 v0, 1\nadd-long v0, v0, p0\nreturn-wide v0"), "", 0},
		{"ok null as ref and int", static("()V", 2, "const/4 v0, 0\nif-eqz v0, :a\n:a\nmonitor-enter v0\nmonitor-exit v0\nreturn-void"), "", 0},
		{"ok new and init", static("()Ljava/lang/Object;", 1, "new-instance v0, Ljava/lang/Object;\ninvoke-direct {v0}, Ljava/lang/Object;-><init>()V\nreturn-object v0"), "", 0},
		{"ok loop merge", static("(I)I", 2, "const/4 v0, 0\n:l\nadd-int/2addr v0, p0\nif-nez v0, :l\nreturn v0"), "", 0},
		{"ok try catch", static("()V", 1, ":s\nnew-instance v0, Ljava/lang/Object;\n:e\n.catch Ljava/lang/Exception; {:s .. :e} :h\ninvoke-direct {v0}, Ljava/lang/Object;-><init>()V\nreturn-void\n:h\nmove-exception v0\nthrow v0"), "", 0},
		{"ok switch", static("(I)I", 1, "packed-switch p0, :p\nreturn p0\n:a\nconst/4 p0, 1\nreturn p0\n:p\n.packed-switch 0\n:a\n.end packed-switch"), "", 0},
		{"ok unresolved class is left to run time", static("()V", 1, "new-instance v0, LNoSuch;\ninvoke-direct {v0}, LNoSuch;-><init>()V\ninvoke-virtual {v0}, LNoSuch;->x()V\nreturn-void"), "", 0},
		{"ok field of unknown object", static("(LNoSuch;)I", 2, "iget v0, p0, LNoSuch;->f:I\nreturn v0"), "", 0},
		{"ok aget on null", static("()I", 2, "const/4 v0, 0\naget v1, v0, v0\nreturn v1"), "", 0},

		// Structural failures.
		{"falls off the end", static("()V", 1, "const/4 v0, 0"), "falls off the end", 0},
		{"argument count", static("()V", 1, "const/4 v0, 0\ninvoke-static {v0}, LT;->m()V\nreturn-void"), "expected 1 argument registers, method signature has 0", 1},
		{"non-direct constructor call", static("()V", 1, "new-instance v0, Ljava/lang/Object;\ninvoke-virtual {v0}, Ljava/lang/Object;-><init>()V\nreturn-void"), "non-direct call to constructor", 2},
		{"new-instance of an array", static("()V", 1, "new-instance v0, [I\nreturn-void"), "can't call new-instance on type '[I'", 0},

		// Type-flow failures.
		{"int used as reference", static("()V", 2, "const/4 v0, 1\nmonitor-enter v0\nreturn-void"), "non-reference register v0", 1},
		{"int used as receiver", static("()I", 2, "const/4 v0, 1\niget v1, v0, LT;->i:I\nreturn v1"), "non-reference register v0", 1},
		{"reference used as int", static("(Ljava/lang/Object;)I", 2, "add-int/lit8 v0, p0, 1\nreturn v0"), "register v1 has type Reference: java.lang.Object but expected Integer", 0},
		{"float used as int", static("(F)I", 2, "add-int/lit8 v0, p0, 1\nreturn v0"), "has type Float but expected Integer", 0},
		{"wide pair broken", static("()J", 2, "const-wide/16 v0, 1\nconst/4 v1, 0\nreturn-wide v0"), "register v0 has type Undefined but expected Long", 3},
		{"long as double", static("(J)D", 4, "neg-double v0, p0\nreturn-wide v0"), "expected Double", 0},
		{"move-result without invoke", static("()I", 1, "move-result v0\nreturn v0"), "not after an invoke", 0},
		{"move-result-object of int", static("()V", 1, "invoke-static {}, LT;->k()I\nmove-result-object v0\nreturn-void") + static2("k", "()I", 1, "const/4 v0, 0\nreturn v0"), "move-result-object of a result of type Integer", 3},
		{"move-exception outside a handler", static("()V", 1, "move-exception v0\nreturn-void"), "not the start of a handler", 0},
		{"uninitialized object used", static("()I", 2, "new-instance v0, LT;\niget v1, v0, LT;->i:I\nreturn v1"), "not fully initialized", 2},
		{"uninitialized object returned", static("()Ljava/lang/Object;", 1, "new-instance v0, Ljava/lang/Object;\nreturn-object v0"), "uninitialized reference", 2},
		{"constructor without super call", ".method public constructor <init>()V\n.registers 1\nreturn-void\n.end method\n", "Constructor returning without calling superclass constructor", 0},
		{"return-void in int method", static("()I", 1, "return-void"), "return-void not expected", 0},
		{"return int from object method", static("()Ljava/lang/Object;", 1, "const/4 v0, 1\nreturn v0"), "return not expected", 1},
		{"return wrong class", static("()Ljava/lang/String;", 1, "new-instance v0, Ljava/lang/Object;\ninvoke-direct {v0}, Ljava/lang/Object;-><init>()V\nreturn-object v0"), "returning 'Reference: java.lang.Object', but expected from declaration 'Reference: java.lang.String'", 5},
		{"aput of int into null array as object", static("()V", 3, "const/4 v0, 0\nconst/4 v1, 1\nconst/4 v2, 2\naput-object v2, v0, v1\nreturn-void"), "non-reference register v2", 3},
		{"aget-wide on int array", static("([I)J", 3, "const/4 v0, 0\naget-wide v0, p0, v0\nreturn-wide v0"), "incompatible with aget-wide", 1},
		{"wrong field type", static("()J", 2, "sget-wide v0, LT;->i:I\nreturn-wide v0"), "expected field T.i to be of type 'J' but found type 'I'", 0},
		{"argument of wrong class", static("(Ljava/lang/Object;)V", 1, "invoke-static {p0}, LT;->s(Ljava/lang/String;)V\nreturn-void") + static2("s", "(Ljava/lang/String;)V", 1, "return-void"), "expected Reference: java.lang.String", 0},
		{"merge conflict used", static("(I)I", 2, "if-eqz p0, :a\nconst/4 v0, 1\ngoto :b\n:a\nconst-string v0, \"s\"\n:b\nreturn v0"), "type Undefined but expected Integer", 6},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			check(t, assemble(t, tc.src), tc.want, tc.pc)
		})
	}
}

// check verifies class LT; of f and compares the outcome with want and
// pc as TestVerifier's cases describe them.
func check(t *testing.T, f *dex.File, want string, pc int) {
	t.Helper()
	err := verifyT(t, f)
	if want == "" {
		if err != nil {
			t.Fatalf("rejected valid code: %v", err)
		}
		return
	}
	if err == nil {
		t.Fatalf("accepted; want an error containing %q", want)
	}
	var me *verify.Error
	if !errors.As(err, &me) {
		t.Fatalf("error %T is not a *verify.Error: %v", err, err)
	}
	if !strings.Contains(me.Reason, want) || me.PC != pc {
		t.Fatalf("got %v (pc %#x), want %q at pc %#x", err, me.PC, want, pc)
	}
}

func static2(name, sig string, regs int, code string) string {
	return ".method public static " + name + sig + "\n.registers " + itoa(regs) + "\n" + code + "\n.end method\n"
}

// TestStructure covers the structural checks on code the assembler
// would not produce: the valid method below is patched in the DEX model.
func TestStructure(t *testing.T) {
	// pc 0 const/16 v0, 7 (2 units); 2 if-eqz v0, +4; 4 goto +2; 5 nop;
	// 6 return-void.
	const src = ".method public static m()V\n.registers 2\nconst/16 v0, 7\nif-eqz v0, :a\ngoto :a\nnop\n:a\nreturn-void\n.end method\n"
	checkPatched(t, src, []patchCase{
		{"valid", func(c *dex.Code) {}, "", 0},
		{"register out of range", func(c *dex.Code) { c.Insns[0] = 0x0513 }, "register v5 out of range (>= 2)", 0},
		{"branch into an instruction", func(c *dex.Code) { c.Insns[3] = 0xffff }, "invalid branch target -1 (-> 0x1)", 2},
		{"branch beyond the end", func(c *dex.Code) { c.Insns[4] = 0x4028 }, "invalid branch target 64", 4},
		{"goto to itself", func(c *dex.Code) { c.Insns[4] = 0x0028 }, "branch offset of zero not allowed", 4},
		{"unused opcode", func(c *dex.Code) { c.Insns[5] = 0x003e }, "invalid opcode 0x3e", 5},
		{"bad string index", func(c *dex.Code) { c.Insns[0] = 0x001a; c.Insns[1] = 0xfff0 }, "bad string index 65520", 0},
		{"truncated instruction", func(c *dex.Code) { c.Insns[6] = 0x0014 }, "needs 3 code units", 6},
		{"ins above registers", func(c *dex.Code) { c.Ins = 3 }, "bad register counts (ins=3 regs=2)", -1},
		{"ins does not match signature", func(c *dex.Code) { c.Ins = 1 }, "ins_size 1 does not match the 0 argument words", -1},
		{"try beyond the end", func(c *dex.Code) {
			c.Tries = []dex.Try{{Start: 6, Count: 3}}
			c.Handlers = []dex.CatchHandler{{HasCatchAll: true, CatchAll: 6}}
		}, "bad exception entry: startAddr=6 endAddr=9", -1},
		{"handler inside an instruction", func(c *dex.Code) {
			c.Tries = []dex.Try{{Start: 0, Count: 2}}
			c.Handlers = []dex.CatchHandler{{HasCatchAll: true, CatchAll: 1}}
		}, "exception handler offset 0x1 is not an instruction start", -1},
		{"move-exception reached by fall-through", func(c *dex.Code) { c.Insns[4], c.Insns[5] = 0, 0x000d }, "not the start of a handler", 5},
	})
}

// TestPayloads covers switch and array-data payload checks.
func TestPayloads(t *testing.T) {
	// pc 0 const/16 v0, 7; 2 packed-switch v0, +4; 5 return-void;
	// 6 the payload (aligned by the assembler).
	const src = ".method public static m()V\n.registers 1\nconst/16 v0, 7\npacked-switch v0, :p\n:r\nreturn-void\n:p\n.packed-switch 0\n:r\n.end packed-switch\n.end method\n"
	checkPatched(t, src, []patchCase{
		{"valid", func(c *dex.Code) {}, "", 0},
		{"offset not at a payload", func(c *dex.Code) { c.Insns[3] = 3 }, "invalid packed-switch payload offset 3", 2},
		{"wrong payload kind", func(c *dex.Code) { c.Insns[6] = 0x0200 }, "invalid packed-switch payload offset 4", 2},
		{"switch target outside", func(c *dex.Code) { c.Insns[10] = 0x100 }, "invalid branch target 256", 2},
	})
}

// TestDeadCode: like ART, the type-flow checks (argument counts, wide
// pairs) skip unreachable code; the structural ones do not.
func TestDeadCode(t *testing.T) {
	check(t, assemble(t, static("()V", 2, "return-void\n:s\nconst/4 v0, 0\nconst/4 v1, 0\ninvoke-static {v0, v1}, LT;->m()V\ngoto :s")), "", 0)
	f := assemble(t, static("()V", 2, "return-void\nconst/4 v1, 0\nreturn-void"))
	f.ClassDefs[0].Data.DirectMethods[0].Code.Insns[1] = 0x0712 // const/4 v7
	check(t, f, "register v7 out of range", 1)
}

// TestBadDescriptor: the reader does not check that type strings are
// descriptors; the verifier must, before the type checks index them.
func TestBadDescriptor(t *testing.T) {
	for _, bad := range []string{"", "Foo", "L;", "[V", "LFoo;Bar;"} {
		f := assemble(t, static("()V", 1, "new-instance v0, LFoo;\nreturn-void"))
		for i, s := range f.Strings {
			if s == "LFoo;" {
				f.Strings[i] = bad
			}
		}
		check(t, f, "invalid type descriptor '"+bad+"'", 0)
	}
}

// patchCase is a change to an assembled method's code item that the
// verifier must reject with want at pc (want "": accept it).
type patchCase struct {
	name  string
	patch func(c *dex.Code)
	want  string
	pc    int
}

// checkPatched assembles src, a single static method, afresh for each case,
// patches its code and checks the verifier's verdict.
func checkPatched(t *testing.T, src string, cases []patchCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := assemble(t, src)
			tc.patch(f.ClassDefs[0].Data.DirectMethods[0].Code)
			check(t, f, tc.want, tc.pc)
		})
	}
}
