# MOST's analysis of a block trace captured elsewhere — here the trace of a
# SQLite DELETE-journal insert run shipped with droidprof (ftrace text, as
# trace_pipe, atrace or Perfetto's text export print it), with the
# filesystem map and the names seen during the capture. Needs no root.
# Run it from the repository's root (the paths are relative to it):
#   droidprof run configs/most-import.hcl
experiment "most-import" {
  description = "MOST tables and Fig. 14 in kind from an imported trace"

  collect "most" "import" {
    trace = "plugins/most/testdata/sqlite-delete/trace.txt"
    fsmap = "plugins/most/testdata/sqlite-delete/fsmap.json"
    names = "plugins/most/testdata/sqlite-delete/names.json"
  }

  analyze "most" {}
}
