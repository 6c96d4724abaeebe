package aot

import (
	"strings"

	"github.com/droidprof/droidprof/vm/aot/ssa"
	"github.com/droidprof/droidprof/vm/dex"
)

// Namer returns an ssa.Namer that comments the dumps with the field,
// method, type or string a value's Aux indexes in f.
func Namer(f *dex.File) ssa.Namer {
	return func(v *ssa.Value) string {
		i := uint32(v.Aux)
		switch v.Op {
		case ssa.OpIGet, ssa.OpIPut, ssa.OpSGet, ssa.OpSPut:
			return f.FieldName(i)
		case ssa.OpInvokeVirtual, ssa.OpInvokeSuper, ssa.OpInvokeDirect, ssa.OpInvokeStatic, ssa.OpInvokeInterface:
			return f.MethodName(i)
		case ssa.OpNewInstance, ssa.OpNewArray, ssa.OpFilledNewArray, ssa.OpCheckCast, ssa.OpInstanceOf, ssa.OpConstClass:
			return f.TypeName(i)
		case ssa.OpTargetIs:
			var s []string
			for _, aux := range ssa.TargetIsPairs(v) {
				ref, want, _, _ := ssa.TargetIsFields(aux)
				s = append(s, f.MethodName(ref)+" selects "+f.MethodName(want))
			}
			return strings.Join(s, " and ")
		case ssa.OpConstString:
			s := f.Str(i)
			if len(s) > 40 {
				s = s[:40] + "..."
			}
			return "\"" + s + "\""
		}
		return ""
	}
}
