package runtime

import "testing"

// TestPrettyName: exception messages name array classes as ART does
// (201-built-in-except-detail-messages), not in Class.getName's form.
func TestPrettyName(t *testing.T) {
	tests := []struct{ desc, name, want string }{
		{"Ljava/lang/String;", "java.lang.String", "java.lang.String"},
		{"[Ljava/lang/String;", "[Ljava.lang.String;", "java.lang.String[]"},
		{"[[LMain$C;", "[[LMain$C;", "Main$C[][]"},
		{"[F", "[F", "float[]"},
		{"[[C", "[[C", "char[][]"},
		{"I", "int", "int"},
	}
	for _, tc := range tests {
		c := &Class{Descriptor: tc.desc, Name: tc.name}
		if got := c.PrettyName(); got != tc.want {
			t.Errorf("%s: PrettyName %q, want %q", tc.desc, got, tc.want)
		}
	}
}

// TestValidBinaryName: the names Class.forName rejects with "Invalid
// name" before looking anything up.
func TestValidBinaryName(t *testing.T) {
	tests := []struct {
		name string
		ok   bool
	}{
		{"java.lang.String", true},
		{"Main$C", true},
		{"package.Class", true},
		{"[I", true},
		{"[[Lpackage.Class;", true},
		{"[V", false},
		{"[", false},
		{"[L;", false},
		{"[Ljava/lang/String;", false},
		{"java/lang/String", false},
		{"", false},
		{"a..b", false},
		{"Ljava.lang.String;", false},
		{"[II", false},
	}
	for _, tc := range tests {
		if got := validBinaryName(tc.name); got != tc.ok {
			t.Errorf("validBinaryName(%q) = %v, want %v", tc.name, got, tc.ok)
		}
	}
}
