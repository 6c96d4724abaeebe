# The top methods of several programs (paper 000, Fig. 6 in kind): each
# workload is traced once per repetition and the analyzer lists its top-3
# methods by exclusive time, overhead deducted, with .trace, pprof and
# Perfetto files of the first repetition in the analysis directory.
#
#   go run ./cmd/droidprof run configs/dpa-hotspots.hcl
experiment "dpa-hotspots" {
  description = "DPA hotspots: top-3 methods of SciMark, CaffeineMark, chess and DeltaBlue programs"
  repeat      = 3

  matrix {
    workload = ["scimark-fft", "scimark-lu", "caffeine-string", "caffeine-method", "chess", "deltablue"]
  }

  collect "dpa" {
    workload = matrix.workload
  }

  analyze "dpa" {
    top = 3
  }
}
