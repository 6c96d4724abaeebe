# Mobigen on an imported strace log: configs/mobigen-sample.strace has the
# shape of a log pulled off a phone (strace -f -ttt -T of an app: four
# threads, a SQLite database with a DELETE journal, APK reads, cache files,
# an fd opened before the capture, ashmem and /proc, calls cut in two by
# other threads, a signal, a thread exit). It is synthetic — replace it with
# your own log. The step cleans it (Table 3 and what was dropped and why),
# replays the script on the step's storage (a directory here; add a storage
# block and a matrix to compare filesystems) and checks the replay's
# fidelity under strace.
#
#   droidprof run configs/mobigen-import.hcl
experiment "mobigen-import" {
  description = "clean and replay a shipped strace log: Table 3, total I/O time, timing error, fidelity"
  repeat      = 3

  collect "mobigen" {
    source = "import"
    log    = "configs/mobigen-sample.strace"
  }

  analyze "mobigen" {}
}
