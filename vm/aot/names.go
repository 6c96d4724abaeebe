package aot

import (
	"fmt"
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
			var vs []string
			for k, pairs := range ssa.TargetIsVariants(v) {
				var s []string
				for _, aux := range pairs {
					ref, want, _, _ := ssa.TargetIsFields(aux)
					s = append(s, f.MethodName(ref)+" selects "+f.MethodName(want))
				}
				vs = append(vs, fmt.Sprintf("%d: %s", k+1, strings.Join(s, " and ")))
			}
			return strings.Join(vs, "; ")
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
