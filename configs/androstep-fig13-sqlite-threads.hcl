# AndroStep (paper 002) Fig. 13 in kind: SQLite insert, update and delete
# with 1 to 32 threads (each its own database), synchronous FULL, journal
# mode DELETE, on a loop-mounted ext4, with the paper's 2013 Mobibench
# workload (one statement per autocommit transaction; 10,000 in total,
# divided among the threads). The paper saw no gain beyond 12 threads.
#
# Full size (root; ~40 min on a virtio disk, extrapolated from Figs. 11 and 12):
#   droidprof run configs/androstep-fig13-sqlite-threads.hcl
# CI size (what the tests run):
#   droidprof run configs/androstep-fig13-sqlite-threads.hcl --set repeat=1 --set warmup=0 \
#     --set collect.mobibench.db.transactions=64
experiment "androstep-fig13" {
  description = "SQLite insert/update/delete with 1..32 threads, synchronous FULL, journal DELETE (AndroStep Fig. 13)"
  repeat      = 5
  warmup      = 1

  storage {
    backend = "loop"
    fs      = "ext4"
    size    = "1GiB"
  }

  matrix {
    op      = ["insert", "update", "delete"]
    threads = [1, 2, 4, 8, 12, 16, 32]
  }

  collect "mobibench" {
    threads     = matrix.threads
    drop_caches = true
    db {
      op           = matrix.op
      journal_mode = "DELETE"
      synchronous  = "FULL"
      transactions = 10000
      mode2013     = true
    }
  }

  analyze "mobibench" {}
}
