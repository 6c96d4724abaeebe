package oat

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"os"

	"github.com/droidprof/droidprof/vm/aot"
	"github.com/droidprof/droidprof/vm/aot/frontend"
	"github.com/droidprof/droidprof/vm/aot/ssa"
)

// ReadFile reads the .oat cache at path; its errors name the file.
func ReadFile(path string) (*Cache, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	c, err := Read(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return c, nil
}

// Read decodes an .oat cache. Every method's IR is decoded and checked
// (ssa.Check) before Read returns, so a cache Read accepts is whole. A
// file that is not an intact cache is a *CorruptError naming the offset
// (errors.Is ErrCorrupt); one of another format version wraps
// ErrCompiler. Read never panics.
func Read(data []byte) (*Cache, error) {
	if len(data) < len(Magic) || string(data[:len(Magic)]) != Magic {
		if bytes.HasPrefix([]byte(Magic), data) {
			return nil, &CorruptError{len(data), fmt.Sprintf("truncated: %d bytes, not even the magic", len(data))}
		}
		n := min(len(data), len(Magic))
		return nil, &CorruptError{0, fmt.Sprintf("not an .oat cache: the file starts with %q, an .oat cache with %q", data[:n], Magic)}
	}
	if len(data) < 12 {
		return nil, &CorruptError{len(data), fmt.Sprintf("truncated: %d bytes, the header alone is %d", len(data), headerSize)}
	}
	if v := binary.LittleEndian.Uint32(data[8:]); v != Version {
		return nil, fmt.Errorf("%w: format version %d, this droidprof reads version %d", ErrCompiler, v, Version)
	}
	if len(data) < headerSize+crcSize {
		return nil, &CorruptError{len(data), fmt.Sprintf("truncated: %d bytes, the header alone is %d", len(data), headerSize)}
	}
	switch n := binary.LittleEndian.Uint32(data[12:]); {
	case uint64(len(data)) < uint64(n):
		return nil, &CorruptError{len(data), fmt.Sprintf("truncated: %d of the %d bytes the header gives", len(data), n)}
	case uint64(len(data)) > uint64(n):
		return nil, &CorruptError{int(n), fmt.Sprintf("%d bytes after the end the header gives (%d bytes)", uint64(len(data))-uint64(n), n)}
	}
	end := len(data) - crcSize
	if want, got := binary.LittleEndian.Uint32(data[end:]), crc32.Checksum(data[:end], castagnoli); want != got {
		return nil, &CorruptError{end, fmt.Sprintf("checksum mismatch: the file records %08x, its content sums to %08x", want, got)}
	}
	c := &Cache{
		DexChecksum: binary.LittleEndian.Uint32(data[16:]),
	}
	copy(c.DexSignature[:], data[20:40])
	r := &reader{data: data[:end], off: headerSize}
	c.Compiler = r.str("compiler identity")
	c.Location = r.str("DEX location")
	n := r.count("method count", 3)
	index := uint64(0)
	for i := 0; i < n && r.err == nil; i++ {
		at := r.off
		d := r.uvarint("method index")
		if i > 0 && d == 0 && r.err == nil {
			r.fail(at, "method %d listed twice", index)
		}
		index += d
		if index > math.MaxUint32 {
			r.fail(at, "method index %d beyond 32 bits", index)
		}
		name := fmt.Sprintf("method %d", index)
		kind := r.byte("method kind")
		if r.err != nil {
			break
		}
		switch kind {
		case 0:
			fn, t := r.fn(name)
			if r.err == nil {
				c.Methods = append(c.Methods, aot.Method{Name: name, Index: uint32(index), Func: fn, Tables: t, Barriers: ssa.CountBarriers(fn)})
			}
		case 1:
			pc := r.varint("fallback pc")
			reason := r.str("fallback reason")
			if pc < -1 || pc > math.MaxInt32 {
				r.fail(at, "%s: fallback pc %d", name, pc)
			}
			c.Fallbacks = append(c.Fallbacks, aot.Fallback{Name: name, Index: uint32(index), Reason: &frontend.Error{PC: int(pc), Reason: reason}})
		case 2:
			msg := r.str("fallback reason")
			c.Fallbacks = append(c.Fallbacks, aot.Fallback{Name: name, Index: uint32(index), Reason: errors.New(msg)})
		default:
			r.fail(r.off-1, "%s: method kind %d (want 0, 1 or 2)", name, kind)
		}
	}
	if r.err == nil && r.off != end {
		r.fail(r.off, "%d bytes after the last method", end-r.off)
	}
	if r.err != nil {
		return nil, r.err
	}
	return c, nil
}

// reader decodes the body; the first error sticks and later reads
// return zero values.
type reader struct {
	data []byte // the file without its checksum
	off  int
	err  *CorruptError
	// scratch tables of a function's values and blocks by ID, reused
	// (cleared) from function to function
	vals   []*ssa.Value
	blocks []*ssa.Block
}

func (r *reader) fail(off int, format string, args ...any) {
	if r.err == nil {
		r.err = &CorruptError{off, fmt.Sprintf(format, args...)}
	}
}

func (r *reader) uvarint(what string) uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.data[r.off:])
	if n <= 0 {
		if n == 0 {
			r.fail(r.off, "%s: truncated (the content ends)", what)
		} else {
			r.fail(r.off, "%s: varint beyond 64 bits", what)
		}
		return 0
	}
	r.off += n
	return v
}

