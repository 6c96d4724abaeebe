package oat_test

import (
	"bytes"
	"testing"

	"github.com/droidprof/droidprof/vm/aot/oat"
)

// FuzzRead feeds damaged caches to Read, as they are and with their
// length and checksum fixed up so that the damage reaches the decoder:
// Read must never panic, and a cache it accepts must encode back to the
// bytes it was read from.
func FuzzRead(f *testing.F) {
	_, good := smallCache(f)
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add([]byte(oat.Magic))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, in := range [][]byte{data, resum(data)} {
			c, err := oat.Read(in)
			if err != nil {
				continue
			}
			b, err := oat.Encode(c)
			if err != nil {
				t.Fatalf("Encode of an accepted cache: %v", err)
			}
			if !bytes.Equal(b, in) {
				c2, err := oat.Read(b)
				if err != nil {
					t.Fatalf("re-encoded cache refused: %v", err)
				}
				if b2, _ := oat.Encode(c2); !bytes.Equal(b2, b) {
					t.Fatal("encoding is not stable")
				}
			}
		}
	})
}
