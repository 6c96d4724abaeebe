# AndroStep (paper 002) Fig. 15 in kind: random write()+fsync() of a 100 MB
# file in 4 KiB I/Os on ext4, xfs and btrfs, each a fresh loop-mounted
# filesystem (storage is resolved per matrix cell). The paper also had NILFS2
# and F2FS; add them to the axis on a kernel and droidprof build that have
# them (storage/volume formats ext4, xfs and btrfs).
#
# Full size (root; ~6 min on a virtio disk, plugins/mobibench/BENCHMARKS.md):
#   droidprof run configs/androstep-fig15-filesystems.hcl
# CI size (what the tests run):
#   droidprof run configs/androstep-fig15-filesystems.hcl --set repeat=1 --set warmup=0 \
#     --set collect.mobibench.file_size=1MiB
experiment "androstep-fig15" {
  description = "random write()+fsync() on ext4, xfs and btrfs (AndroStep Fig. 15)"
  repeat      = 5
  warmup      = 1

  storage {
    backend = "loop"
    fs      = matrix.fs
    size    = "1GiB" # xfs needs at least 300 MiB
  }

  matrix {
    fs = ["ext4", "xfs", "btrfs"]
  }

  collect "mobibench" {
    access      = 1 # random write
    sync        = 2 # write()+fsync()
    file_size   = "100MiB"
    io_size     = "4KiB"
    drop_caches = true
  }

  analyze "mobibench" {}
}
