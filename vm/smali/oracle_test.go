package smali

import (
	"context"
	"fmt"
	"github.com/droidprof/droidprof/internal/testenv"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"
)

// oracleCase is a smali source that real smali 2.5.2 accepts (ok) or
// rejects. Body cases are method bodies, wrapped by wrapBody; class cases
// are whole files in which LT; is replaced by a class name unique to the
// case.
type oracleCase struct {
	body, class string
	api         int // 0 means 28
	ok          bool
}

func (c oracleCase) source(n int) string {
	name := fmt.Sprintf("LT%03d;", n)
	if c.class != "" {
		return strings.ReplaceAll(c.class, "LT;", name)
	}
	return wrapBody(name, c.body)
}

// wrapBody puts a method body into a static method m(IJLjava/lang/Object;)V
// of 20 registers: p0 is v16, p1/p2 the long, p3 v19.
func wrapBody(class, body string) string {
	return ".class public " + class + "\n.super Ljava/lang/Object;\n" +
		".field public static f:I\n" +
		".method public static m(IJLjava/lang/Object;)V\n    .registers 20\n" + body +
		"\n    return-void\n.end method\n"
}

const header = ".class public LT;\n.super Ljava/lang/Object;\n"

var oracleCases = []oracleCase{
	// Literal ranges, after smali's conversions.
	{body: "const/4 v0, 7", ok: true},
	{body: "const/4 v0, -8", ok: true},
	{body: "const/4 v0, 8"},
	{body: "const/4 v0, 15"},
	{body: "const/4 v0, -9"},
	{body: "const/4 v0, true"},
	{body: "const/4 v0, 'a'"},
	{body: "const/4 v0, 1t", ok: true},
	{body: "const/4 v0, 65535", ok: true},
	{body: "const/16 v0, 65535", ok: true},
	{body: "const/16 v0, -32768", ok: true},
	{body: "const/16 v0, 65536"},
	{body: "const/16 v0, 70000L"},
	{body: "const v0, 0xFFFFFFFF", ok: true},
	{body: "const v0, -2147483648", ok: true},
	{body: "const v0, -0x80000001"},
	{body: "const v0, 4294967296"},
	{body: "const v0, -5L", ok: true},
	{body: "const v0, 5L"},
	{body: "const v0, 1.5f", ok: true},
	{body: "const v0, 1.5"},
	{body: "const v0, 0x1p3"},
	{body: "const v0, true", ok: true},
	{body: "const v0, 'x'", ok: true},
	{body: "const/high16 v0, 0x10000", ok: true},
	{body: "const/high16 v0, 0x10001"},
	{body: "const/high16 v0, 1.0f", ok: true},
	{body: "const-wide v0, 1.5", ok: true},
	{body: "const-wide v0, 0x1p3", ok: true},
	{body: "const-wide v0, 'x'", ok: true},
	{body: "const-wide v0, true", ok: true},
	{body: "const-wide v0, 0xFFFFFFFFFFFFFFFFL", ok: true},
	{body: "const-wide v0, 18446744073709551616L"},
	{body: "const-wide/high16 v0, 0x1000000000000L", ok: true},
	{body: "const-wide/high16 v0, 0x10000"},
	{body: "const-wide/high16 v0, 1.0"},
	{body: "const-wide/high16 v0, 2.0f"},
	{body: "const-wide/32 v0, -5L", ok: true},
	{body: "const-wide/32 v0, 5L"},
	{body: "const-wide/32 v0, 1.0f", ok: true},
	{body: "const-wide/16 v0, 5", ok: true},
	{body: "add-int/lit8 v0, v1, -128", ok: true},
	{body: "add-int/lit8 v0, v1, 128"},
	{body: "add-int/lit8 v0, v1, 255"},
	{body: "add-int/lit16 v0, v1, 65535", ok: true},
	{body: "const-string v0, \"a\\u0000b\"", ok: true},
	{body: "const-string v0, \"\\a\""},
	{body: "const-string v0, \"unterminated"},
	// Registers, with pN mapped to v(20-4+N).
	{body: "move/from16 v0, v65535", ok: true},
	{body: "move/from16 v0, v70000"},
	{body: "move/from16 v256, v1"},
	{body: "move/16 v0, v25", ok: true},
	{body: "move/16 v0, p4", ok: true},
	{body: "move v15, v1", ok: true},
	{body: "move v16, v1"},
	{body: "move v0, p0"},
	{body: "move-wide v0, x1"},
	{body: "move v0 v1"},
	{body: "add-int v0, v1"},
	{body: "add-int v0, v1, v2, v3"},
	{body: "nop nop", ok: true},
	{body: "nop extra"},
	{body: "nop # a comment", ok: true},
	{body: "invoke-static {}, m()V", ok: true},
	{body: "invoke-static {v0, v1, v2, v3, v4}, LT;->m()V", ok: true},
	{body: "invoke-static {v0, v1, v2, v3, v4, v5}, LT;->m()V"},
	{body: "invoke-static {v16}, LT;->m()V"},
	{body: "invoke-static/range {}, LT;->m()V", ok: true},
	{body: "invoke-static/range {v1}, LT;->m()V", ok: true},
	{body: "invoke-static/range {v0 .. v254}, LT;->m()V", ok: true},
	{body: "invoke-static/range {v0 .. v255}, LT;->m()V"},
	{body: "invoke-static/range {v5 .. v4}, LT;->m()V"},
	{body: "invoke-static/range {v65535 .. v65536}, LT;->m()V", ok: true},
	{body: "invoke-static/range {v65536}, LT;->m()V"},
	{body: "filled-new-array {v0}, [J", ok: true},
	{body: "check-cast v0, I", ok: true},
	{body: "const-class v0, V"},
	{body: "new-array v0, v1, I", ok: true},
	{body: "sget v0, f:I", ok: true},
	{body: "sget v0, LT;->f:I", ok: true},
	{body: "invoke-virtual {v3}, Ljava/lang/Object;->move(I)V", ok: true},
	// Labels.
	{body: ":a\ngoto :a", ok: true},
	{body: "goto :nowhere"},
	{body: ":a\n:a"},
	{body: ":v0\n:123\n:I\n:public\ngoto :v0", ok: true},
	{body: ": spaced\ngoto : spaced", ok: true},
	// Payloads.
	{body: "goto :e\n:a\n.array-data 1\n0x100\n-129\n1.0f\n.end array-data\n:e", ok: true},
	{body: "goto :e\n:a\n.array-data 8\n1.5\n1\n'x'\ntrue\n.end array-data\n:e", ok: true},
	{body: "goto :e\n:a\n.array-data 3\n.end array-data\n:e"},
	// (.array-data 4L makes smali 2.5.2 hang; we reject it.)
	{body: "goto :e\n:a\n.sparse-switch\n5 -> :e\n1 -> :e\n1 -> :e\n.end sparse-switch\n:e", ok: true},
	{body: "goto :e\n:a\n.packed-switch 1L\n:e\n.end packed-switch\n:e"},
	{body: "goto :e\n:a\n.packed-switch -1L\n:e\n.end packed-switch\n:e", ok: true},
	{body: "fill-array-data v0, :e\n:e", ok: true},
	{body: "packed-switch v0, :nowhere"},
	// Method directives.
	{body: ".registers 3"},
	{body: ".locals 3"},
	{body: ".line -5L", ok: true},
	{body: ".line 5L"},
	{body: ".line 1t", ok: true},
	{body: ".line 0xFFFFFFFF", ok: true},
	{body: ".line 'a'"},
	{body: ".local p70000", ok: true},
	{body: ".local v0, null:V", ok: true},
	{body: ".local v0, \"a\":I, \"sig\"", ok: true},
	{body: ".local v0, var1:I"},
	{body: ".end local p3", ok: true},
	{body: ".restart local v1", ok: true},
	{body: ".source", ok: true},
	{body: ".source \"x\"", ok: true},
	{body: ".prologue\n.epilogue", ok: true},
	{body: ".param p0, \"x\"", ok: true},
	{body: ".param p1, \"x\"", ok: true},
	{body: ".param p2, \"x\""},
	{body: ".param p4, \"x\""},
	{body: ".param v0, \"x\""},
	{body: ".parameter \"x\""},
	{body: ".param p3\n.annotation runtime LA;\n.end annotation\n.end param", ok: true},
	{body: ":a\nnop\n:b\n.catch Ljava/lang/Exception; {:a .. :b} :a\n.catchall {:a .. :b} :b", ok: true},
	{body: ":a\nnop\n:b\n.catch Ljava/lang/Exception; {:a .. :c} :a"},
	{body: ".annotation runtime LA;\n.end annotation\n.annotation runtime LA;\n.end annotation"},
	// Odex instructions and API levels.
	{body: "return-void-barrier"},
	{body: "iget-quick v0, v1, field@0x1"},
	{body: "execute-inline {v0}, inline@0x1"},
	{body: "const-method-type v0, (I)V", ok: true},
	{body: "const-method-type v0, (I)V", api: 27},
	{body: "const-method-handle v0, invoke-static@LT;->m()V", ok: true},
	{body: "const-method-handle v0, static-get@LT;->f:I", ok: true},
	{body: "const-method-handle v0, invoke-static@LT;->m()V", api: 27},
	{body: "invoke-polymorphic {v0}, Ljava/lang/invoke/MethodHandle;->invoke([Ljava/lang/Object;)Ljava/lang/Object;, (I)J", api: 26, ok: true},
	{body: "invoke-polymorphic {v0}, Ljava/lang/invoke/MethodHandle;->invoke([Ljava/lang/Object;)Ljava/lang/Object;, (I)J", api: 25},
	{body: "invoke-custom {v0}, cs(\"run\", (I)V, 5, \"x\")@LT;->bsm(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/invoke/MethodType;ILjava/lang/String;)Ljava/lang/invoke/CallSite;", api: 26, ok: true},
	{body: "invoke-custom {v0}, cs(\"run\", (I)V)@LT;->bsm(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/invoke/MethodType;)Ljava/lang/invoke/CallSite;", api: 25},

	// Whole files.
	{class: header + ".field public x:I\n.field public x:I", ok: true},
	{class: header + ".field public x:I = 5"},
	{class: header + ".field public static x:I = 5", ok: true},
	{class: header + ".field static x:I = 5:I", ok: true},
	{class: header + ".field public static x:Ljava/lang/Object; = LT;->m()V", ok: true},
	{class: header + ".field public static x:Ljava/lang/Object; = m()V", ok: true},
	{class: header + ".field public static x:Ljava/lang/Object; = invoke-static@LT;->m()V", ok: true},
	{class: header + ".field public static x:Ljava/lang/Object; = (I)V", ok: true},
	{class: header + ".field public static x:Ljava/lang/Object; = .enum LE;->A:LE;", ok: true},
	{class: header + ".field public static x:Ljava/lang/Object; = .subannotation LA;\n a = 1\n.end subannotation", ok: true},
	{class: header + ".field public static x:[I = {1, 2, {}}", ok: true},
	{class: header + ".field public static x:I = {1, 2,}"},
	{class: header + ".field whitelist x:I"},
	{class: header + ".field whitelist x:I", api: 29, ok: true},
	{class: header + ".field whitelist blacklist x:I", api: 29},
	{class: header + ".field whitelist core-platform-api x:I", api: 29, ok: true},
	{class: header + ".field public static:I", ok: true},
	{class: header + ".field public static I:I", ok: true},
	{class: header + ".field public static `a b`:I", ok: true},
	{class: header + ".field public static x:L`a b`;"},
	{class: header + ".field public static x:L`a b`;", api: 30, ok: true},
	{class: header + ".field public x:I\n.annotation runtime LA;\n.end annotation", ok: true},
	{class: header + ".field public x:I\n.annotation runtime LA;\n.end annotation\n.end field", ok: true},
	{class: header + ".annotation runtime LA;\n.end annotation\n.annotation runtime LA;\n.end annotation"},
	{class: header + ".annotation runtime LA;\n  a = 1\n  b = \"x\"\n.end annotation", ok: true},
	{class: header + ".annotation invisible LA;\n.end annotation"},
	{class: header + ".method public m()V\n.registers 1\nreturn-void\n.end method\n.method public m()V\n.registers 1\nreturn-void\n.end method", ok: true},
	{class: header + ".method public abstract m()V\n.end method", ok: true},
	{class: header + ".method public abstract m()V\n.registers 1\n.end method"},
	{class: header + ".method public abstract m()V\nreturn-void\n.end method"},
	{class: header + ".method public m()V\n.end method"},
	{class: header + ".method public native m()V\nreturn-void\n.end method"},
	{class: header + ".method public native m()V\n.line 1\n.end method"},
	{class: header + ".method public m(I)V\n.registers 1\nreturn-void\n.end method"},
	{class: header + ".method public m(I)V\n.locals 0\nmove v0, p1\nreturn-void\n.end method", ok: true},
	{class: header + ".method public m()V\n.registers 1\nreturn-void\n"},
	{class: header + ".method public m()V\n.registers 1\nreturn-void\n.end method\n.end method"},
	{class: header + ".method public constructor <init>()V\n.registers 1\nreturn-void\n.end method", ok: true},
	{class: header + ".method public constructor <init>(II)V\n.registers 3\nreturn-void\n.end method", ok: true},
	{class: header + ".method public <init>()V\n.registers 1\nreturn-void\n.end method", ok: true},
	{class: ".class public LT;\n"},
	{class: ".class public Ljava/lang/Object;\n", ok: true},
	{class: header + ".class public LU;"},
	{class: header + ".source \"a\"\n.source \"b\""},
	{class: header + ".implements LI;\n.implements LI;", ok: true},
	{class: ".super Ljava/lang/Object;\n.class public LT;", ok: true},
	{class: header + "nop"},
	{class: header + ".field public x:II"},
	{class: ".class public T;\n.super Ljava/lang/Object;"},
	{class: ".class whitelist LT;\n.super Ljava/lang/Object;"},
	{class: header + ".method public static throw-verification-error()V\n.registers 1\nreturn-void\n.end method"},
	{class: header + ".method public static invoke-polymorphic/range()V\n.registers 1\nreturn-void\n.end method", ok: true},
	{class: header + ".field public static x:Ljava/lang/Object; = .enum A:LE;", ok: true},
	{class: header + ".field public static x:I = 1\n.end field", ok: true},
	{body: "const-string v0, \"x\" \"y\""},
	{body: ":<init>"},
	{body: ".catch I {:a .. :a} :a\n:a", ok: true},
	{body: ".local v0, \"x\":V", ok: true},
	{class: header + ".method public static m(I)V\n.registers 1\n.param p0, \"x\"\n.annotation runtime LA;\n.end annotation\n" +
		".annotation runtime LA;\n.end annotation\n.end param\nreturn-void\n.end method"},
}

