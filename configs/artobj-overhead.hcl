# artobj's time and space overhead on paper 003's benchmark set (its
# Figs. 5 and 6 and Table 1 in kind; EEMBC is not free, so SciMark,
# CaffeineMark, chess and DeltaBlue), at the four barrier levels of the aot
# engine. Each step times the program side by side in rounds — unprofiled
# (no barriers, no hooks), barriers only, and profiled (barriers, hooks,
# event output) — on the process's CPU time, and keeps one profiled run's
# events; the analyzer splits the overhead into barriers and event output
# (table "time", figure time-overhead.svg) and gives the bitmap's size
# (heap/64, table "space").
#
#   go run ./cmd/droidprof run configs/artobj-overhead.hcl
#
# 13 programs × 4 levels × 5 rounds × 3 variants: about half an hour on a
# 2-core machine. The paper ran each program with its minimum heap, so
# that it collected often; here each runs with heap_max = 1.5 × its
# minimum heap on the aot engine and cms (min_heap_multiple: the smallest
# heap_max, in 64KiB steps up to the 32MiB given, that it runs in three
# times in a row; found by bisection at its first step, about 30 runs,
# and cached in ~/.cache/droidprof/artobj-minheap.json for the other
# levels and later runs; the minimum heaps found are in
# plugins/artobj/BENCHMARKS.md), starting from a 1 MiB heap.
experiment "artobj-overhead" {
  description = "artobj: time overhead (barriers vs event output) and space overhead per barrier level"

  matrix {
    # Each with arguments that make a run on the aot engine take 0.1–0.5 s
    # (vm/aot/engine's BenchmarkBarrierOverhead uses the same), so that
    # compiling, which the barrier passes lengthen, is a small part.
    workload = ["scimark-fft 1024 200", "scimark-sor 200 80", "scimark-montecarlo 400000", "scimark-sparse 1000 5000 800", "scimark-lu 300",
                "caffeine-sieve 400", "caffeine-loop 300", "caffeine-logic 300", "caffeine-string 50", "caffeine-float 6000", "caffeine-method 200",
                "chess 3", "deltablue 200"]
    barriers = ["none", "cache", "elim", "all"]
  }

  collect "artobj" {
    workload        = matrix.workload
    overhead        = true
    overhead_rounds = 5
    min_heap_multiple = 1.5
    vm {
      engine    = "aot"
      barriers  = matrix.barriers
      collector = "cms"
      heap_start = "1MiB"
      heap_max   = "32MiB"
    }
  }

  analyze "artobj" {
    top = 5
  }
}
