package units

import "testing"

func TestParseSize(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		bad  bool
	}{
		{"4096", 4096, false},
		{"4k", 4096, false},
		{"4KiB", 4096, false},
		{"1.5MiB", 3 << 19, false},
		{"2G", 2 << 30, false},
		{" 8 kb ", 8192, false},
		{"", 0, true},
		{"4 parsecs", 0, true},
		{"0.3B", 0, true},
		{"KiB", 0, true},
	}
	for _, tt := range tests {
		got, err := ParseSize(tt.in)
		if tt.bad {
			if err == nil {
				t.Errorf("ParseSize(%q) = %d, want error", tt.in, got)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", tt.in, got, err, tt.want)
		}
	}
}

func TestFormatSize(t *testing.T) {
	for n, want := range map[int64]string{4096: "4KiB", 1 << 30: "1GiB", 1000: "1000B", 0: "0B", 3 << 19: "1536KiB"} {
		if got := FormatSize(n); got != want {
			t.Errorf("FormatSize(%d) = %q, want %q", n, got, want)
		}
	}
}
