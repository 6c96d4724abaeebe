# The first experiment a new user runs: a small Mobibench sweep over
# sequential vs random writes, buffered vs write+fsync, in a fresh temporary
# directory, and a dpa profile of a small Java program on droidprof's VM
# (its hotspot table and a .trace/pprof/Perfetto export are in the report),
# and an artobj profile of every object of a small leaking program (its leak
# ranked first, the heap replay). Finishes in under a minute.
#
#   go run ./cmd/droidprof run configs/quickstart.hcl
experiment "quickstart" {
  description = "Mobibench: sequential vs random 4 KiB writes, buffered vs fsync; dpa: hotspots of a small program; artobj: a leak found"
  repeat      = 6 # n >= 6 gives compare a confidence interval
  warmup      = 1

  storage {
    backend = "dir" # dir = "" (the default): a fresh temporary directory, removed afterwards
  }

  matrix {
    access = [0, 1] # 0 sequential overwrite, 1 random write
    sync   = [0, 2] # 0 buffered, 2 write+fsync
  }

  collect "mobibench" {
    access    = matrix.access
    sync      = matrix.sync
    file_size = "8MiB"
    io_size   = "4KiB"
  }

  # dpa traces every method call of CaffeineMark's method test (static,
  # virtual, interface and recursive calls). It refers to no matrix axis, so
  # it runs once per repetition, not once per Mobibench cell. Its argument
  # (the test's size) keeps each step's trace near 3 MB: the whole run stays
  # under 50 MB on disk.
  collect "dpa" {
    workload    = "caffeine-method"
    args        = ["8"]
    calibration = 4000
  }

  # artobj records every object's life in ListLeak on compiled code with
  # paper 003's barriers; a small heap makes the collector run often enough
  # for the leak predictor to see which objects go stale.
  collect "artobj" {
    workload = "leak-list"
    args     = ["1000"]
    vm {
      engine     = "aot"
      barriers   = "all"
      heap_start = "512KiB"
      heap_max   = "16MiB"
      min_free   = "64KiB"
      max_free   = "128KiB"
    }
  }

  analyze "mobibench" {}

  analyze "dpa" {
    top = 5
  }

  analyze "artobj" {
    top = 3
  }
}
