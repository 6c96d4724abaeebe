package dex

import (
	"cmp"
	"slices"
	"sort"
)

// code reads a code_item. Its errors have an empty item name, which the
// caller prefixes with the method's.
func (r *reader) code(off uint32) (*Code, error) {
	if code, ok := r.codeCache[off]; ok {
		return code, nil
	}
	const item = ""
	c := r.at(off, item, "code_off")
	code := &Code{Off: off}
	code.Registers = c.u16("registers_size")
	code.Ins = c.u16("ins_size")
	code.Outs = c.u16("outs_size")
	triesSize := c.u16("tries_size")
	debugOff := c.u32("debug_info_off")
	insnsSize := c.u32("insns_size")
	if c.err != nil {
		return nil, c.err
	}
	if code.Ins > code.Registers {
		return nil, errorf(item, int64(off+2), "ins_size %d exceeds registers_size %d", code.Ins, code.Registers)
	}
	if int64(insnsSize)*2 > int64(len(r.data)-c.pos) {
		return nil, errorf(item, int64(off+12), "insns_size %d code units runs past the end of the file (size %#x)", insnsSize, len(r.data))
	}
	code.Insns = make([]uint16, insnsSize)
	for i := range code.Insns {
		code.Insns[i] = uint16(r.data[c.pos]) | uint16(r.data[c.pos+1])<<8
		c.pos += 2
	}
	if triesSize > 0 {
		if insnsSize%2 == 1 {
			c.u16("padding")
		}
		if c.err == nil && !c.has(int(triesSize)*8) {
			c.failf("%d try_items run past the end of the file (size %#x)", triesSize, len(r.data))
		}
		if c.err != nil {
			return nil, c.err
		}
		code.Tries = make([]Try, triesSize)
		handlerOffs := make([]uint16, triesSize)
		tryPos := c.pos
		for i := range code.Tries {
			t := &code.Tries[i]
			pos := c.pos
			t.Start = c.u32("start_addr")
			t.Count = c.u16("insn_count")
			handlerOffs[i] = c.u16("handler_off")
			if uint64(t.Start)+uint64(t.Count) > uint64(insnsSize) {
				return nil, errorf(item, int64(pos), "try_item[%d] covers %#x..%#x beyond insns_size %#x", i, t.Start, uint64(t.Start)+uint64(t.Count), insnsSize)
			}
		}
		listOff := c.pos
		if err := r.handlers(c, code, insnsSize); err != nil {
			return nil, err
		}
		for i, ho := range handlerOffs {
			// Handlers are in increasing offset order.
			h, found := sort.Find(len(code.Handlers), func(h int) int { return cmp.Compare(uint32(ho), code.Handlers[h].Off) })
			code.Tries[i].Handler = h
			if !found {
				return nil, errorf(item, int64(tryPos+8*i+6), "try_item[%d]: handler_off %#x is not the start of a handler in the list at %#x", i, ho, listOff)
			}
		}
	}
	if debugOff != 0 {
		d, err := r.debugInfo(debugOff, " debug_info_item")
		if err != nil {
			return nil, err
		}
		code.Debug = d
	}
	r.codeCache[off] = code
	return code, nil
}

