# The first experiment a new user runs: a small Mobibench sweep over
# sequential vs random writes, buffered vs write+fsync, in a fresh temporary
# directory. Finishes in well under a minute.
#
#   go run ./cmd/droidprof run configs/quickstart.hcl
experiment "quickstart" {
  description = "Mobibench: sequential vs random 4 KiB writes, buffered vs fsync"
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

  analyze "mobibench" {}
}
