# Mobibench (droidprof's Go engine) against the real fio, side by side on the
# same loop-mounted ext4, for the workloads of the AndroStep paper (Figs. 6, 7, 10, 13).
# Each cell runs both collectors with the same config; the analyzer reports
# medians per cell and collector and the median Mobibench / fio ratio.
#
# A case is a preset NAME@SIZE: the preset decides access/sync/threads, the
# size is the total file size, chosen so every run lasts about a second or
# more on a virtio disk (see plugins/mobibench/BENCHMARKS.md).
#
#   droidprof run configs/mobibench-vs-fio.hcl      # root: the storage is a loop device
experiment "mobibench-vs-fio" {
  description = "Mobibench file I/O vs fio: randwrite+fsync, randwrite O_SYNC, buffered, O_DIRECT and mmap sequential writes, 4-thread randwrite+fsync"
  repeat      = 6
  warmup      = 1

  # A fresh ext4 on a loop device (root), so both tools run on the same
  # filesystem with nothing else on it. keep = "true" tells the collectors to
  # keep their data files between steps: both tools then overwrite the same
  # blocks in place, run after run, as repeated Mobibench runs do (it never
  # deletes test.datN), instead of allocating fresh blocks every step. The
  # volume itself is deleted when the run ends.
  storage {
    backend = "loop"
    fs      = "ext4"
    size    = "2GiB"
    options = { keep = "true" }
  }

  matrix {
    case = [
      "randwrite-fsync@16MiB",    # -a 1 -y 2, 4 KiB records: fio rw=randwrite fsync=1
      "randwrite-osync@16MiB",    # -a 1 -y 1: fio rw=randwrite sync=1
      "seqwrite-buffered@512MiB", # -a 0 -y 0 (final fsync): fio rw=write end_fsync=1
      "seqwrite-direct@64MiB",    # -a 0 -y 3: fio direct=1
      "seqwrite-mmap@512MiB",     # -a 0 -y 5 (final msync): fio ioengine=mmap end_fsync=1
      "randwrite-fsync-4t@64MiB", # -a 1 -y 2 -t 4: fio numjobs=4
    ]
  }

  # Mobibench drops the page cache before every run (root only; a warning
  # otherwise); the fio collector then also drops it and sets invalidate=1.
  collect "mobibench" {
    preset      = matrix.case
    io_size     = "4KiB"
    drop_caches = true
  }

  collect "mobibench" "fio" {
    preset      = matrix.case
    io_size     = "4KiB"
    drop_caches = true
  }

  analyze "mobibench" {
    baseline = "fio"
  }
}
