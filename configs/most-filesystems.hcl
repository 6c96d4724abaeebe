# MOST on ext4, xfs and btrfs: the same SQLite insert workload (DELETE
# journal, whose rollback journal is created and deleted at every
# transaction) on a fresh loop-mounted filesystem of each kind, every
# request attributed as far as the filesystem allows (README, "MOST"):
# ext4 and xfs get block types from droidprof's readers of their on-disk
# layouts and files from their maps and tracepoints, deleted files
# included; btrfs gets chunk classes (data, metadata, system) and the
# files' data blocks through its chunk tree. `droidprof compare` of two
# cells (e.g. ext4 vs xfs) compares their metrics.
#
# Needs root (loop volumes, tracefs, fanotify):
#   droidprof run configs/most-filesystems.hcl
# CI size:
#   droidprof run configs/most-filesystems.hcl --set repeat=1 --set collect.most.sqlite.transactions=20
experiment "most-filesystems" {
  description = "block I/O of SQLite inserts by file type and block type on ext4, xfs and btrfs"
  repeat      = 3

  storage {
    backend = "loop"
    fs      = matrix.fs
    size    = "1GiB" # xfs needs at least 300 MiB
  }

  matrix {
    fs = ["ext4", "xfs", "btrfs"]
  }

  collect "most" {
    workload = "sqlite"
    sqlite {
      op           = "insert"
      transactions = 500
      journal_mode = "DELETE"
      synchronous  = "FULL"
    }
  }

  analyze "most" {}
}