// TestOracleSmali checks that we accept exactly what real smali 2.5.2
// (smali assemble -a API) accepts, on oracleCases and on our testdata.
// Without smali (package libsmali-java) it checks our verdicts against the
// recorded ones and skips the rest, unless DROIDPROF_REQUIRE_PRIVILEGED=1.
func TestOracleSmali(t *testing.T) {
	cases := append([]oracleCase(nil), oracleCases...)
	testdata, _ := filepath.Glob("testdata/*.smali")
	for _, f := range testdata {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, oracleCase{class: string(src), ok: true})
	}
	for i, c := range cases {
		api := c.api
		if api == 0 {
			api = 28
		}
		_, err := Parse(fmt.Sprintf("case%03d.smali", i), []byte(c.source(i)), &Options{API: api})
		if (err == nil) != c.ok {
			t.Errorf("case %d (API %d) %q: we accept=%v, want %v; our errors:\n%v", i, api, c.body+c.class, err == nil, c.ok, err)
		}
	}

	// Without smali the recorded verdicts above are all that is checked.
	testenv.Tool(t, "smali", "libsmali-java")
	byAPI := map[int][]int{}
	for i, c := range cases {
		api := c.api
		if api == 0 {
			api = 28
		}
		byAPI[api] = append(byAPI[api], i)
	}
	for api, idx := range byAPI {
		t.Run(fmt.Sprintf("api%d", api), func(t *testing.T) {
			t.Parallel()
			accepted := smaliVerdicts(t, api, idx, cases)
			agree := 0
			for _, i := range idx {
				if accepted[i] != cases[i].ok {
					t.Errorf("case %d %q: smali accept=%v, recorded (and ours) %v", i, cases[i].body+cases[i].class, accepted[i], cases[i].ok)
				} else {
					agree++
				}
			}
			t.Logf("real smali -a %d agrees with our parser on %d/%d cases", api, agree, len(idx))
		})
	}
}

