package replay

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// FuzzParse checks that no input panics the parser, the statistics or the
// sandbox plan, that every error is a SyntaxError, and that whatever the
// writer accepts reads back as the same entries.
func FuzzParse(f *testing.F) {
	for line := range strings.Lines(sample + multi + oracle) {
		f.Add([]byte(line))
	}
	f.Add([]byte(sample))
	f.Add([]byte("1 2 open \"/a b\" O_RDONLY 3\r\n\n1 -5 pread 3 -1 -1\n"))
	f.Add([]byte(`1 2 access " a"" 0`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse(bytes.NewReader(data), "fuzz")
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("not a SyntaxError: %v", err)
			}
			return
		}
		s.Stats()
		newPlan(s, "/sb")
		var b bytes.Buffer
		if _, err := s.WriteTo(&b); err != nil {
			return
		}
		s2, err := Parse(bytes.NewReader(b.Bytes()), "again")
		if err != nil {
			t.Fatalf("written script does not parse: %v\n%q", err, b.String())
		}
		if len(s.Entries) != len(s2.Entries) {
			t.Fatalf("%d entries, %d after the round trip", len(s.Entries), len(s2.Entries))
		}
		for i := range s.Entries {
			a, b := s.Entries[i], s2.Entries[i]
			a.Line, b.Line = 0, 0
			if !reflect.DeepEqual(a, b) {
				t.Fatalf("entry %d: %+v became %+v", i, a, b)
			}
		}
	})
}
