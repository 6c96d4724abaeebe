package microbench

import "testing"

// BenchmarkAssembleAll generates and assembles every benchmark at the
// paper's loop size (issue 20: under 10 s).
func BenchmarkAssembleAll(b *testing.B) {
	for b.Loop() {
		data, err := Assemble(All(), 10000)
		if err != nil {
			b.Fatal(err)
		}
		b.SetBytes(int64(len(data)))
	}
}
