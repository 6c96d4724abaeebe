package ssa

// Variant is one body a guarded inline may run in place of a virtual or
// interface call: Body when every guard holds for the call's receiver.
// Each guard is the Aux of an OpTargetIs (TargetIsAux): the call's own
// method reference selecting Body's method, and, when Body has calls on
// its receiver inlined into it, each of those selecting what was
// inlined; so a hit runs exactly what the calls would have run.
type Variant struct {
	Guards []int64
	Body   *Func
}

// GuardedInliner returns the variants for a virtual or interface invoke,
// most likely first; nil leaves the call alone. Whoever supplies it
// vouches that each variant's Body is what the call runs when its
// guards hold, with no class initialisation to start and no reference
// in it that could fail to resolve (vm/aot's VirtualInliner: the
// implementations the caller's DEX file declares).
type GuardedInliner func(call *Value) []Variant

// MaxVariants bounds the bodies spliced at one call site: CaffeineMark's
// sites are bimorphic, and each variant costs a guard on a miss.
const MaxVariants = 2

// guardInlineDoc describes the pass for --passes.
const guardInlineDoc = "inline small virtual and interface targets behind a guard on the receiver's dispatch, the call on a miss (with Config.Guarded)"

// TargetIsAux packs an OpTargetIs's operands: the invoke's method
// reference ref and the method want (indices of the caller's DEX file),
// the invoke's argument words and whether it is invoke-interface.
func TargetIsAux(ref, want uint32, argc int, iface bool) int64 {
	a := int64(ref&0xffffff) | int64(want&0xffffff)<<24 | int64(argc&0xff)<<48
	if iface {
		a |= 1 << 56
	}
	return a
}

// TargetIsFields unpacks TargetIsAux.
func TargetIsFields(aux int64) (ref, want uint32, argc int, iface bool) {
	return uint32(aux & 0xffffff), uint32(aux >> 24 & 0xffffff), int(aux >> 48 & 0xff), aux>>56&1 != 0
}

// TargetIsVariants returns the TargetIsAux of every dispatch an
// OpTargetIs checks, per variant: Aux counts each variant's dispatches
// (a byte each, the first variant in the low byte) and the constant
// operands after the receiver carry them in order. It returns nil for a
// guard whose operands do not match its counts (not one this pass made).
func TargetIsVariants(v *Value) [][]int64 {
	var vs [][]int64
	args := v.Args[1:]
	for counts := uint64(v.Aux); counts != 0; counts >>= 8 {
		n := int(counts & 0xff)
		if n == 0 || n > len(args) {
			return nil
		}
		pairs := make([]int64, n)
		for i, a := range args[:n] {
			if a.Op != OpConst {
				return nil
			}
			pairs[i] = a.Aux
		}
		vs = append(vs, pairs)
		args = args[n:]
	}
	if len(args) != 0 {
		return nil
	}
	return vs
}

// maxVariantGuards bounds the dispatches of one variant: its count
// takes a byte of the guard's Aux.
const maxVariantGuards = 0xff

