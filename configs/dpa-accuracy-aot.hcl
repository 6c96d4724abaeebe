# DPA's accuracy study (configs/dpa-accuracy.hcl) on compiled code: the
# six-method suite run by the aot engine (vm/aot/README.md), traced,
# untraced and self-timed on the same engine. Issue 18 item 5.
#
# The runtime's method hooks fire for compiled methods as for interpreted
# ones, but with a hook set, compiled code calls compiled code through
# Thread.Call instead of its direct call, so a traced call costs the
# difference too: the per-program calibration (pairs of untraced and
# traced runs of each program on this engine) deducts it with the rest
# of an event's cost. The calibration program behind the "paired"
# cross-check runs on the interpreter, so on this engine that column
# says little.
#
#   go run ./cmd/droidprof run configs/dpa-accuracy-aot.hcl
experiment "dpa-accuracy-aot" {
  description = "DPA accuracy on the aot engine: Err_m per method and Err_p, record buffer on, per-program calibration"
  repeat      = 10
  warmup      = 1

  matrix {
    workload = ["dpa-fib", "dpa-concat", "dpa-random", "dpa-bubblesort", "dpa-matmul", "dpa-sieve"]
  }

  collect "dpa" {
    workload        = matrix.workload
    buffer_records  = 65536
    paired_baseline = true
    best_of         = 5
    vm {
      engine = "aot"
    }
  }

  analyze "dpa" {}
}
