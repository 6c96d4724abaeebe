# Paper 003's heap replay (its Fig. 7): how chess's objects are allocated
# and collected in a 16 KiB window of the heap, address against time, under
# the mark-sweep collector (objects stay; freed cells are reused) and the
# copying semi-space collector (each collection empties the window's half
# and fills the other: the window shows every other epoch).
#
#   go run ./cmd/droidprof run configs/artobj-heap-replay.hcl
#
# The figures are <program>-replay.svg in the report; move the window with
# analyze.artobj.replay_base (e.g. "0x12c40000") and replay_size.
experiment "artobj-heap-replay" {
  description = "artobj: heap replay of chess under cms and ss"

  matrix {
    collector = ["cms", "ss"]
  }

  collect "artobj" {
    workload = "chess"
    vm {
      engine     = "aot"
      barriers   = "all"
      collector  = matrix.collector
      heap_start = "1MiB"
      heap_max   = "16MiB"
      min_free   = "128KiB"
      max_free   = "512KiB"
    }
  }

  analyze "artobj" {
    top         = 5
    replay_size = "16KiB"
  }
}
