# Paper 003's leak study: SwapLeak and ListLeak (workloads/java/leak-*) on
# droidprof's VM, every object's life recorded (Address-Chains), and the
# allocation sites and classes ranked by staleness × size. The leak of
# each program ranks first: SwapLeak's replaced versions' data
# (double[] at SwapLeak$Store.update) and ListLeak's requests' payloads
# (int[] at ListLeak$Request.<init>).
#
#   go run ./cmd/droidprof run configs/artobj-leaks.hcl
#
# The aot engine's barriers at level "all" (the paper's) record which
# objects are used in each GC epoch; a small heap makes the collector run
# often enough for staleness to show.
experiment "artobj-leaks" {
  description = "artobj: leak prediction on SwapLeak and ListLeak"

  matrix {
    workload = ["leak-swap", "leak-list"]
  }

  collect "artobj" {
    workload = matrix.workload
    args     = ["6000"]
    vm {
      engine     = "aot"
      barriers   = "all"
      collector  = "cms"
      heap_start = "1MiB"
      heap_max   = "32MiB"
      min_free   = "64KiB"
      max_free   = "256KiB"
    }
  }

  analyze "artobj" {
    top = 5
  }
}
