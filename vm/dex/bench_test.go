package dex_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/droidprof/droidprof/vm/dex"
	"github.com/droidprof/droidprof/vm/smali"
	"github.com/droidprof/droidprof/vm/smali/ast"
)

// benchSmali generates the smali source of one benchmark class: methods with
// arithmetic, field access, invokes, string constants, a switch, an array
// payload, a try/catch and line and local debug info.
func benchSmali(class, methods int) string {
	var b strings.Builder
	fmt.Fprintf(&b, ".class public LBench%d;\n.super Ljava/lang/Object;\n.source \"Bench%d.java\"\n", class, class)
	fmt.Fprintf(&b, ".field public static counter:I = %d\n.field public value:J\n\n", class)
	for m := 0; m < methods; m++ {
		fmt.Fprintf(&b, ".method public static m%d(IJLjava/lang/String;)I\n    .registers 12\n    .param p0, \"x\"\n    .param p1, \"y\"\n    .line %d\n", m, m*100+1)
		b.WriteString("    const/4 v0, 0x0\n    .local v0, \"sum\":I\n")
		for i := 0; i < 12; i++ {
			fmt.Fprintf(&b, "    .line %d\n", m*100+2+i)
			fmt.Fprintf(&b, "    add-int/lit8 v0, v0, %d\n    mul-int v1, v0, p0\n    sget v2, LBench%d;->counter:I\n", i+1, class)
			fmt.Fprintf(&b, "    add-int/2addr v2, v1\n    sput v2, LBench%d;->counter:I\n    const-wide/16 v4, %d\n    add-long v4, v4, p1\n", class, i)
			fmt.Fprintf(&b, "    const-string v6, \"c%d.m%d.s%d\"\n    invoke-virtual {v6}, Ljava/lang/String;->length()I\n    move-result v7\n    add-int/2addr v0, v7\n", class, m, i)
		}
		b.WriteString("    :try_start\n    div-int v0, v0, p0\n    :try_end\n    .catch Ljava/lang/ArithmeticException; {:try_start .. :try_end} :catch\n")
		b.WriteString("    packed-switch p0, :switch\n    new-array v8, p0, [I\n    fill-array-data v8, :array\n    return v0\n")
		b.WriteString("    :catch\n    move-exception v9\n    const/4 v0, -0x1\n    :case\n    return v0\n")
		b.WriteString("    :switch\n    .packed-switch 0x0\n        :case\n        :case\n        :case\n    .end packed-switch\n")
		b.WriteString("    :array\n    .array-data 4\n        0x1\n        0x2\n        0x3\n        0x4\n    .end array-data\n.end method\n\n")
	}
	return b.String()
}

// benchDEX assembles the benchmark's multi-megabyte DEX from generated smali
// with our own assembler and writer (vm/smali → vm/dex.Build → Write).
func benchDEX(b *testing.B, classes, methods int) []byte {
	b.Helper()
	var parsed []*ast.Class
	for c := 0; c < classes; c++ {
		name := fmt.Sprintf("Bench%d.smali", c)
		cls, err := smali.Parse(name, []byte(benchSmali(c, methods)), &smali.Options{API: 26})
		if err != nil {
			b.Fatal(err)
		}
		parsed = append(parsed, cls)
	}
	data, err := smali.Assemble(parsed, &smali.AssembleOptions{API: 26})
	if err != nil {
		b.Fatal(err)
	}
	return data
}

// BenchmarkAssemble times our smali assembler and DEX writer on the same
// 400 classes.
func BenchmarkAssemble(b *testing.B) {
	data := benchDEX(b, 400, 12)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		benchDEX(b, 400, 12)
	}
}

// BenchmarkReadDecode reads a multi-megabyte DEX file and decodes all of it.
func BenchmarkReadDecode(b *testing.B) {
	const classes, methods = 400, 12
	data := benchDEX(b, classes, methods)
	out := "our assembler"
	b.Logf("%s: %d bytes, %d classes", out, len(data), classes)
	b.Run("Read", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := dex.Read(data); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("ReadDecode", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			f, err := dex.Read(data)
			if err != nil {
				b.Fatal(err)
			}
			if decodeAll(f) == 0 {
				b.Fatal("nothing decoded")
			}
		}
	})
}
