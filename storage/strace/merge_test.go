package strace

import (
	"strings"
	"testing"
)

// TestByEffect orders interleaved threads' opens and closes of one fd
// number as the kernel did: strace printed both shapes below from two
// threads racing on fd 5.
func TestByEffect(t *testing.T) {
	tests := []struct {
		name, log string
		want      []string
	}{
		{"open returns the number a close freed", `1 openat(AT_FDCWD, "/b", O_RDONLY <unfinished ...>
2 close(5) = 0
1 <... openat resumed>) = 5
`, []string{"close", "openat"}},
		{"close started before the open that reuses its number", `2 close(5 <unfinished ...>
1 openat(AT_FDCWD, "/b", O_RDONLY) = 5
2 <... close resumed>) = 0
`, []string{"close", "openat"}},
		{"plain order kept", `1 openat(AT_FDCWD, "/a", O_RDONLY) = 5
1 read(5, "", 4) = 0
1 close(5) = 0
`, []string{"openat", "read", "close"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, err := Parse(strings.NewReader(tt.log), "t.log")
			if err != nil {
				t.Fatal(err)
			}
			evs, left := Merge(l.Events)
			if len(left) != 0 {
				t.Fatalf("unmatched halves %v", left)
			}
			ByEffect(evs)
			var got []string
			for _, ev := range evs {
				got = append(got, ev.Name)
			}
			if strings.Join(got, " ") != strings.Join(tt.want, " ") {
				t.Errorf("order %v, want %v", got, tt.want)
			}
		})
	}
}
