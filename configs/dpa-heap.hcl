# One workload under two VM configurations (paper 000, Fig. 7 in kind: the
# same application on different devices). Run it twice with different heap
# limits and compare the two runs:
#
#   go run ./cmd/droidprof run configs/dpa-heap.hcl
#   go run ./cmd/droidprof run configs/dpa-heap.hcl --set collect.dpa.heap_max=6MiB
#   go run ./cmd/droidprof compare RUN_A RUN_B
#
# With a small heap the collector runs far more often; compare shows which
# methods and which processes got slower, with benchstat's statistics.
experiment "dpa-heap" {
  description = "DPA: allocation-heavy workloads under a given heap limit"
  repeat      = 6
  warmup      = 1

  matrix {
    workload = ["caffeine-string", "dpa-concat"]
  }

  collect "dpa" {
    workload = matrix.workload
    heap_max = "256MiB"
  }

  analyze "dpa" {}
}
