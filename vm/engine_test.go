package vm

import (
	"strings"
	"testing"

	"github.com/droidprof/droidprof/vm/aot/engine"
	"github.com/droidprof/droidprof/vm/interp"
)

func TestNewEngine(t *testing.T) {
	tests := []struct {
		name    string
		want    string // the engine's type, or the error's text
		wantErr bool
	}{
		{"", "interp", false},
		{"interp", "interp", false},
		{"aot", "aot", false},
		{"jit", `unknown engine "jit"`, true},
	}
	for _, tc := range tests {
		e, err := NewEngine(tc.name)
		if tc.wantErr {
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("NewEngine(%q): error %v, want %q", tc.name, err, tc.want)
			}
			continue
		}
		if err != nil {
			t.Errorf("NewEngine(%q): %v", tc.name, err)
			continue
		}
		got := ""
		switch e.(type) {
		case *interp.Interp:
			got = "interp"
		case *engine.Engine:
			got = "aot"
		}
		if got != tc.want {
			t.Errorf("NewEngine(%q) = %T, want %s", tc.name, e, tc.want)
		}
	}
}
