# AndroStep (paper 002) Fig. 9 in kind: write()+fsync() against O_SYNC and
# O_DIRECT writes, random and sequential, 4 KiB I/Os on a loop-mounted ext4.
# The paper: 512 MB file on a Galaxy S4's eMMC; with random writes fsync per
# write is about half as fast as O_SYNC, sequentially they are alike.
#
# Full size (root; ~25 min on a virtio disk):
#   droidprof run configs/androstep-fig09-sync-modes.hcl
# CI size (what the tests run):
#   droidprof run configs/androstep-fig09-sync-modes.hcl --set repeat=1 --set warmup=0 \
#     --set collect.mobibench.file_size=1MiB
experiment "androstep-fig09" {
  description = "write()+fsync vs O_SYNC vs O_DIRECT, random and sequential 4 KiB writes (AndroStep Fig. 9)"
  repeat      = 5
  warmup      = 1

  storage {
    backend = "loop"
    fs      = "ext4"
    size    = "2GiB"
  }

  matrix {
    access = [1, 0]    # Mobibench -a: 1 random write, 0 sequential overwrite
    sync   = [2, 1, 3] # Mobibench -y: 2 write()+fsync(), 1 O_SYNC, 3 O_DIRECT
  }

  collect "mobibench" {
    access      = matrix.access
    sync        = matrix.sync
    file_size   = "512MiB"
    io_size     = "4KiB"
    drop_caches = true
  }

  analyze "mobibench" {}
}
