package trace

import (
	"compress/gzip"
	"fmt"
	"io"
	"strings"
	"time"

	"google.golang.org/protobuf/encoding/protowire"
)

// PprofOptions tunes WritePprof.
type PprofOptions struct {
	// EventOverhead, when positive, is deducted from every calling-context
	// node's self time: each activation is charged for its own entry/exit
	// pair (one overhead, per the model in the reference notes: the part of
	// the entry event after its clock read plus the part of the exit event
	// before it) and for each direct child's pair, which runs while the
	// parent's clock is ticking. A node's self time becomes
	//	self − (calls + childCalls)·EventOverhead
	// clamped at 0, for wall and CPU alike (the recording runs on the
	// thread). Zero means no deduction; pass t.EventOverhead to use the
	// calibrated value.
	EventOverhead time.Duration
	// Uncompressed writes the raw protobuf instead of gzip; pprof reads
	// both.
	Uncompressed bool
}

// Sample types of the profiles WritePprof writes, in value order. The
// default sample type is "wall".
var PprofSampleTypes = [...]struct{ Type, Unit string }{
	{"calls", "count"},
	{"wall", "nanoseconds"},
	{"cpu", "nanoseconds"},
}

// cctNode is one calling-context-tree node: one method reached by one
// call path on one thread.
type cctNode struct {
	parent     int // -1 for a thread's outermost method
	tid        uint32
	method     uint32
	calls      int64
	childCalls int64
	selfWall   int64
	selfCPU    int64
}

// WritePprof writes t as a pprof profile (profile.proto, gzipped unless
// opt.Uncompressed). Instrumentation has no samples, so it builds the
// calling-context tree of each thread from the events and writes one
// Sample per tree node whose values are the node's call count and its
// self (exclusive) wall and CPU time; pprof then derives flat = self and
// cum = inclusive along the leaf-first stacks, counting a function once
// per stack, so recursion is not double-counted. Each sample carries the
// thread as Label thread=<name> and NumLabel tid=<id>, so -tagfocus can
// pick threads. There is one Function (Name "pkg.Class.method",
// SystemName "Lpkg/Class;->method(sig)", Filename, StartLine) and one
// Location per method. Activations still open at the end are closed at
// their thread's last event (see walk).
func WritePprof(w io.Writer, t *Trace, opt PprofOptions) error {
	methods := t.MethodByID()
	threads := t.ThreadByID()
	type key struct {
		parent int
		tid    uint32
		method uint32
	}
	var nodes []cctNode
	index := map[key]int{}
	var unknown error
	walk(t, walker{
		enter: func(tid uint32, parent, f *frame) {
			k := key{parent: -1, tid: tid, method: f.method}
			if parent != nil {
				k.parent = parent.ctx
			}
			n, ok := index[k]
			if !ok {
				if methods[f.method] == nil && unknown == nil {
					unknown = fmt.Errorf("pprof: an event names unknown method %d", f.method)
				}
				n = len(nodes)
				index[k] = n
				nodes = append(nodes, cctNode{parent: k.parent, tid: tid, method: f.method})
			}
			f.ctx = n
		},
		close: func(tid uint32, f *frame, exitWall, exitCPU int64, _ closeKind) {
			n := &nodes[f.ctx]
			n.calls++
			n.childCalls += f.children
			n.selfWall += exitWall - f.enterWall - f.childWall
			n.selfCPU += exitCPU - f.enterCPU - f.childCPU
		},
	})
	if unknown != nil {
		return unknown
	}

	var pb profileBuilder
	pb.str("") // string_table[0] must be ""
	for _, st := range PprofSampleTypes {
		pb.valueType(1, st.Type, st.Unit)
	}

	// Functions and locations: one per method that occurs, numbered in
	// t.Methods order so that output is deterministic.
	locOf := map[uint32]uint64{}
	for _, n := range nodes {
		locOf[n.method] = 0
	}
	var next uint64
	for i := range t.Methods {
		m := &t.Methods[i]
		if _, ok := locOf[m.ID]; !ok {
			continue
		}
		next++
		locOf[m.ID] = next
		var fn []byte
		fn = protowire.AppendTag(fn, 1, protowire.VarintType)
		fn = protowire.AppendVarint(fn, next)
		fn = appendVarint(fn, 2, pb.str(m.FullName()))
		fn = appendVarint(fn, 3, pb.str(smaliName(m)))
		fn = appendVarint(fn, 4, pb.str(m.File))
		fn = appendVarint(fn, 5, int64(m.Line))
		pb.msg(5, fn)

		var line []byte
		line = appendVarint(line, 1, int64(next))
		line = appendVarint(line, 2, int64(m.Line))
		var loc []byte
		loc = appendVarint(loc, 1, int64(next))
		loc = appendVarint(loc, 2, 1) // mapping 1
		loc = appendVarint(loc, 3, int64(next)<<4)
		loc = protowire.AppendTag(loc, 4, protowire.BytesType)
		loc = protowire.AppendBytes(loc, line)
		pb.msg(4, loc)
	}

	o := opt.EventOverhead.Nanoseconds()
	for i := range nodes {
		n := &nodes[i]
		wall, cpu := n.selfWall, n.selfCPU
		if o > 0 {
			d := (n.calls + n.childCalls) * o
			wall, cpu = wall-d, cpu-d
		}
		// Self time can only be negative if a clock went backwards or
		// the deduction overshot; pprof sums values, so clamp.
		wall, cpu = max(wall, 0), max(cpu, 0)
		var s []byte
		var locs []byte
		for j := i; j >= 0; j = nodes[j].parent {
			locs = protowire.AppendVarint(locs, locOf[nodes[j].method])
		}
		s = protowire.AppendTag(s, 1, protowire.BytesType)
		s = protowire.AppendBytes(s, locs)
		var vals []byte
		for _, v := range []int64{n.calls, wall, cpu} {
			vals = protowire.AppendVarint(vals, uint64(v))
		}
		s = protowire.AppendTag(s, 2, protowire.BytesType)
		s = protowire.AppendBytes(s, vals)
		name := ""
		if th := threads[n.tid]; th != nil {
			name = th.Name
		}
		var l []byte
		l = appendVarint(l, 1, pb.str("thread"))
		l = appendVarint(l, 2, pb.str(name))
		s = protowire.AppendTag(s, 3, protowire.BytesType)
		s = protowire.AppendBytes(s, l)
		l = l[:0]
		l = appendVarint(l, 1, pb.str("tid"))
		l = appendVarint(l, 3, int64(n.tid))
		s = protowire.AppendTag(s, 3, protowire.BytesType)
		s = protowire.AppendBytes(s, l)
		pb.msg(2, s)
	}

	// One mapping standing for the dex code, so that pprof does not try
	// to symbolize addresses: all functions are already known.
	var mp []byte
	mp = appendVarint(mp, 1, 1)
	mp = appendVarint(mp, 2, 0)
	mp = appendVarint(mp, 3, int64(next+1)<<4)
	mp = appendVarint(mp, 5, pb.str("classes.dex"))
	for _, f := range []protowire.Number{7, 8, 9} {
		mp = appendVarint(mp, f, 1)
	}
	pb.msg(3, mp)

	var pt []byte
	pt = appendVarint(pt, 1, pb.str("wall"))
	pt = appendVarint(pt, 2, pb.str("nanoseconds"))
	pb.msg(11, pt)
	pb.int(12, 1)
	if !t.Start.IsZero() {
		pb.int(9, t.Start.UnixNano())
	}
	dur := t.Elapsed.Nanoseconds()
	if dur == 0 && len(t.Events) > 0 {
		dur = t.Events[len(t.Events)-1].Wall - t.Events[0].Wall
	}
	pb.int(10, dur)
	if opt.EventOverhead > 0 {
		pb.int(13, pb.str(fmt.Sprintf("dpa: event overhead %v deducted per event from self times", opt.EventOverhead)))
	}
	pb.int(14, pb.str("wall"))

	out := pb.bytes()
	if opt.Uncompressed {
		_, err := w.Write(out)
		return err
	}
	zw := gzip.NewWriter(w)
	if _, err := zw.Write(out); err != nil {
		return err
	}
	return zw.Close()
}

