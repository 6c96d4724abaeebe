package runtime

import "testing"

// TestPackFillsGaps checks field layout against ART's: the offsets are
// those ART's 140-field-packing expects (GapOrderBase leaves one byte at
// 8; its subclass's short goes into the gap before the references).
func TestPackFillsGaps(t *testing.T) {
	tests := []struct {
		name  string
		start uint32
		kinds string
		want  []uint32
	}{
		{"140-field-packing", 9, "LLDIS", []uint32{12, 16, 24, 20, 10}},
		{"wide after int", 8, "IJ", []uint32{16, 8}},
		{"int fills wide's hole", 12, "JI", []uint32{16, 12}},
		{"bytes fill a short hole", 8, "SBBZ", []uint32{8, 10, 11, 12}},
		{"aligned", 8, "LIB", []uint32{8, 12, 16}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var fields []*Field
			for _, k := range []byte(tt.kinds) {
				fields = append(fields, &Field{Kind: k})
			}
			pack(fields, tt.start)
			for i, f := range fields {
				if f.Offset != tt.want[i] {
					t.Errorf("field %d (%c): offset %d, want %d", i, f.Kind, f.Offset, tt.want[i])
				}
			}
		})
	}
}