var smaliFileError = regexp.MustCompile(`(?m)^(s\d+)\.smali\[`)

// smaliVerdicts runs smali on the cases idx at one API level and reports
// which it accepts. It assembles all of them at once, reads the rejected
// ones from the error messages, and confirms the rest.
func smaliVerdicts(t *testing.T, api int, idx []int, cases []oracleCase) map[int]bool {
	dir := t.TempDir()
	name := func(i int) string { return fmt.Sprintf("s%03d.smali", i) }
	for _, i := range idx {
		if err := os.WriteFile(filepath.Join(dir, name(i)), []byte(cases[i].source(i)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run := func(files []int) (bool, string) {
		out := filepath.Join(dir, "out.dex")
		os.Remove(out)
		args := []string{"assemble", "-a", fmt.Sprint(api), "-o", out}
		for _, i := range files {
			args = append(args, name(i))
		}
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, "smali", args...)
		cmd.Dir = dir
		msg, err := cmd.CombinedOutput()
		if ctx.Err() != nil {
			t.Logf("smali timed out on %d file(s) %v", len(files), files)
			return false, ""
		}
		_, statErr := os.Stat(out)
		return err == nil && statErr == nil && len(msg) == 0, string(msg)
	}
	accepted := map[int]bool{}
	_, msg := run(idx)
	rejected := map[int]bool{}
	for _, m := range smaliFileError.FindAllStringSubmatch(msg, -1) {
		var i int
		fmt.Sscanf(m[1], "s%d", &i)
		rejected[i] = true
	}
	var rest []int
	for _, i := range idx {
		if !rejected[i] {
			rest = append(rest, i)
		}
	}
	sort.Ints(rest)
	// smali assembles some files alone that it cannot assemble together
	// with others (a label error while writing code), so the presumed
	// accepted ones are confirmed in halves, down to single files.
	var confirm func(files []int)
	confirm = func(files []int) {
		if len(files) == 0 {
			return
		}
		if ok, _ := run(files); ok {
			for _, i := range files {
				accepted[i] = true
			}
			return
		}
		if len(files) > 1 {
			confirm(files[:len(files)/2])
			confirm(files[len(files)/2:])
		}
	}
	confirm(rest)
	return accepted
}