// smaliName is the method in the VM's own notation,
// "Lpkg/Class;->name(sig)", which is what dex tools and ART logs print.
func smaliName(m *Method) string {
	return "L" + strings.ReplaceAll(m.Class, ".", "/") + ";->" + m.Name + m.Signature
}

// profileBuilder accumulates a Profile message. The string table is
// written last (field order does not matter in protobuf), so strings can
// be interned while the other messages are built.
type profileBuilder struct {
	body    []byte
	strings []string
	strIdx  map[string]int64
}

func (b *profileBuilder) str(s string) int64 {
	if b.strIdx == nil {
		b.strIdx = map[string]int64{}
	}
	if i, ok := b.strIdx[s]; ok {
		return i
	}
	i := int64(len(b.strings))
	b.strings = append(b.strings, s)
	b.strIdx[s] = i
	return i
}

func (b *profileBuilder) msg(field protowire.Number, m []byte) {
	b.body = protowire.AppendTag(b.body, field, protowire.BytesType)
	b.body = protowire.AppendBytes(b.body, m)
}

// int writes a varint field of the Profile; repeated fields (comment)
// are written unpacked, which proto parsers accept like the packed form.
func (b *profileBuilder) int(field protowire.Number, v int64) {
	b.body = appendVarint(b.body, field, v)
}

func (b *profileBuilder) valueType(field protowire.Number, typ, unit string) {
	var m []byte
	m = appendVarint(m, 1, b.str(typ))
	m = appendVarint(m, 2, b.str(unit))
	b.msg(field, m)
}

func (b *profileBuilder) bytes() []byte {
	out := b.body
	for _, s := range b.strings {
		out = protowire.AppendTag(out, 6, protowire.BytesType)
		out = protowire.AppendString(out, s)
	}
	return out
}

// appendVarint appends one varint field (most varints in profile.proto
// are string-table indices).
func appendVarint(b []byte, field protowire.Number, v int64) []byte {
	b = protowire.AppendTag(b, field, protowire.VarintType)
	return protowire.AppendVarint(b, uint64(v))
}
