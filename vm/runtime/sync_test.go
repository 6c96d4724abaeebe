package runtime

import (
	"testing"

	"github.com/droidprof/droidprof/vm/dex"
)

// TestIsSynchronized: only ACC_SYNCHRONIZED makes a call lock;
// ACC_DECLARED_SYNCHRONIZED, which d8 and dx set on a Java
// `synchronized` method whose code already has its monitor-enter/exit,
// does not (the DEX format: "no effect on execution").
func TestIsSynchronized(t *testing.T) {
	tests := []struct {
		name   string
		access uint32
		want   bool
	}{
		{"plain", dex.AccPublic, false},
		{"synchronized native", dex.AccSynchronized | dex.AccNative, true},
		{"synchronized", dex.AccSynchronized, true},
		{"declared-synchronized", dex.AccDeclaredSynchronized, false},
		{"declared-synchronized static", dex.AccDeclaredSynchronized | dex.AccStatic, false},
		{"both", dex.AccSynchronized | dex.AccDeclaredSynchronized, true},
	}
	for _, tc := range tests {
		m := &Method{Access: tc.access}
		if got := m.IsSynchronized(); got != tc.want {
			t.Errorf("%s (%#x): IsSynchronized = %v, want %v", tc.name, tc.access, got, tc.want)
		}
	}
}
