package dex

import (
	"bytes"
	"strings"
	"testing"
)

func TestMUTF8(t *testing.T) {
	for _, c := range []struct {
		name  string
		mutf8 []byte
		units uint32
		want  string
	}{
		{"empty", nil, 0, ""},
		{"ascii", []byte("abc"), 3, "abc"},
		{"nul", []byte{0xc0, 0x80}, 1, "\x00"},
		{"two bytes", []byte{0xc3, 0xa9}, 1, "é"},
		{"three bytes", []byte{0xe2, 0x82, 0xac}, 1, "€"},
		{"surrogate pair", []byte{0xed, 0xa0, 0xbd, 0xed, 0xb8, 0x80}, 2, "\U0001F600"},
		{"lone high", []byte{0xed, 0xa0, 0xbd, 'x'}, 2, "\xed\xa0\xbdx"},
		{"lone low", []byte{0xed, 0xb8, 0x80}, 1, "\xed\xb8\x80"},
		{"high high low", []byte{0xed, 0xa0, 0xbd, 0xed, 0xa0, 0xbd, 0xed, 0xb8, 0x80}, 3, "\xed\xa0\xbd\U0001F600"},
		{"high at end", []byte{'a', 0xed, 0xa0, 0xbd}, 2, "a\xed\xa0\xbd"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, n, err := decodeMUTF8(append(bytes.Clone(c.mutf8), 0, 'z'), c.units)
			if err != nil || got != c.want || n != len(c.mutf8)+1 {
				t.Fatalf("decode = %q, %d, %v; want %q, %d", got, n, err, c.want, len(c.mutf8)+1)
			}
			if enc := EncodeMUTF8(got); !bytes.Equal(enc, c.mutf8) {
				t.Errorf("EncodeMUTF8(%q) = % x, want % x", got, enc, c.mutf8)
			}
			if UTF16Len(got) != int(c.units) {
				t.Errorf("UTF16Len(%q) = %d, want %d", got, UTF16Len(got), c.units)
			}
		})
	}
}

func TestMUTF8Errors(t *testing.T) {
	for _, c := range []struct {
		in    []byte
		units uint32
		want  string
	}{
		{[]byte("ab\x00"), 3, "has 2 UTF-16 code units, header says 3"},
		{[]byte("ab"), 2, "runs past the end"},
		{[]byte{0x80, 0}, 1, "illegal MUTF-8 lead byte 0x80"},
		{[]byte{0xf0, 0x9f, 0x98, 0x80, 0}, 2, "illegal MUTF-8 lead byte 0xf0"},
		{[]byte{0xc1, 0x81, 0}, 1, "overlong MUTF-8 encoding of U+0041"},
		{[]byte{0xe0, 0x81, 0x81, 0}, 1, "overlong MUTF-8 encoding of U+0041"},
		{[]byte{0xc3, 0x41, 0}, 1, "bad MUTF-8 continuation byte"},
		{[]byte{0xc3}, 1, "bad MUTF-8 continuation byte"},
	} {
		if _, _, err := decodeMUTF8(c.in, c.units); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("decodeMUTF8(% x) = %v, want %q", c.in, err, c.want)
		}
	}
	// Invalid UTF-8 in a Go string is encoded as U+FFFD.
	if got := EncodeMUTF8("a\xffb"); !bytes.Equal(got, []byte("a\xef\xbf\xbdb")) {
		t.Errorf("EncodeMUTF8 of invalid UTF-8 = % x", got)
	}
}

func TestLEB128(t *testing.T) {
	for _, c := range []struct {
		in   []byte
		u    uint32
		s    int32
		err  string
		size int
	}{
		{[]byte{0x00}, 0, 0, "", 1},
		{[]byte{0x7f}, 127, -1, "", 1},
		{[]byte{0x80, 0x7f}, 0x3f80, -128, "", 2},
		{[]byte{0xff, 0xff, 0xff, 0xff, 0x0f}, 0xffffffff, -1, "", 5},
		{[]byte{0x80, 0x80, 0x80, 0x80, 0x78}, 0x80000000, -0x80000000, "", 5},
		{[]byte{0x80, 0x80, 0x80, 0x80, 0x80, 0x01}, 0, 0, "longer than 5 bytes", 0},
		{[]byte{0x80}, 0, 0, "runs past the end", 0},
	} {
		for _, signed := range []bool{false, true} {
			c2 := &cursor{data: c.in, item: "x"}
			var got int64
			if signed {
				got = int64(c2.sleb("v"))
			} else {
				got = int64(c2.uleb("v"))
			}
			if c.err != "" {
				if c2.err == nil || !strings.Contains(c2.err.Error(), c.err) {
					t.Errorf("% x: err %v, want %q", c.in, c2.err, c.err)
				}
				continue
			}
			want := int64(c.u)
			if signed {
				want = int64(c.s)
			}
			if c2.err != nil || got != want || c2.pos != c.size {
				t.Errorf("% x signed=%v: %d (%d bytes, %v), want %d", c.in, signed, got, c2.pos, c2.err, want)
			}
		}
	}
}