// varint reads a zig-zag encoded varint (encoding/binary's Varint).
func (r *reader) varint(what string) int64 {
	u := r.uvarint(what)
	return int64(u>>1) ^ -int64(u&1)
}

func (r *reader) byte(what string) byte {
	if r.err != nil {
		return 0
	}
	if r.off >= len(r.data) {
		r.fail(r.off, "%s: truncated (the content ends)", what)
		return 0
	}
	r.off++
	return r.data[r.off-1]
}

// count reads a count of items that take at least size bytes each, so
// that it cannot exceed what is left of the file.
func (r *reader) count(what string, size int) int {
	at := r.off
	n := r.uvarint(what)
	if r.err == nil && n > uint64((len(r.data)-r.off)/size) {
		r.fail(at, "%s %d: more than the %d bytes left can hold", what, n, len(r.data)-r.off)
		return 0
	}
	return int(n)
}

func (r *reader) str(what string) string {
	n := r.count(what+" length", 1)
	if r.err != nil {
		return ""
	}
	s := string(r.data[r.off : r.off+n])
	r.off += n
	return s
}

// id reads an ID below limit.
func (r *reader) id(what string, limit int) int {
	at := r.off
	v := r.uvarint(what)
	if r.err == nil && v >= uint64(limit) {
		r.fail(at, "%s %d: not below %d", what, v, limit)
		return 0
	}
	return int(v)
}

// pc reads a dex pc written as pc+1.
func (r *reader) pc(what string) int {
	return r.id(what+"+1", math.MaxInt32) - 1
}

