# Mobibench's replay of a Mobigen script (Mobibench -g), in a sandbox: every
# call of the script is issued at its recorded time, one OS thread per traced
# thread, and the paths the trace names (here an app's SQLite database, its
# journal and its APK) are mirrored inside the storage directory, never
# touched where they really are. configs/mobigen-sample.mg is a small
# synthetic script in Mobigen's format (shared/reference/androstep-tools.md
# §2.3): one thread commits ten SQLite-style transactions (journal write,
# fdatasync, database write, fdatasync), another reads
# through the APK. Replace it with a script Mobigen wrote from an strace of a
# real app.
#
#   droidprof run configs/mobibench-replay.hcl      # run from the repository root
experiment "mobibench-replay" {
  description = "replay a Mobigen script in a sandbox: total I/O time, per-call latency, timing error"
  repeat      = 3

  collect "mobibench" {
    replay = "configs/mobigen-sample.mg"
  }

  analyze "mobibench" {}
}
