# AndroStep (paper 002) Fig. 11 in kind: SQLite insert, update and delete
# under the six journal modes (DELETE, TRUNCATE, PERSIST, WAL, MEMORY, OFF),
# synchronous = FULL, on a loop-mounted ext4, with the paper's 2013 Mobibench
# workload (one statement per autocommit transaction, 10,000 of them). Set
# mode2013 = false for today's Mobibench (BEGIN; a statement per table;
# COMMIT). The paper saw WAL insert ~4x faster than the other modes.
#
# Full size (root; 32 min on a virtio disk, plugins/mobibench/BENCHMARKS.md):
#   droidprof run configs/androstep-fig11-sqlite-journal.hcl
# CI size (what the tests run):
#   droidprof run configs/androstep-fig11-sqlite-journal.hcl --set repeat=1 --set warmup=0 \
#     --set collect.mobibench.db.transactions=20
experiment "androstep-fig11" {
  description = "SQLite insert/update/delete under six journal modes, synchronous FULL (AndroStep Fig. 11)"
  repeat      = 5
  warmup      = 1

  storage {
    backend = "loop"
    fs      = "ext4"
    size    = "1GiB"
  }

  matrix {
    op      = ["insert", "update", "delete"]
    journal = ["DELETE", "TRUNCATE", "PERSIST", "WAL", "MEMORY", "OFF"]
  }

  collect "mobibench" {
    drop_caches = true
    db {
      op           = matrix.op
      journal_mode = matrix.journal
      synchronous  = "FULL"
      transactions = 10000
      mode2013     = true
    }
  }

  analyze "mobibench" {}
}
