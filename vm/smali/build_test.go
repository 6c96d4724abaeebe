package smali

import (
	"strings"
	"testing"

	"github.com/droidprof/droidprof/vm/smali/ast"
)

// benchClass builds, in Go, a class like the ones opcost generates: a
// loop, arithmetic, a try/catch, a switch, array data and debug info.
func benchClass() *ClassBuilder {
	b := NewClass("Lorg/droidprof/Bench;", ast.AccPublic|ast.AccFinal).
		Super("Ljava/lang/Object;").
		Implements("Ljava/lang/Runnable;").
		Source("Bench.java").
		Annotate(&ast.Annotation{Visibility: "runtime", Type: "Ljava/lang/Deprecated;"})
	b.Field(ast.AccPrivate|ast.AccStatic, "count", "I").Init(ast.Int(3))
	b.Field(ast.AccPublic|ast.AccVolatile, "last", "J")

	b.Method(ast.AccPublic|ast.AccConstructor, "<init>", "()V").Registers(1).
		Op("invoke-direct", Regs(P(0)), MethodRef("Ljava/lang/Object;", "<init>", "()V")).
		Op("return-void")

	b.Method(ast.AccPublic, "run", "()V").Locals(0).
		Op("return-void")

	m := b.Method(ast.AccPublic|ast.AccStatic, "sum", "(IJ)J").Locals(6).
		Param(P(0), "n").Param(P(1), "seed")
	m.Prologue().Line(10).
		Op("const-wide/16", V(0), ast.Int(0)).
		Local(V(0), "total", "J", "").
		Label("loop").
		Op("int-to-long", V(2), P(0)).
		Op("add-long/2addr", V(0), V(2)).
		Op("add-int/lit8", P(0), P(0), ast.Int(-1)).
		Op("if-gtz", P(0), LabelRef("loop")).
		Label("try_start").
		Op("div-long/2addr", V(0), P(1)).
		Label("try_end").
		Catch("Ljava/lang/ArithmeticException;", "try_start", "try_end", "handler").
		Catch("", "try_start", "try_end", "handler").
		Op("sget", V(4), FieldRef("", "count", "I")).
		Op("packed-switch", V(4), LabelRef("switch")).
		Op("new-array", V(4), V(4), TypeRef("[I")).
		Op("fill-array-data", V(4), LabelRef("data")).
		Op("invoke-static/range", Range(V(0), V(1)), MethodRef("Lorg/droidprof/Bench;", "log", "(J)V")).
		EndLocal(V(0)).
		Epilogue().
		Op("return-wide", V(0)).
		Label("handler").
		Op("move-exception", V(5)).
		Op("const-wide/16", V(0), ast.Int(-1)).
		Op("return-wide", V(0)).
		Label("switch").
		PackedSwitch(0, "loop", "handler").
		Label("sparse").
		SparseSwitch([]int32{-5, 7}, []string{"loop", "handler"}).
		Label("data").
		ArrayData(4, ast.Int(1), ast.Int(2), ast.Float(1.5))

	b.Method(ast.AccPublic|ast.AccStatic, "log", "(J)V").Registers(2).
		Op("sget-object", V(0), FieldRef("Ljava/lang/System;", "out", "Ljava/io/PrintStream;")).
		Op("invoke-virtual", Regs(V(0), P(0), P(1)), MethodRef("Ljava/io/PrintStream;", "println", "(J)V")).
		Op("return-void")
	return b
}

func TestBuilder(t *testing.T) {
	c, err := benchClass().Build(&Options{API: 28})
	if err != nil {
		t.Fatalf("Build: %v\n%s", err, Format(c))
	}
	text := string(Format(c))
	for _, want := range []string{
		".class public final Lorg/droidprof/Bench;",
		".field public volatile last:J",
		".method public constructor <init>()V",
		"    add-int/lit8 p0, p0, -1",
		"    .catch Ljava/lang/ArithmeticException; {:try_start .. :try_end} :handler",
		"    .catchall {:try_start .. :try_end} :handler",
		"    invoke-static/range {v0 .. v1}, Lorg/droidprof/Bench;->log(J)V",
		"    .local v0, \"total\":J",
		"        1.5f",
		"        -5 -> :loop",
	} {
		if !strings.Contains(text, want+"\n") {
			t.Errorf("formatted class lacks %q:\n%s", want, text)
		}
	}
	// The built tree and the tree parsed from its text are the same.
	roundTrip(t, "bench", c, 28)
}

