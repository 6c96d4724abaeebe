package microbench

import (
	"github.com/droidprof/droidprof/vm/smali"
	"github.com/droidprof/droidprof/vm/smali/ast"
)

// The shared classes: the operand sources, the base class with a field of
// every kind and the method invoke-virtual and invoke-super call, the
// interface, and the class every benchmark extends.
const (
	opsClass    = "Lopcost/Ops;"
	baseClass   = "Lopcost/Base;"
	ifaceClass  = "Lopcost/Iface;"
	targetClass = "Lopcost/Target;"
)

// Operands come from static fields, not constants, so that a compiler
// cannot fold the units away; results go to the sink fields after the
// loop, so that it cannot drop them.
var opsFields = []struct {
	name, typ string
	init      ast.Value
}{
	{"a", "I", ast.Int(7)}, {"b", "I", ast.Int(3)}, {"zero", "I", ast.Int(0)}, {"one", "I", ast.Int(1)},
	{"mone", "I", ast.Int(-1)}, {"big", "I", ast.Int(1000000)}, {"four", "I", ast.Int(4)},
	{"z", "Z", ast.Bool(true)}, {"by", "B", ast.Byte(5)}, {"ch", "C", ast.Char('a')}, {"sh", "S", ast.Short(9)},
	{"aj", "J", ast.Long(7)}, {"bj", "J", ast.Long(3)}, {"zeroj", "J", ast.Long(0)}, {"onej", "J", ast.Long(1)},
	{"monej", "J", ast.Long(-1)}, {"bigj", "J", ast.Long(1000000)},
	{"af", "F", ast.Float(7)}, {"bf", "F", ast.Float(3)}, {"zerof", "F", ast.Float(0)}, {"onef", "F", ast.Float(1)},
	{"bigf", "F", ast.Float(1e9)},
	{"ad", "D", ast.Double(7)}, {"bd", "D", ast.Double(3)}, {"zerod", "D", ast.Double(0)}, {"oned", "D", ast.Double(1)},
	{"bigd", "D", ast.Double(1e9)},
	{"si", "I", nil}, {"sj", "J", nil}, {"sf", "F", nil}, {"sd", "D", nil}, {"so", "Ljava/lang/Object;", nil},
	// the operand grids' operands, set by the driver
	{"gai", "I", nil}, {"gbi", "I", nil}, {"gaj", "J", nil}, {"gbj", "J", nil}, {"gad", "D", nil}, {"gbd", "D", nil},
}

// fieldKinds are the field types the field benchmarks access, by the
// suffix of their opcodes ("" for int, "-wide", ...).
var fieldKinds = []struct{ suffix, typ, name string }{
	{"", "I", "fi"}, {"-wide", "J", "fj"}, {"-object", "Ljava/lang/Object;", "fo"},
	{"-boolean", "Z", "fz"}, {"-byte", "B", "fb"}, {"-char", "C", "fc"}, {"-short", "S", "fs"},
}

func shared() []*ast.Class {
	ops := smali.NewClass(opsClass, ast.AccPublic|ast.AccFinal).Super("Ljava/lang/Object;")
	for _, f := range opsFields {
		fb := ops.Field(ast.AccPublic|ast.AccStatic, f.name, f.typ)
		if f.init != nil {
			fb.Init(f.init)
		}
	}

	base := smali.NewClass(baseClass, ast.AccPublic).Super("Ljava/lang/Object;")
	for _, k := range fieldKinds {
		base.Field(ast.AccPublic, k.name, k.typ)
		base.Field(ast.AccPublic|ast.AccStatic, "s"+k.name, k.typ)
	}
	base.Method(ast.AccPublic|ast.AccConstructor, "<init>", "()V").Registers(1).
		Op("invoke-direct", smali.Regs(smali.V(0)), smali.MethodRef("Ljava/lang/Object;", "<init>", "()V")).
		Op("return-void")
	base.Method(ast.AccPublic, "v", "()V").Registers(1).Op("return-void")

	iface := smali.NewClass(ifaceClass, ast.AccPublic|ast.AccInterface|ast.AccAbstract).Super("Ljava/lang/Object;")
	iface.Method(ast.AccPublic|ast.AccAbstract, "iv", "()V")

	target := smali.NewClass(targetClass, ast.AccPublic).Super(baseClass).Implements(ifaceClass)
	target.Method(ast.AccPublic|ast.AccConstructor, "<init>", "()V").Registers(1).
		Op("invoke-direct", smali.Regs(smali.V(0)), smali.MethodRef(baseClass, "<init>", "()V")).
		Op("return-void")
	target.Method(ast.AccPublic, "iv", "()V").Registers(1).Op("return-void")

	return []*ast.Class{ops.Class(), base.Class(), iface.Class(), target.Class()}
}

// callees are the methods of a benchmark class its invokes call: sv is
// the bare call, sc and scw the calls the return benchmarks subtract
// (a constant and return-void), si, sj and so return a value.
func callees(cb *smali.ClassBuilder) {
	st := ast.AccPublic | ast.AccStatic
	cb.Method(st, "sv", "()V").Registers(0).Op("return-void")
	cb.Method(st, "sc", "()V").Registers(1).Op("const/4", smali.V(0), ast.Int(1)).Op("return-void")
	cb.Method(st, "scw", "()V").Registers(2).Op("const-wide/16", smali.V(0), ast.Int(1)).Op("return-void")
	cb.Method(st, "si", "()I").Registers(1).Op("const/4", smali.V(0), ast.Int(1)).Op("return", smali.V(0))
	cb.Method(st, "sj", "()J").Registers(2).Op("const-wide/16", smali.V(0), ast.Int(1)).Op("return-wide", smali.V(0))
	cb.Method(st, "so", "()Ljava/lang/Object;").Registers(1).Op("const/4", smali.V(0), ast.Int(0)).Op("return-object", smali.V(0))
	cb.Method(ast.AccPrivate, "pv", "()V").Registers(1).Op("return-void")
}
