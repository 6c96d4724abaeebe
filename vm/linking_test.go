package vm_test

import "testing"

// TestPackagePrivateOverride: a package-private method is not overridden
// by a method of the same name in a subclass from another package; a
// public method declared there is overridden by its own subclasses (as
// ART's run-test 300-package-override checks).
func TestPackagePrivateOverride(t *testing.T) {
	println := func(s string) string {
		return `    sget-object v0, Ljava/lang/System;->out:Ljava/io/PrintStream;
    const-string v1, "` + s + `"
    invoke-virtual {v0, v1}, Ljava/io/PrintStream;->println(Ljava/lang/String;)V
    return-void
`
	}
	ctor := func(super string) string {
		return `.method public constructor <init>()V
    .registers 1
    invoke-direct {p0}, ` + super + `-><init>()V
    return-void
.end method
`
	}
	out, _ := runSmali(t, map[string]string{
		"Main.smali": `.class public LMain;
.super Ljava/lang/Object;
.method public static main([Ljava/lang/String;)V
    .registers 2
    new-instance v0, Lq/Derived;
    invoke-direct {v0}, Lq/Derived;-><init>()V
    invoke-virtual {v0}, Lp/Base;->run()V
    new-instance v0, Lq/Derived2;
    invoke-direct {v0}, Lq/Derived2;-><init>()V
    invoke-virtual {v0}, Lp/Base;->run()V
    invoke-virtual {v0}, Lq/Derived;->foo()V
    return-void
.end method
`,
		"p/Base.smali": `.class public Lp/Base;
.super Ljava/lang/Object;
` + ctor("Ljava/lang/Object;") + `.method public run()V
    .registers 1
    invoke-virtual {p0}, Lp/Base;->foo()V
    return-void
.end method
.method foo()V
    .registers 2
` + println("Base.foo") + `.end method
`,
		"q/Derived.smali": `.class public Lq/Derived;
.super Lp/Base;
` + ctor("Lp/Base;") + `.method public foo()V
    .registers 2
` + println("Derived.foo") + `.end method
`,
		"q/Derived2.smali": `.class public Lq/Derived2;
.super Lq/Derived;
` + ctor("Lq/Derived;") + `.method public foo()V
    .registers 2
` + println("Derived2.foo") + `.end method
`,
	})
	const want = "Base.foo\nBase.foo\nDerived2.foo\n"
	if out != want {
		t.Errorf("stdout\n%s\nwant\n%s", out, want)
	}
}
