# AndroStep (paper 002) Fig. 10 in kind: random write()+fsync() with 1 to 32
# threads, the 512 MB total divided among them, 4 KiB I/Os, on a
# loop-mounted ext4. The paper (octa-core Galaxy S4) saw throughput grow with
# threads and saturate beyond 16.
#
# Full size (root; ~30 min on a virtio disk):
#   droidprof run configs/androstep-fig10-fsync-threads.hcl
# CI size (what the tests run):
#   droidprof run configs/androstep-fig10-fsync-threads.hcl --set repeat=1 --set warmup=0 \
#     --set collect.mobibench.file_size=1MiB
experiment "androstep-fig10" {
  description = "random write()+fsync() with 1..32 threads (AndroStep Fig. 10)"
  repeat      = 5
  warmup      = 1

  storage {
    backend = "loop"
    fs      = "ext4"
    size    = "2GiB"
  }

  matrix {
    threads = [1, 2, 4, 8, 16, 32]
  }

  collect "mobibench" {
    access      = 1 # random write
    sync        = 2 # write()+fsync()
    threads     = matrix.threads
    file_size   = "512MiB"
    io_size     = "4KiB"
    drop_caches = true
  }

  analyze "mobibench" {}
}
