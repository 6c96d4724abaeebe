// Package heapprof writes artobj's Address-Chains as a pprof heap
// profile (profile.proto), the format `go tool pprof` reads: sample
// types alloc_objects/count, alloc_space/bytes, inuse_objects/count and
// inuse_space/bytes (in use = alive at the end of the run), one location
// per allocation site (method and dex pc, with its source line), so that
// `go tool pprof -sample_index=alloc_space -top` lists the sites that
// allocate most. The VM records no call stack at allocations, so a
// sample's stack is its site alone. Each sample also carries the class
// (label "class") and the object size (numeric label "bytes"), as Go's
// own heap profiles do.
//
// The profile is encoded here with protowire: the pprof module is not a
// dependency of droidprof.
package heapprof

import (
	"cmp"
	"compress/gzip"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/droidprof/droidprof/plugins/artobj/chain"
	"github.com/droidprof/droidprof/plugins/artobj/events"
	"google.golang.org/protobuf/encoding/protowire"
)

// SampleTypes are the profile's sample types, in value order; the
// default is alloc_space.
var SampleTypes = [...][2]string{
	{"alloc_objects", "count"},
	{"alloc_space", "bytes"},
	{"inuse_objects", "count"},
	{"inuse_space", "bytes"},
}

// key is one sample: the objects of a site, class and size.
type key struct{ site, class, size uint32 }

// Write writes the heap profile of h (whose names f defines), gzipped.
func Write(w io.Writer, f *events.File, h *chain.Heap) error {
	zw := gzip.NewWriter(w)
	if _, err := zw.Write(Encode(f, h)); err != nil {
		return fmt.Errorf("heapprof: %w", err)
	}
	if err := zw.Close(); err != nil {
		return fmt.Errorf("heapprof: %w", err)
	}
	return nil
}

