package sdk

import (
	"github.com/droidprof/droidprof/framework/results"
	"github.com/droidprof/droidprof/framework/units"
)

// ParseSize parses a byte count as configs write it: 4096, "4KiB", "1M".
func ParseSize(s string) (Size, error) {
	n, err := units.ParseSize(s)
	return Size(n), err
}

// String formats the size with the largest binary unit that divides it
// ("16MiB", "4KiB", "100B"), as `droidprof plugins` shows defaults.
func (s Size) String() string { return units.FormatSize(int64(s)) }

// LabelString renders matrix labels as "k1=v1,k2=v2" in key order, the way
// the host names a matrix cell in summaries, reports and compare.
func LabelString(labels map[string]string) string { return results.LabelString(labels) }
