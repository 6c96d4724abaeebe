# AndroStep (paper 002) Fig. 12 in kind: SQLite insert, update and delete
# under the three synchronous modes (OFF, NORMAL, FULL), journal mode DELETE,
# on a loop-mounted ext4, with the paper's 2013 Mobibench workload (one
# statement per autocommit transaction, 10,000 of them). The paper saw OFF
# far faster than NORMAL and FULL for every operation.
#
# Full size (root; 12 min on a virtio disk, plugins/mobibench/BENCHMARKS.md):
#   droidprof run configs/androstep-fig12-sqlite-sync.hcl
# CI size (what the tests run):
#   droidprof run configs/androstep-fig12-sqlite-sync.hcl --set repeat=1 --set warmup=0 \
#     --set collect.mobibench.db.transactions=20
experiment "androstep-fig12" {
  description = "SQLite insert/update/delete under synchronous OFF/NORMAL/FULL, journal DELETE (AndroStep Fig. 12)"
  repeat      = 5
  warmup      = 1

  storage {
    backend = "loop"
    fs      = "ext4"
    size    = "1GiB"
  }

  matrix {
    op   = ["insert", "update", "delete"]
    sync = ["OFF", "NORMAL", "FULL"]
  }

  collect "mobibench" {
    drop_caches = true
    db {
      op           = matrix.op
      journal_mode = "DELETE"
      synchronous  = matrix.sync
      transactions = 10000
      mode2013     = true
    }
  }

  analyze "mobibench" {}
}