// fn decodes a function and its side tables, and checks it.
func (r *reader) fn(name string) (*ssa.Func, aot.Tables) {
	start := r.off
	var t aot.Tables // its maps made only when needed: most methods have no entries
	nv := r.id("value ID bound", maxIDs+1)
	nb := r.id("block ID bound", maxIDs+1)
	nblocks := r.count("block count", 9)
	prevID, prevPC := int64(-1), int64(-1)
	if r.err != nil {
		return nil, t
	}
	fn := &ssa.Func{Name: name}
	fn.Reserve(nv, nb)
	if cap(r.vals) < nv {
		r.vals = make([]*ssa.Value, nv)
	}
	if cap(r.blocks) < nb {
		r.blocks = make([]*ssa.Block, nb)
	}
	vals, blocks := r.vals[:nv], r.blocks[:nb]
	defer clear(vals)
	defer clear(blocks)
	// one allocation for the blocks and one per block for its values
	bslab := make([]ssa.Block, nblocks)
	// references to values and blocks, resolved once all are read
	type valueRef struct {
		at, id int
		to     **ssa.Value
	}
	type blockRef struct {
		at, id int
		to     **ssa.Block
	}
	var vrefs []valueRef
	var brefs []blockRef
	for i := 0; i < nblocks && r.err == nil; i++ {
		at := r.off
		id := r.id("block ID", nb)
		if r.err != nil {
			break
		}
		if blocks[id] != nil {
			r.fail(at, "%s: b%d twice", name, id)
			break
		}
		b := &bslab[i]
		b.ID, b.Func = id, fn
		blocks[id] = b
		fn.Blocks = append(fn.Blocks, b)
		if k := ssa.BlockKind(r.byte("block kind")); k.String() != "invalid" {
			b.Kind = k
		} else {
			r.fail(r.off-1, "%s: b%d: block kind %d", name, id, k)
		}
		b.PC = r.pc("block pc")
		nvals := r.count("value count", 6)
		b.Values = make([]*ssa.Value, 0, nvals)
		vslab := make([]ssa.Value, nvals)
		for j := 0; j < nvals && r.err == nil; j++ {
			at := r.off
			vid64 := prevID + r.varint("value ID")
			if r.err == nil && (vid64 < 0 || vid64 >= int64(nv)) {
				r.fail(at, "%s: value ID %d: not in [0, %d)", name, vid64, nv)
			}
			if r.err != nil {
				break
			}
			vid := int(vid64)
			prevID = vid64
			if vals[vid] != nil {
				r.fail(at, "%s: v%d twice", name, vid)
				break
			}
			v := &vslab[j]
			v.ID, v.Block = vid, b
			vals[vid] = v
			b.Values = append(b.Values, v)
			if op := ssa.Op(r.byte("op")); op != ssa.OpInvalid && op.String() != "Invalid" {
				v.Op = op
			} else {
				r.fail(r.off-1, "%s: v%d: op %d", name, vid, op)
			}
			if ty := ssa.Type(r.byte("type")); ty.String() != "invalid" {
				v.Type = ty
			} else {
				r.fail(r.off-1, "%s: v%d: type %d", name, vid, ty)
			}
			v.Aux = r.varint("aux")
			at = r.off
			pc := prevPC + r.varint("value pc")
			if r.err == nil && (pc < -1 || pc > math.MaxInt32) {
				r.fail(at, "%s: v%d: pc %d", name, vid, pc)
			}
			v.PC, prevPC = int(pc), pc
			nargs := r.count("argument count", 1)
			if nargs > 0 {
				v.Args = make([]*ssa.Value, nargs)
			}
			for k := 0; k < nargs && r.err == nil; k++ {
				at := r.off
				d := r.varint("argument")
				a := int64(vid) - d
				if r.err == nil && (a < 0 || a >= int64(nv)) {
					r.fail(at, "%s: v%d: argument v%d out of range", name, vid, a)
				}
				vrefs = append(vrefs, valueRef{at, int(a), &v.Args[k]})
			}
		}
		at = r.off
		if c := r.id("control", nv+1); c > 0 {
			vrefs = append(vrefs, valueRef{at, c - 1, &b.Control})
		}
		nkeys := r.count("switch key count", 1)
		if nkeys > 0 {
			b.Keys = make([]int32, nkeys)
		}
		for k := 0; k < nkeys && r.err == nil; k++ {
			at := r.off
			key := r.varint("switch key")
			if key < math.MinInt32 || key > math.MaxInt32 {
				r.fail(at, "%s: b%d: switch key %d beyond 32 bits", name, id, key)
			}
			b.Keys[k] = int32(key)
		}
		nsuccs := r.count("successor count", 1)
		at = r.off
		b.NCatch = r.id("exception edge count", nsuccs+1)
		if nsuccs > 0 {
			b.Succs = make([]*ssa.Block, nsuccs)
		}
		for k := 0; k < nsuccs && r.err == nil; k++ {
			at := r.off
			brefs = append(brefs, blockRef{at, r.id("successor", nb), &b.Succs[k]})
		}
		npreds := r.count("predecessor count", 1)
		if npreds > 0 {
			b.Preds = make([]*ssa.Block, npreds)
		}
		for k := 0; k < npreds && r.err == nil; k++ {
			at := r.off
			brefs = append(brefs, blockRef{at, r.id("predecessor", nb), &b.Preds[k]})
		}
		nh := r.count("handler count", 1)
		for k := 0; k < nh && r.err == nil; k++ {
			if t.Handlers == nil {
				t.Handlers = map[int][]int{}
			}
			t.Handlers[id] = append(t.Handlers[id], r.pc("handler pc"))
		}
		if pc := r.id("throw pc+2", math.MaxInt32); pc > 0 {
			if t.ThrowPC == nil {
				t.ThrowPC = map[int]int{}
			}
			t.ThrowPC[id] = pc - 2
		}
	}
	if r.err != nil {
		return nil, t
	}
	for _, ref := range vrefs {
		if *ref.to = vals[ref.id]; *ref.to == nil {
			r.fail(ref.at, "%s: v%d is used but not defined", name, ref.id)
			return nil, t
		}
	}
	for _, ref := range brefs {
		if *ref.to = blocks[ref.id]; *ref.to == nil {
			r.fail(ref.at, "%s: b%d is an edge's end but not in the function", name, ref.id)
			return nil, t
		}
	}
	if err := ssa.Check(fn); err != nil {
		r.fail(start, "%v", err)
		return nil, t
	}
	return fn, t
}
