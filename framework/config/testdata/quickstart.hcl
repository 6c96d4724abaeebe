experiment "quickstart" {
  description = "small Mobibench sweep"
  repeat      = 3                  # >= 1, default 1
  warmup      = 1                  # >= 0, default 0
  plugin_dirs = ["./more-plugins"] # relative to the config file
  storage {
    backend = "dir"                # "loop" and "device": not supported yet
    dir     = ""                   # empty: a fresh temporary directory per run
    keep    = false
    options = {}
  }
  matrix {                         # cells: cartesian product, first axis slowest
    mode = [0, 1]
    sync = [0, 2]
  }
  collect "mobibench" {            # label 1: plugin, label 2 (optional): component
    access    = matrix.mode
    sync      = matrix.sync * 2
    file_size = "1MiB"
    db { op = "insert" }           # a nested block (TYPE_BLOCK field)
  }
  collect "mobibench" "fio" { threads = 4 }
  analyze "mobibench" {}           # analyze bodies may not use the matrix
}
