# Mobigen (paper 002 §3.3, §4.4): capture the sqlite3 shell running 100
# autocommit inserts (configs/mobigen-insert.sql) under strace, clean the
# log into a Mobigen script, and replay that one script on ext4, xfs and
# btrfs, each a fresh loop-mounted filesystem — the paper's Fig. 16 in kind
# (total I/O time per filesystem), with the replay's timing error and its
# fidelity (the replay run again under strace issues, per thread, the
# script's calls with their kind, size, offset and flags).
#
# The capture runs once, in the first cell (reuse = true); every cell
# replays the same log. Needs root (loop devices), strace and sqlite3.
#
#   droidprof run configs/mobigen-sqlite.hcl
# CI size:
#   droidprof run configs/mobigen-sqlite.hcl --set repeat=1
experiment "mobigen-sqlite" {
  description = "capture sqlite3 inserts with strace, replay them on ext4, xfs and btrfs (AndroStep Fig. 16 in kind)"
  repeat      = 3

  storage {
    backend = "loop"
    fs      = matrix.fs
    size    = "512MiB" # xfs needs at least 300 MiB
  }

  matrix {
    fs = ["ext4", "xfs", "btrfs"]
  }

  collect "mobigen" {
    source  = "capture"
    command = ["sqlite3", "feed.db"]
    stdin   = "configs/mobigen-insert.sql"
  }

  analyze "mobigen" {}
}
