package dex

import (
	"fmt"
	"unicode/utf8"
)

// decodeMUTF8 decodes a string_data_item's bytes (after its uleb128 length)
// up to the terminating NUL. units is the declared UTF-16 length. It returns
// the string and the number of bytes consumed including the NUL. The checks
// are those of ART's verifier: no byte patterns 10xx or 1111 as lead bytes,
// no overlong forms (except C0 80 for U+0000), exactly units code units.
func decodeMUTF8(b []byte, units uint32) (string, int, error) {
	// Fast path: ASCII only.
	n := 0
	for n < len(b) && b[n] != 0 && b[n] < 0x80 {
		n++
	}
	if n < len(b) && b[n] == 0 {
		if uint32(n) != units {
			return "", 0, fmt.Errorf("string has %d UTF-16 code units, header says %d", n, units)
		}
		return string(b[:n]), n + 1, nil
	}
	out := make([]byte, 0, min(len(b), int(units)*3))
	var count uint32
	var pendingHigh []byte // encoding of an unpaired high surrogate seen last
	i := 0
	for {
		if i >= len(b) {
			return "", 0, fmt.Errorf("string data runs past the end of the file")
		}
		b0 := b[i]
		if b0 == 0 {
			break
		}
		var unit rune
		var size int
		switch {
		case b0 < 0x80:
			unit, size = rune(b0), 1
		case b0>>5 == 0x6:
			if i+1 >= len(b) || b[i+1]&0xc0 != 0x80 {
				return "", 0, fmt.Errorf("bad MUTF-8 continuation byte after %#02x at string byte %d", b0, i)
			}
			unit, size = rune(b0&0x1f)<<6|rune(b[i+1]&0x3f), 2
			if unit != 0 && unit < 0x80 {
				return "", 0, fmt.Errorf("overlong MUTF-8 encoding of U+%04X at string byte %d", unit, i)
			}
		case b0>>4 == 0xe:
			if i+2 >= len(b) || b[i+1]&0xc0 != 0x80 || b[i+2]&0xc0 != 0x80 {
				return "", 0, fmt.Errorf("bad MUTF-8 continuation byte after %#02x at string byte %d", b0, i)
			}
			unit, size = rune(b0&0x0f)<<12|rune(b[i+1]&0x3f)<<6|rune(b[i+2]&0x3f), 3
			if unit < 0x800 {
				return "", 0, fmt.Errorf("overlong MUTF-8 encoding of U+%04X at string byte %d", unit, i)
			}
		default:
			return "", 0, fmt.Errorf("illegal MUTF-8 lead byte %#02x at string byte %d", b0, i)
		}
		count++
		raw := b[i : i+size]
		i += size
		switch {
		case unit >= 0xd800 && unit < 0xdc00: // high surrogate
			out = append(out, pendingHigh...)
			pendingHigh = raw
		case unit >= 0xdc00 && unit < 0xe000: // low surrogate
			if pendingHigh != nil {
				hi := rune(pendingHigh[0]&0x0f)<<12 | rune(pendingHigh[1]&0x3f)<<6 | rune(pendingHigh[2]&0x3f)
				out = utf8.AppendRune(out, 0x10000+(hi-0xd800)<<10+(unit-0xdc00))
				pendingHigh = nil
			} else {
				out = append(out, raw...)
			}
		default:
			out = append(out, pendingHigh...)
			pendingHigh = nil
			out = utf8.AppendRune(out, unit)
		}
	}
	out = append(out, pendingHigh...)
	if count != units {
		return "", 0, fmt.Errorf("string has %d UTF-16 code units, header says %d", count, units)
	}
	return string(out), i + 1, nil
}

// EncodeMUTF8 encodes s as the bytes of a string_data_item (without the
// length prefix and the terminating NUL): U+0000 as C0 80, supplementary
// characters as two 3-byte surrogates. An unpaired surrogate in its 3-byte
// form (as decoding produces) is copied; any other invalid UTF-8 byte is
// encoded as U+FFFD.
func EncodeMUTF8(s string) []byte {
	return AppendMUTF8(make([]byte, 0, len(s)), s)
}

// AppendMUTF8 appends the MUTF-8 encoding of s to b; see EncodeMUTF8.
func AppendMUTF8(b []byte, s string) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		if c != 0 && c < 0x80 {
			b = append(b, c)
			i++
			continue
		}
		if c == 0 {
			b = append(b, 0xc0, 0x80)
			i++
			continue
		}
		if isSurrogateBytes(s[i:]) {
			b = append(b, s[i:i+3]...)
			i += 3
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if r >= 0x10000 {
			r -= 0x10000
			b = appendUnit3(b, 0xd800+(r>>10))
			b = appendUnit3(b, 0xdc00+(r&0x3ff))
			continue
		}
		b = utf8.AppendRune(b, r) // U+FFFD for invalid bytes
	}
	return b
}

// UTF16Len is the number of UTF-16 code units of s (the utf16_size of its
// string_data_item).
func UTF16Len(s string) int {
	n := 0
	for i := 0; i < len(s); {
		if s[i] < 0x80 {
			n++
			i++
			continue
		}
		if isSurrogateBytes(s[i:]) {
			n++
			i += 3
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}

func isSurrogateBytes(s string) bool {
	return len(s) >= 3 && s[0] == 0xed && s[1] >= 0xa0 && s[1] <= 0xbf && s[2]&0xc0 == 0x80
}

func appendUnit3(b []byte, u rune) []byte {
	return append(b, 0xe0|byte(u>>12), 0x80|byte(u>>6)&0x3f, 0x80|byte(u)&0x3f)
}
