# MOST (AndroStep paper 002, §3.2 and Fig. 14) in kind: who writes the
# blocks of a SQLite insert workload? Mobibench's SQLite insert runs on a
# loop-mounted ext4 under the DELETE and WAL journal modes while the block,
# ext4 and jbd2 tracepoints record; every request is attributed to its
# process, block type, file (the rollback journal SQLite deletes after every
# transaction included) and file type. The paper found SQLite's files behind
# most write requests, and the ext4 journal and metadata a large share of
# the written blocks.
#
# Needs root (loop volume, tracefs, fanotify):
#   droidprof run configs/most-sqlite.hcl
# CI size:
#   droidprof run configs/most-sqlite.hcl --set repeat=1 --set collect.most.sqlite.transactions=20
experiment "most-sqlite" {
  description = "block I/O of SQLite inserts by file type and block type, journal DELETE vs WAL (AndroStep Fig. 14 in kind)"
  repeat      = 3

  storage {
    backend = "loop"
    fs      = "ext4"
    size    = "1GiB"
  }

  matrix {
    journal = ["DELETE", "WAL"]
  }

  collect "most" {
    workload = "sqlite"
    sqlite {
      op           = "insert"
      transactions = 1000
      journal_mode = matrix.journal
      synchronous  = "FULL"
    }
  }

  analyze "most" {}
}
