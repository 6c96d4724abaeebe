package oat

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"sort"

	"github.com/droidprof/droidprof/vm/aot"
	"github.com/droidprof/droidprof/vm/aot/frontend"
	"github.com/droidprof/droidprof/vm/aot/ssa"
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Encode returns c in the .oat format. It fails on a cache the format
// cannot hold: a method index twice, a function beyond the ID bounds.
func Encode(c *Cache) ([]byte, error) {
	type entry struct {
		index uint32
		name  string
		m     *aot.Method
		fb    *aot.Fallback
	}
	entries := make([]entry, 0, len(c.Methods)+len(c.Fallbacks))
	for i := range c.Methods {
		m := &c.Methods[i]
		entries = append(entries, entry{m.Index, m.Name, m, nil})
	}
	for i := range c.Fallbacks {
		fb := &c.Fallbacks[i]
		entries = append(entries, entry{fb.Index, fb.Name, nil, fb})
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].index < entries[j].index })

	b := make([]byte, headerSize, 64<<10)
	copy(b, Magic)
	binary.LittleEndian.PutUint32(b[8:], Version)
	// b[12:16], the length, is filled in at the end
	binary.LittleEndian.PutUint32(b[16:], c.DexChecksum)
	copy(b[20:], c.DexSignature[:])
	b = appendString(b, c.Compiler)
	b = appendString(b, c.Location)
	b = binary.AppendUvarint(b, uint64(len(entries)))
	prev := uint32(0)
	for i, e := range entries {
		if i > 0 && e.index == prev {
			return nil, fmt.Errorf("oat: method %d (%s) listed twice", e.index, e.name)
		}
		b = binary.AppendUvarint(b, uint64(e.index-prev))
		prev = e.index
		if e.m != nil {
			b = append(b, 0)
			var err error
			if b, err = appendFunc(b, e.m.Func, &e.m.Tables); err != nil {
				return nil, fmt.Errorf("oat: %s: %w", e.name, err)
			}
			continue
		}
		// the type assertion, not errors.As: the engine and aot group
		// reasons by it
		if fe, ok := e.fb.Reason.(*frontend.Error); ok {
			b = append(b, 1)
			b = binary.AppendVarint(b, int64(fe.PC))
			b = appendString(b, fe.Reason)
			continue
		}
		b = append(b, 2)
		msg := "no reason given"
		if e.fb.Reason != nil {
			msg = e.fb.Reason.Error()
		}
		b = appendString(b, msg)
	}
	if len(b)+crcSize > math.MaxUint32 {
		return nil, errors.New("oat: the cache would exceed 4 GiB")
	}
	binary.LittleEndian.PutUint32(b[12:], uint32(len(b)+crcSize))
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli)), nil
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func appendPC(b []byte, pc int) []byte {
	return binary.AppendUvarint(b, uint64(pc+1))
}

func appendFunc(b []byte, fn *ssa.Func, t *aot.Tables) ([]byte, error) {
	if fn.NumValues() > maxIDs || fn.NumBlocks() > maxIDs {
		return nil, fmt.Errorf("%d values and %d blocks: beyond the format's %d", fn.NumValues(), fn.NumBlocks(), maxIDs)
	}
	b = binary.AppendUvarint(b, uint64(fn.NumValues()))
	b = binary.AppendUvarint(b, uint64(fn.NumBlocks()))
	b = binary.AppendUvarint(b, uint64(len(fn.Blocks)))
	// value IDs and pcs as the difference from the previous value's:
	// mostly one byte
	prevID, prevPC := -1, -1
	for _, blk := range fn.Blocks {
		if blk.PC < -1 {
			return nil, fmt.Errorf("b%d: pc %d", blk.ID, blk.PC)
		}
		b = binary.AppendUvarint(b, uint64(blk.ID))
		b = append(b, byte(blk.Kind))
		b = appendPC(b, blk.PC)
		b = binary.AppendUvarint(b, uint64(len(blk.Values)))
		for _, v := range blk.Values {
			if v.PC < -1 {
				return nil, fmt.Errorf("v%d: pc %d", v.ID, v.PC)
			}
			b = binary.AppendVarint(b, int64(v.ID-prevID))
			b = append(b, byte(v.Op), byte(v.Type))
			b = binary.AppendVarint(b, v.Aux)
			b = binary.AppendVarint(b, int64(v.PC-prevPC))
			prevID, prevPC = v.ID, v.PC
			b = binary.AppendUvarint(b, uint64(len(v.Args)))
			for _, a := range v.Args {
				b = binary.AppendVarint(b, int64(v.ID-a.ID))
			}
		}
		if blk.Control == nil {
			b = append(b, 0)
		} else {
			b = binary.AppendUvarint(b, uint64(blk.Control.ID+1))
		}
		b = binary.AppendUvarint(b, uint64(len(blk.Keys)))
		for _, k := range blk.Keys {
			b = binary.AppendVarint(b, int64(k))
		}
		b = binary.AppendUvarint(b, uint64(len(blk.Succs)))
		b = binary.AppendUvarint(b, uint64(blk.NCatch))
		for _, s := range blk.Succs {
			b = binary.AppendUvarint(b, uint64(s.ID))
		}
		b = binary.AppendUvarint(b, uint64(len(blk.Preds)))
		for _, p := range blk.Preds {
			b = binary.AppendUvarint(b, uint64(p.ID))
		}
		hs := t.Handlers[blk.ID]
		b = binary.AppendUvarint(b, uint64(len(hs)))
		for _, pc := range hs {
			if pc < -1 {
				return nil, fmt.Errorf("b%d: handler pc %d", blk.ID, pc)
			}
			b = appendPC(b, pc)
		}
		if pc, ok := t.ThrowPC[blk.ID]; !ok {
			b = append(b, 0)
		} else if pc < -1 {
			return nil, fmt.Errorf("b%d: throw pc %d", blk.ID, pc)
		} else {
			b = binary.AppendUvarint(b, uint64(pc+2))
		}
	}
	return b, nil
}
