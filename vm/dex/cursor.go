package dex

import "fmt"

// cursor reads little-endian values from the file, remembering the first
// failure as a FormatError that names the item being read and the offset.
type cursor struct {
	data []byte
	pos  int
	item string
	err  error
}

func (c *cursor) failf(format string, args ...any) {
	if c.err == nil {
		c.err = &FormatError{Item: c.item, Offset: int64(c.pos), Problem: fmt.Sprintf(format, args...)}
	}
}

// has reports whether n more bytes are available.
func (c *cursor) has(n int) bool { return n >= 0 && c.pos <= len(c.data) && len(c.data)-c.pos >= n }

// need reports whether n more bytes are available, failing otherwise.
func (c *cursor) need(n int, what string) bool {
	if c.err != nil {
		return false
	}
	if n < 0 || c.pos > len(c.data) || len(c.data)-c.pos < n {
		c.failf("%s (%d bytes) runs past the end of the file (size %#x)", what, n, len(c.data))
		return false
	}
	return true
}

func (c *cursor) u8(what string) uint8 {
	if !c.need(1, what) {
		return 0
	}
	v := c.data[c.pos]
	c.pos++
	return v
}

func (c *cursor) u16(what string) uint16 {
	if !c.need(2, what) {
		return 0
	}
	v := uint16(c.data[c.pos]) | uint16(c.data[c.pos+1])<<8
	c.pos += 2
	return v
}

func (c *cursor) u32(what string) uint32 {
	if !c.need(4, what) {
		return 0
	}
	d := c.data[c.pos : c.pos+4]
	c.pos += 4
	return uint32(d[0]) | uint32(d[1])<<8 | uint32(d[2])<<16 | uint32(d[3])<<24
}

// uleb reads a uleb128 of at most 5 bytes; bits beyond 32 are dropped, as
// ART does.
func (c *cursor) uleb(what string) uint32 {
	if c.err != nil {
		return 0
	}
	var v uint32
	for i := 0; i < 5; i++ {
		if c.pos >= len(c.data) {
			c.failf("%s: uleb128 runs past the end of the file (size %#x)", what, len(c.data))
			return 0
		}
		b := c.data[c.pos]
		c.pos++
		v |= uint32(b&0x7f) << (7 * i)
		if b < 0x80 {
			return v
		}
	}
	c.pos--
	c.failf("%s: uleb128 longer than 5 bytes", what)
	return 0
}

// ulebp1 reads a uleb128p1: the stored value minus one, so 0 gives NoIndex.
func (c *cursor) ulebp1(what string) uint32 { return c.uleb(what) - 1 }

func (c *cursor) sleb(what string) int32 {
	if c.err != nil {
		return 0
	}
	var v uint32
	for i := 0; i < 5; i++ {
		if c.pos >= len(c.data) {
			c.failf("%s: sleb128 runs past the end of the file (size %#x)", what, len(c.data))
			return 0
		}
		b := c.data[c.pos]
		c.pos++
		v |= uint32(b&0x7f) << (7 * i)
		if b < 0x80 {
			if shift := 7 * (i + 1); shift < 32 && b&0x40 != 0 {
				v |= ^uint32(0) << shift
			}
			return int32(v)
		}
	}
	c.pos--
	c.failf("%s: sleb128 longer than 5 bytes", what)
	return 0
}