// Encode returns the profile's protobuf encoding, uncompressed.
func Encode(f *events.File, h *chain.Heap) []byte {
	samples := map[key]*[4]int64{}
	for i := range h.Objects {
		o := &h.Objects[i]
		k := key{o.Site, o.Class, o.Size}
		v := samples[k]
		if v == nil {
			v = new([4]int64)
			samples[k] = v
		}
		v[0]++
		v[1] += int64(o.Size)
		if o.Death == chain.Alive {
			v[2]++
			v[3] += int64(o.Size)
		}
	}
	keys := slices.Collect(func(yield func(key) bool) {
		for k := range samples {
			if !yield(k) {
				return
			}
		}
	})
	slices.SortFunc(keys, func(a, b key) int {
		return cmp.Or(cmp.Compare(a.site, b.site), cmp.Compare(a.class, b.class), cmp.Compare(a.size, b.size))
	})

	e := &encoder{index: map[string]int64{"": 0}, strs: []string{""}}
	var out []byte
	for _, st := range SampleTypes {
		out = protowire.AppendTag(out, 1, protowire.BytesType)
		out = protowire.AppendBytes(out, valueType(e, st[0], st[1]))
	}
	// One function per method, one location per site (IDs from 1).
	funcs := map[string]uint64{}
	locs := map[uint32]uint64{}
	var funcMsgs, locMsgs [][]byte
	location := func(site uint32) uint64 {
		if id, ok := locs[site]; ok {
			return id
		}
		s, ok := f.Sites[site]
		if !ok {
			s = events.SiteDef{Method: fmt.Sprintf("site#%d", site)}
			if site == 0 {
				s.Method = "(the VM)"
			}
		}
		name := s.Method
		fid, ok := funcs[name+s.Sig]
		if !ok {
			fid = uint64(len(funcs) + 1)
			funcs[name+s.Sig] = fid
			var fn []byte
			fn = protowire.AppendTag(fn, 1, protowire.VarintType)
			fn = protowire.AppendVarint(fn, fid)
			fn = appendString(fn, e, 2, name)
			fn = appendString(fn, e, 3, systemName(s))
			fn = appendString(fn, e, 4, s.File)
			funcMsgs = append(funcMsgs, fn)
		}
		id := uint64(len(locs) + 1)
		locs[site] = id
		var line []byte
		line = protowire.AppendTag(line, 1, protowire.VarintType)
		line = protowire.AppendVarint(line, fid)
		if s.Line > 0 {
			line = protowire.AppendTag(line, 2, protowire.VarintType)
			line = protowire.AppendVarint(line, uint64(s.Line))
		}
		var loc []byte
		loc = protowire.AppendTag(loc, 1, protowire.VarintType)
		loc = protowire.AppendVarint(loc, id)
		loc = protowire.AppendTag(loc, 2, protowire.VarintType)
		loc = protowire.AppendVarint(loc, 1) // the mapping
		loc = protowire.AppendTag(loc, 3, protowire.VarintType)
		loc = protowire.AppendVarint(loc, uint64(site)<<32|uint64(uint32(s.PC)))
		loc = protowire.AppendTag(loc, 4, protowire.BytesType)
		loc = protowire.AppendBytes(loc, line)
		locMsgs = append(locMsgs, loc)
		return id
	}
	for _, k := range keys {
		v := samples[k]
		var sm []byte
		sm = protowire.AppendTag(sm, 1, protowire.BytesType)
		sm = protowire.AppendBytes(sm, protowire.AppendVarint(nil, location(k.site)))
		var vals []byte
		for _, x := range v {
			vals = protowire.AppendVarint(vals, uint64(x))
		}
		sm = protowire.AppendTag(sm, 2, protowire.BytesType)
		sm = protowire.AppendBytes(sm, vals)
		class := f.Classes[k.class]
		if class == "" {
			class = fmt.Sprintf("class#%d", k.class)
		}
		var lb []byte
		lb = appendString(lb, e, 1, "class")
		lb = appendString(lb, e, 2, class)
		sm = protowire.AppendTag(sm, 3, protowire.BytesType)
		sm = protowire.AppendBytes(sm, lb)
		lb = appendString(nil, e, 1, "bytes")
		lb = protowire.AppendTag(lb, 3, protowire.VarintType)
		lb = protowire.AppendVarint(lb, uint64(k.size))
		lb = appendString(lb, e, 4, "bytes")
		sm = protowire.AppendTag(sm, 3, protowire.BytesType)
		sm = protowire.AppendBytes(sm, lb)
		out = protowire.AppendTag(out, 2, protowire.BytesType)
		out = protowire.AppendBytes(out, sm)
	}
	var mp []byte
	mp = protowire.AppendTag(mp, 1, protowire.VarintType)
	mp = protowire.AppendVarint(mp, 1)
	mp = protowire.AppendTag(mp, 3, protowire.VarintType)
	mp = protowire.AppendVarint(mp, 1<<63)
	mp = appendString(mp, e, 5, "classes.dex")
	for _, field := range []protowire.Number{7, 8, 9} { // has_functions, has_filenames, has_line_numbers
		mp = protowire.AppendTag(mp, field, protowire.VarintType)
		mp = protowire.AppendVarint(mp, 1)
	}
	out = protowire.AppendTag(out, 3, protowire.BytesType)
	out = protowire.AppendBytes(out, mp)
	for _, l := range locMsgs {
		out = protowire.AppendTag(out, 4, protowire.BytesType)
		out = protowire.AppendBytes(out, l)
	}
	for _, fn := range funcMsgs {
		out = protowire.AppendTag(out, 5, protowire.BytesType)
		out = protowire.AppendBytes(out, fn)
	}
	// period_type and period: one allocation per object, nothing sampled.
	pt := valueType(e, "space", "bytes")
	defaultType := e.str("alloc_space")
	comment := e.str("artobj: every allocation recorded (no sampling); stacks are allocation sites")
	for _, s := range e.strs {
		out = protowire.AppendTag(out, 6, protowire.BytesType)
		out = protowire.AppendString(out, s)
	}
	out = protowire.AppendTag(out, 11, protowire.BytesType)
	out = protowire.AppendBytes(out, pt)
	out = protowire.AppendTag(out, 12, protowire.VarintType)
	out = protowire.AppendVarint(out, 1)
	out = protowire.AppendTag(out, 13, protowire.VarintType)
	out = protowire.AppendVarint(out, uint64(comment))
	out = protowire.AppendTag(out, 14, protowire.VarintType)
	out = protowire.AppendVarint(out, uint64(defaultType))
	return out
}

// systemName is the method's name as the VM knows it, "Lpkg/Cls;->m(sig)".
func systemName(s events.SiteDef) string {
	i := strings.LastIndex(s.Method, ".")
	if i < 0 {
		return s.Method
	}
	return "L" + strings.ReplaceAll(s.Method[:i], ".", "/") + ";->" + s.Method[i+1:] + s.Sig
}

// encoder holds the string table, filled as strings are used; it is
// written after them, which protobuf allows (field order is free).
type encoder struct {
	index map[string]int64
	strs  []string
}

func (e *encoder) str(s string) int64 {
	if i, ok := e.index[s]; ok {
		return i
	}
	i := int64(len(e.strs))
	e.index[s] = i
	e.strs = append(e.strs, s)
	return i
}

func appendString(b []byte, e *encoder, field protowire.Number, s string) []byte {
	b = protowire.AppendTag(b, field, protowire.VarintType)
	return protowire.AppendVarint(b, uint64(e.str(s)))
}

func valueType(e *encoder, typ, unit string) []byte {
	b := appendString(nil, e, 1, typ)
	return appendString(b, e, 2, unit)
}
