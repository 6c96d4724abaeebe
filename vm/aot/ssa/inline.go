package ssa

// Inliner returns the optimised IR of the method an invoke calls, when
// the caller's compiler knows statically which method that is and may
// replace the call by its body; nil leaves the call alone. Whoever
// supplies it vouches for what the IR cannot show: that the invoke
// always selects this method, that the call needs no class
// initialisation, and that the body's field accesses resolve (vm/aot's
// SameClassInliner: static and private methods and constructors of the
// caller's own class, from its own DEX file). The pass itself decides
// whether the body is small and safe enough to splice (inlinable).
type Inliner func(call *Value) *Func

// MaxInlineValues bounds the values a callee may have, besides its
// parameters and constants, to be inlined: leaf accessors and
// arithmetic helpers, whose call costs more than their body.
const MaxInlineValues = 16

// inlineDoc describes the pass for --passes.
const inlineDoc = "replace calls of small leaf methods of the caller's class by their body (with Config.Inline)"

// inlineCalls replaces each invoke whose callee (from inl: static and
// direct ones, or virtual ones whose receiver's class inl knows) is
// inlinable by a copy of the callee's values, placed where the
// call was; the call's result becomes a Copy of the returned value,
// which copyprop forwards.
//
// What may be inlined never throws, allocates, calls, takes a monitor
// or reaches a safepoint (inlinable), so no stack trace, handler, class
// initialisation, collection or method hook can tell the difference,
// except that the call no longer exists: method entry/exit hooks would
// not see it (the engine inlines only when none is set). The receiver's
// barrier of paper 003 is kept: with barriers on, an instance call's
// body starts with an Access of its receiver, the access point the
// barriers pass instruments in the call's place, so every level inlines
// what off does and the barrier table measures barriers, not inlining.
func inlineCalls(f *Func, inl Inliner, barriers BarrierLevel) {
	if inl == nil {
		return
	}
	for _, b := range f.Blocks {
		for i := 0; i < len(b.Values); i++ {
			call := b.Values[i]
			switch call.Op {
			case OpInvokeStatic, OpInvokeDirect:
			case OpInvokeVirtual, OpInvokeInterface:
				// only an Inliner that fixed the receiver's class
				// offers these: vm/aot's VirtualInliner compiling one
				// variant of a guarded inline
			default:
				continue
			}
			g := inl(call)
			if g == nil {
				continue
			}
			body, ret, ok := inlinable(g, call)
			if !ok {
				continue
			}
			if barriers != BarriersOff && call.Op != OpInvokeStatic && len(call.Args) > 0 && call.Args[0].Type == TypeRef {
				acc := f.newValue(OpAccess, TypeVoid, 0, []*Value{call.Args[0]})
				acc.Block, acc.PC = b, call.PC
				b.Values = append(b.Values, nil)
				copy(b.Values[i+1:], b.Values[i:])
				b.Values[i] = acc
				i++
			}
			n := splice(b, i, call, body, ret)
			i += n
		}
	}
	f.Invalidate()
}

// inlinable returns the values of g to copy into a caller at call, in
// order, and the returned value (nil for void): g must be a chain of
// plain blocks without φs or exception edges ending in a Return, whose
// parameters have the types of call's arguments, and whose values are
// arithmetic, constants and field accesses of its receiver (This, non-null
// since the caller checked it before the call) — nothing that throws.
func inlinable(g *Func, call *Value) (body []*Value, ret *Value, ok bool) {
	seen := map[*Block]bool{}
	b := g.Entry()
	n := 0
	for {
		if seen[b] || b.NCatch != 0 {
			return nil, nil, false
		}
		seen[b] = true
		for _, v := range b.Values {
			switch v.Op {
			case OpThis:
				if len(call.Args) == 0 || call.Op == OpInvokeStatic || call.Args[0].Type != TypeRef {
					return nil, nil, false
				}
			case OpParam:
				if v.Aux < 0 || int(v.Aux) >= len(call.Args) || call.Args[v.Aux].Type != v.Type {
					return nil, nil, false
				}
			case OpConst:
			case OpCopy, OpAdd, OpSub, OpMul, OpDiv, OpRem, OpAnd, OpOr, OpXor, OpShl, OpShr, OpUshr,
				OpNeg, OpNot, OpConv, OpIntToByte, OpIntToChar, OpIntToShort, OpCmpl, OpCmpg:
				// Div and Rem throw only through their DivZeroCheck,
				// which is not allowed: one left means the divisor may
				// be zero
				n++
			case OpIGet, OpIPut:
				if v.Args[0].Op != OpThis {
					return nil, nil, false
				}
				n++
			default:
				return nil, nil, false
			}
			body = append(body, v)
		}
		switch {
		case b.Kind == BlockReturn:
			if (b.Control == nil) != (call.Type == TypeVoid) || b.Control != nil && b.Control.Type != call.Type {
				return nil, nil, false
			}
			if n > MaxInlineValues {
				return nil, nil, false
			}
			return body, b.Control, true
		case b.Kind == BlockPlain && len(b.Succs) == 1 && len(b.Succs[0].Preds) == 1:
			b = b.Succs[0]
		default:
			return nil, nil, false
		}
	}
}

// splice inserts copies of body before b.Values[i], the call, and turns
// the call into a Copy of the copy of ret (or deletes it when void). It
// returns how many values it inserted.
func splice(b *Block, i int, call *Value, body []*Value, ret *Value) int {
	out, m := copyBody(b, call, body)
	vs := make([]*Value, 0, len(b.Values)+len(out))
	vs = append(vs, b.Values[:i]...)
	vs = append(vs, out...)
	if ret != nil {
		call.Op, call.Args, call.Aux = OpCopy, []*Value{m[ret]}, 0
		vs = append(vs, call)
	}
	vs = append(vs, b.Values[i+1:]...)
	b.Values = vs
	if ret == nil {
		return len(out) - 1
	}
	return len(out)
}

// copyBody returns copies of body for block b, at call's pc, with the
// callee's parameters (This, Param) replaced by call's arguments, in
// body's order, and the copy of each value of body.
func copyBody(b *Block, call *Value, body []*Value) ([]*Value, map[*Value]*Value) {
	m := map[*Value]*Value{}
	var out []*Value
	for _, v := range body {
		switch v.Op {
		case OpThis:
			m[v] = call.Args[0]
			continue
		case OpParam:
			m[v] = call.Args[v.Aux]
			continue
		}
		args := make([]*Value, len(v.Args))
		for j, a := range v.Args {
			args[j] = m[a]
		}
		c := b.Func.newValue(v.Op, v.Type, v.Aux, args)
		c.Block, c.PC = b, call.PC
		m[v] = c
		out = append(out, c)
	}
	return out, m
}
