package microbench

import (
	"fmt"

	"github.com/droidprof/droidprof/vm/smali"
)

// The linearity study (paper 004, Table 3): whether an instruction's cost
// depends on its neighbours. A representative opcode of each class is
// paired with one partner (div-int, as in the paper); the pair is run
// alternating (partner, X, partner, X, ...) and in halves (the partner's
// copies, then X's), and each is compared with the mean of the two
// opcodes' costs measured alone.

// PartnerName is the benchmark of the partner alone: div-int on
// registers no other benchmark's setup uses, so that it combines with any.
// Its copies do not depend on one another: a chain of dependent divisions
// is bound by the divider's latency, which the other opcode of a pair
// would hide (alternating with a chain, every pair came out 12-30 %
// cheaper than the mean; plugins/opcost/BENCHMARKS.md).
const PartnerName = "linearity-partner"

// LinearityOps are the paired opcodes, one per class of Table 1 whose
// opcodes can stand alone (a return, a move-result or a monitor needs
// another instruction in its unit).
var LinearityOps = []string{"nop", "move", "throw", "const/16", "instance-of", "array-length", "new-instance",
	"goto", "cmp-long", "aget", "iget", "sget", "invoke-static", "add-int", "int-to-long"}

// Pair forms.
const (
	Alternating = "alternating"
	Halves      = "halves"
)

// PairName names a pair benchmark: "div-int alternating aget".
func PairName(op, form string) string { return "div-int " + form + " " + op }

var partner = &Bench{Name: PartnerName, Class: classLinearity,
	setup: partnerSetup, sinks: sinks(sink(17, "I")), unit: partnerUnit}

const classLinearity = "linearity"

func partnerSetup(m *smali.MethodBuilder, _ string) {
	load(m, 17, "a", "I")
	load(m, 18, "one", "I")
	load(m, 19, "a", "I")
}

func partnerUnit(u *unit) { u.op("div-int", v(17), v(19), v(18)) }

// Linearity returns the benchmarks of the linearity study for ops (nil:
// LinearityOps): the empty loop, the partner alone, each op alone and its
// two pairs.
func Linearity(ops []string) ([]*Bench, error) {
	if ops == nil {
		ops = LinearityOps
	}
	out := []*Bench{all[0], partner}
	for _, op := range ops {
		b, ok := Lookup(op)
		if !ok || !b.Measured() || b.Base != "" || len(b.Split) > 0 || b.Class == classHelper || b.Class == classLoop {
			return nil, fmt.Errorf("opcost: %q cannot be paired in the linearity study: it needs an opcode measured alone by a unit of its own", op)
		}
		out = append(out, b)
		for _, form := range []string{Alternating, Halves} {
			out = append(out, pair(b, form))
		}
	}
	return out, nil
}

// pair builds a pair benchmark: loop_size instructions, half of them the
// partner's.
func pair(b *Bench, form string) *Bench {
	return &Bench{
		Name:  PairName(b.Name, form),
		Class: classLinearity,
		setup: func(m *smali.MethodBuilder, cls string) {
			partnerSetup(m, cls)
			if b.setup != nil {
				b.setup(m, cls)
			}
		},
		sinks: append(sinks(sink(17, "I")), b.sinks...),
		unit: func(u *unit) {
			first := u.k%2 == 0
			if form == Halves {
				first = u.k < u.size/2
			}
			if first {
				partnerUnit(u)
			} else {
				b.unit(u)
			}
		},
	}
}
