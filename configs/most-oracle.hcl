# The capture oracle of MOST (issue 21): the same device traced at the same
# time by the most collector's tracepoint capture and by the kernel's own
# blktrace code through its ftrace face (the "blk" tracer, because the
# userspace blktrace's debugfs relay files are refused under kernel
# lockdown). The collector matches the two traces' requests (sector, size,
# direction) inside the window both recorded and reports the share of each
# side that the other has: meta.json's "oracle", the metrics
# oracle_ours_matched and oracle_blktrace_matched.
#
# The blk tracer lives in the top-level tracefs instance only: the run
# borrows it (current tracer nop, no top-level events, else it refuses),
# one droidprof at a time, and puts everything back at the end — or, after
# a kill -9, at the next start.
#
# Needs root:
#   droidprof run configs/most-oracle.hcl
experiment "most-oracle" {
  description = "our block capture against the kernel's blktrace on the same device and workload"
  repeat      = 3

  storage {
    backend = "loop"
    fs      = "ext4"
    size    = "256MiB"
  }

  matrix {
    workload = ["sqlite", "file"]
  }

  collect "most" {
    workload = matrix.workload
    oracle   = "blk"
    sqlite {
      transactions = 200
    }
    file {
      access    = 1
      sync      = 2
      file_size = "4MiB"
    }
  }

  analyze "most" {}
}