func TestBuilderErrors(t *testing.T) {
	tests := []struct {
		name  string
		build func(m *MethodBuilder)
		want  string
	}{
		{"unknown mnemonic", func(m *MethodBuilder) { m.Op("add-integer", V(0), V(1), V(2)) },
			`LB;->m(I)V:1:1: unknown instruction "add-integer"`},
		{"operand count", func(m *MethodBuilder) { m.Op("add-int", V(0), V(1)) },
			`LB;->m(I)V:1:1: add-int takes 3 operands (register (v0-v255), register (v0-v255), register (v0-v255)), found 2`},
		{"operand kind", func(m *MethodBuilder) { m.Op("const/4", V(0), V(1)) },
			`LB;->m(I)V:1:1: const/4: operand *ast.Register where a 4-bit literal is expected`},
		{"register range", func(m *MethodBuilder) { m.Op("move", V(16), V(0)) },
			`LB;->m(I)V:1:1: invalid register v16: must be between v0 and v15`},
		{"parameter register", func(m *MethodBuilder) { m.Op("move", V(0), P(0)) },
			`LB;->m(I)V:1:1: invalid register p0 (v20 in this method): must be between v0 and v15`},
		{"literal kind", func(m *MethodBuilder) { m.Op("const/4", V(0), ast.Double(1)) },
			`LB;->m(I)V:1:1: double literal 1.0 where a 4-bit literal is expected`},
		{"label", func(m *MethodBuilder) { m.Op("goto", LabelRef("nowhere")) },
			`LB;->m(I)V:1:1: label :nowhere is not defined in this method`},
		{"type", func(m *MethodBuilder) { m.Op("check-cast", V(0), TypeRef("Ljava/lang/String")) },
			`LB;->m(I)V:1:1: invalid type descriptor "Ljava/lang/String"`},
		{"proto", func(m *MethodBuilder) { m.Op("invoke-static", Regs(), MethodRef("LB;", "x", "(I")) },
			`LB;->m(I)V:1:1: invalid return type "(I"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := NewClass("LB;", ast.AccPublic).Super("Ljava/lang/Object;")
			m := b.Method(ast.AccStatic, "m", "(I)V").Registers(21)
			tt.build(m)
			m.Op("return-void")
			_, err := b.Build(nil)
			if err == nil || err.Error() != tt.want {
				t.Errorf("Build error:\n%v\nwant:\n%s", err, tt.want)
			}
		})
	}
}

func TestParseProto(t *testing.T) {
	tests := []struct {
		in     string
		params []string
		ret    string
		ok     bool
	}{
		{"()V", nil, "V", true},
		{"(IJ)Z", []string{"I", "J"}, "Z", true},
		{"([[ILjava/lang/String;D)[Ljava/lang/Object;", []string{"[[I", "Ljava/lang/String;", "D"}, "[Ljava/lang/Object;", true},
		{"(I", nil, "", false},
		{"I)V", nil, "", false},
		{"(L;)V", nil, "", false},
		{"(V)V", nil, "", false},
		{"()", nil, "", false},
		{"()II", nil, "", false},
	}
	for _, tt := range tests {
		p, err := ParseProto(tt.in)
		if (err == nil) != tt.ok {
			t.Errorf("ParseProto(%q) error = %v, want ok=%v", tt.in, err, tt.ok)
			continue
		}
		if err == nil && (strings.Join(p.Params, ",") != strings.Join(tt.params, ",") || p.Return != tt.ret) {
			t.Errorf("ParseProto(%q) = %v %q, want %v %q", tt.in, p.Params, p.Return, tt.params, tt.ret)
		}
	}
}

// BenchmarkBuildFormatParse measures generating a 1000-method class the
// way opcost will, printing it and parsing it back.
func BenchmarkBuildFormatParse(b *testing.B) {
	for i := 0; i < b.N; i++ {
		cb := NewClass("LGen;", ast.AccPublic).Super("Ljava/lang/Object;")
		for j := 0; j < 1000; j++ {
			cb.Method(ast.AccPublic|ast.AccStatic, "m"+strings.Repeat("x", j%7), "(I)I").Registers(3).
				Op("add-int/lit8", V(0), P(0), ast.Int(int32(j%100))).
				Op("mul-int/2addr", V(0), V(0)).
				Op("return", V(0))
		}
		c, err := cb.Build(nil)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Parse("Gen.smali", Format(c), nil); err != nil {
			b.Fatal(err)
		}
	}
}