// handlers reads an encoded_catch_handler_list at the cursor.
func (r *reader) handlers(c *cursor, code *Code, insnsSize uint32) error {
	base := c.pos
	n := c.uleb("encoded_catch_handler_list size")
	if c.err != nil {
		return c.err
	}
	if int64(n) > int64(len(r.data)-c.pos) {
		return errorf(c.item, int64(base), "%d catch handlers cannot fit in the %d bytes left", n, len(r.data)-c.pos)
	}
	code.Handlers = make([]CatchHandler, n)
	for i := range code.Handlers {
		h := &code.Handlers[i]
		h.Off = uint32(c.pos - base)
		pos := c.pos
		size := c.sleb("encoded_catch_handler size")
		if c.err != nil {
			return c.err
		}
		count := int64(size)
		if count < 0 {
			count = -count
			h.HasCatchAll = true
		} else if size == 0 {
			h.HasCatchAll = true
		}
		if count*2 > int64(len(r.data)-c.pos) {
			return errorf(c.item, int64(pos), "catch handler %d: %d catches cannot fit in the %d bytes left", i, count, len(r.data)-c.pos)
		}
		if count > 0 {
			h.Catches = make([]Catch, count)
		}
		for j := range h.Catches {
			pos := c.pos
			h.Catches[j].Type = c.uleb("type_idx")
			h.Catches[j].Addr = c.uleb("addr")
			if c.err != nil {
				return c.err
			}
			if t := h.Catches[j].Type; t >= uint32(len(r.f.Types)) {
				return errorf(c.item, int64(pos), "catch handler %d entry %d: type_idx %d out of range (%d types)", i, j, t, len(r.f.Types))
			}
			if h.Catches[j].Addr >= insnsSize {
				return errorf(c.item, int64(pos), "catch handler %d entry %d: address %#x beyond insns_size %#x", i, j, h.Catches[j].Addr, insnsSize)
			}
		}
		if h.HasCatchAll {
			pos := c.pos
			h.CatchAll = c.uleb("catch_all_addr")
			if c.err == nil && h.CatchAll >= insnsSize {
				return errorf(c.item, int64(pos), "catch handler %d: catch-all address %#x beyond insns_size %#x", i, h.CatchAll, insnsSize)
			}
		}
	}
	return c.err
}

func (r *reader) debugInfo(off uint32, item string) (*DebugInfo, error) {
	if d, ok := r.debugCache[off]; ok {
		return d, nil
	}
	c := r.at(off, item, "debug_info_off")
	d := &DebugInfo{Off: off}
	r.debugOps = r.debugOps[:0]
	d.LineStart = c.uleb("line_start")
	n := c.uleb("parameters_size")
	if c.err != nil {
		return nil, c.err
	}
	if int64(n) > int64(len(r.data)-c.pos) {
		return nil, errorf(item, int64(off), "%d parameter names cannot fit in the %d bytes left", n, len(r.data)-c.pos)
	}
	if n > 0 {
		d.ParamNames = make([]uint32, n)
	}
	for i := range d.ParamNames {
		pos := c.pos
		d.ParamNames[i] = c.ulebp1("parameter_names")
		if n := d.ParamNames[i]; n != NoIndex && n >= uint32(len(r.f.Strings)) {
			return nil, errorf(item, int64(pos), "parameter name %d: string index %d out of range (%d strings)", i, n, len(r.f.Strings))
		}
	}
	for c.err == nil {
		pos := c.pos
		op := c.u8("debug opcode")
		if c.err != nil {
			break
		}
		o := DebugOp{Op: op, Reg: NoIndex, Name: NoIndex, Type: NoIndex, Sig: NoIndex}
		switch op {
		case DbgEndSequence:
			d.Ops = slices.Clone(r.debugOps)
			r.debugOps = r.debugOps[:0]
			r.debugCache[off] = d
			return d, nil
		case DbgAdvancePC:
			o.Value = int32(c.uleb("DBG_ADVANCE_PC addr_diff"))
		case DbgAdvanceLine:
			o.Value = c.sleb("DBG_ADVANCE_LINE line_diff")
		case DbgStartLocal, DbgStartLocalExtended:
			o.Reg = c.uleb("register_num")
			o.Name = c.ulebp1("name_idx")
			o.Type = c.ulebp1("type_idx")
			if op == DbgStartLocalExtended {
				o.Sig = c.ulebp1("sig_idx")
			}
			if c.err != nil {
				break
			}
			if err := r.checkString(o.Name, item, "local name_idx", pos, true); err != nil {
				return nil, err
			}
			if err := r.checkType(o.Type, item, "local type_idx", pos, true); err != nil {
				return nil, err
			}
			if err := r.checkString(o.Sig, item, "local sig_idx", pos, true); err != nil {
				return nil, err
			}
		case DbgEndLocal, DbgRestartLocal:
			o.Reg = c.uleb("register_num")
		case DbgSetFile:
			o.Name = c.ulebp1("name_idx")
			if c.err == nil {
				if err := r.checkString(o.Name, item, "DBG_SET_FILE name_idx", pos, true); err != nil {
					return nil, err
				}
			}
		}
		r.debugOps = append(r.debugOps, o)
	}
	return nil, c.err
}
