package opcost

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/droidprof/droidprof/plugins/opcost/microbench"
	"github.com/droidprof/droidprof/vm/gc"
)

func TestZZLin(t *testing.T) {
	lin, err := microbench.Linearity([]string{"throw", "new-instance", "nop"})
	if err != nil {
		t.Fatal(err)
	}
	for _, size := range []int{2000, 5000, 10000} {
		data, err := microbench.Assemble(lin, size)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), "l.dex")
		os.WriteFile(path, data, 0o644)
		cfg := Config{LoopCount: 30, Measurements: 1, Warmup: 1}
		res := map[string][]int64{}
		for r := 0; r < 9; r++ {
			for i, b := range lin {
				s, err := measure(context.Background(), path, i, cfg, gc.Config{})
				if err != nil {
					t.Fatal(err)
				}
				res[b.Name] = append(res[b.Name], s...)
			}
		}
		empty := median(res[lin[0].Name])
		for _, b := range lin[1:] {
			t.Logf("size %d %-32s %.3f ns", size, b.Name, (median(res[b.Name])-empty)/float64(30*size))
		}
	}
}