// guardInline replaces each virtual or interface invoke for which gi
// offers inlinable variants by one guard and a switch on it: the guard
// (OpTargetIs of the receiver, every variant's dispatches as Long
// constant operands) gives the number of the first variant whose
// dispatches all hold, and the switch branches to a copy of that
// variant's body, or to the call itself for 0; all of them join in a
// block that takes over the rest of the call's block, with a φ for the
// result. One guard per call site lets the engine answer it with one
// class lookup and one cache, where a guard per dispatch, and-ed and
// chained, cost a lookup each.
//
// The bodies are what inline.go splices (inlinable: no throw, call,
// allocation, monitor or safepoint), so a hit differs from the call
// only in that the call's frame never exists, which nothing can observe
// without method hooks (the engine inlines only without them). Calls in
// a block with exception edges are left alone: the split would have to
// share the handlers' φs between the call and what follows it; so are
// those in a Throw block, whose throw pc the front end's tables record
// by block (and a path that throws is not worth the guards). With
// barriers on, each hit block starts with an Access of the receiver,
// the invoke's access point; the miss keeps the call, which the barriers
// pass instruments itself.
func guardInline(f *Func, gi GuardedInliner, barriers BarrierLevel) {
	if gi == nil {
		return
	}
	done := map[*Value]bool{}
	for bi := 0; bi < len(f.Blocks); bi++ {
		b := f.Blocks[bi]
		if b.NCatch != 0 || b.Kind == BlockThrow {
			continue
		}
		for i := 0; i < len(b.Values); i++ {
			call := b.Values[i]
			if call.Op != OpInvokeVirtual && call.Op != OpInvokeInterface || done[call] {
				continue
			}
			done[call] = true
			if len(call.Args) == 0 || call.Args[0].Type != TypeRef {
				continue
			}
			var vs []splicedVariant
			for _, v := range gi(call) {
				if len(v.Guards) == 0 || len(v.Guards) > maxVariantGuards || v.Body == nil {
					continue
				}
				body, ret, ok := inlinable(v.Body, call)
				if !ok {
					continue
				}
				vs = append(vs, splicedVariant{v.Guards, body, ret})
				if len(vs) == MaxVariants {
					break
				}
			}
			if len(vs) == 0 {
				continue
			}
			// the rest of b moved to the join block, appended to
			// f.Blocks, where this loop finds its calls
			guardSplit(b, i, call, vs, barriers)
			break
		}
	}
	f.Invalidate()
}

// splicedVariant is a Variant whose body passed inlinable.
type splicedVariant struct {
	guards []int64
	body   []*Value
	ret    *Value
}

// guardSplit turns b.Values[i], call, into the guard chain of vs.
func guardSplit(b *Block, i int, call *Value, vs []splicedVariant, barriers BarrierLevel) {
	f := b.Func
	join := f.NewBlock(b.Kind)
	join.Control, join.Keys, join.Succs, join.NCatch = b.Control, b.Keys, b.Succs, b.NCatch
	for _, s := range join.Succs {
		for j, p := range s.Preds {
			if p == b {
				s.Preds[j] = join
			}
		}
	}
	rest := append([]*Value(nil), b.Values[i+1:]...)
	for _, v := range rest {
		v.Block = join
	}
	join.Values = rest
	b.Values = b.Values[:i:i]
	b.Kind, b.Control, b.Keys, b.Succs, b.NCatch = BlockPlain, nil, nil, nil, 0

	miss := f.NewBlock(BlockPlain)
	call.Block = miss
	miss.Values = []*Value{call}

	args := []*Value{call.Args[0]}
	var counts int64
	for k, v := range vs {
		counts |= int64(len(v.guards)) << (8 * k)
		for _, aux := range v.guards {
			args = append(args, b.NewValue(OpConst, TypeLong, aux))
		}
	}
	g := b.NewValue(OpTargetIs, TypeInt, counts, args...)
	g.PC = call.PC
	b.Kind, b.Control = BlockSwitch, g
	rets := map[*Block]*Value{}
	for k, v := range vs {
		hit := f.NewBlock(BlockPlain)
		if barriers != BarriersOff {
			hit.NewValue(OpAccess, TypeVoid, 0, call.Args[0]).PC = call.PC
		}
		rets[hit] = spliceCopy(hit, call, v.body, v.ret)
		hit.AddEdge(join)
		b.Keys = append(b.Keys, int32(k+1))
		b.AddEdge(hit)
	}
	b.AddEdge(miss)
	miss.AddEdge(join)
	rets[miss] = call
	if call.Type == TypeVoid {
		return
	}
	phi := join.NewPhi(call.Type)
	replaceUses(f, call, phi) // before phi has the call as an argument
	for _, p := range join.Preds {
		phi.Args = append(phi.Args, rets[p])
	}
}

// spliceCopy appends copies of body to b, parameters replaced by the
// call's arguments, and returns the copy of ret (nil for void).
func spliceCopy(b *Block, call *Value, body []*Value, ret *Value) *Value {
	out, m := copyBody(b, call, body)
	b.Values = append(b.Values, out...)
	if ret == nil {
		return nil
	}
	return m[ret]
}
