# One workload under two VM configurations (paper 000, Fig. 7 in kind: the
# same application on different devices). Run it twice with different heap
# limits, or with the other garbage collector, and compare the two runs:
#
#   go run ./cmd/droidprof run configs/dpa-heap.hcl
#   go run ./cmd/droidprof run configs/dpa-heap.hcl --set collect.dpa.vm.heap_max=6MiB
#   go run ./cmd/droidprof run configs/dpa-heap.hcl --set collect.dpa.vm.collector=ss
#   go run ./cmd/droidprof compare RUN_A RUN_B
#
# With a small heap the collector runs far more often; compare shows which
# methods and which processes got slower, with benchstat's statistics.
# (Configs written before the vm block set `heap_max` in the collect block;
# that still works and means vm.heap_max.)
experiment "dpa-heap" {
  description = "DPA: allocation-heavy workloads under a given heap limit"
  repeat      = 6
  warmup      = 1

  matrix {
    workload = ["caffeine-string", "dpa-concat"]
  }

  collect "dpa" {
    workload = matrix.workload
    vm {
      collector = "cms"     # or "ss": the copying semi-space collector
      heap_max  = "256MiB"  # dalvikvm -Xmx
    }
  }

  analyze "dpa" {}
}
