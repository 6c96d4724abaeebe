// Package units parses and formats the human quantities users write in
// configs: byte sizes ("4KiB", "1M", 4096) and durations ("200ms").
package units

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
)

var sizeSuffixes = map[string]float64{
	"": 1, "b": 1,
	"k": 1 << 10, "kb": 1 << 10, "kib": 1 << 10,
	"m": 1 << 20, "mb": 1 << 20, "mib": 1 << 20,
	"g": 1 << 30, "gb": 1 << 30, "gib": 1 << 30,
	"t": 1 << 40, "tb": 1 << 40, "tib": 1 << 40,
}

// ParseSize parses a byte count such as "4096", "4k", "4KiB", "1.5MiB".
// Suffixes are binary (k = 1024), as in Mobibench and fio.
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	i := strings.IndexFunc(t, func(r rune) bool { return !(unicode.IsDigit(r) || r == '.') })
	num, suf := t, ""
	if i >= 0 {
		num, suf = t[:i], strings.ToLower(strings.TrimSpace(t[i:]))
	}
	mult, ok := sizeSuffixes[suf]
	if !ok || num == "" {
		return 0, fmt.Errorf("invalid size %q: want a number with an optional unit (B, KiB, MiB, GiB, TiB)", s)
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return 0, fmt.Errorf("invalid size %q: %w", s, err)
	}
	b := v * mult
	if b > math.MaxInt64 || b != math.Trunc(b) {
		return 0, fmt.Errorf("invalid size %q: not a whole number of bytes", s)
	}
	return int64(b), nil
}

// FormatSize renders a byte count with the largest binary unit that divides it.
func FormatSize(n int64) string {
	for _, u := range []struct {
		name string
		size int64
	}{{"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if n != 0 && n%u.size == 0 {
			return fmt.Sprintf("%d%s", n/u.size, u.name)
		}
	}
	return fmt.Sprintf("%dB", n)
}
