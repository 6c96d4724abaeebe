# The cost model's check (issue 20): every opcode's cost on the
# interpreter, then the workloads (SciMark, CaffeineMark, chess,
# DeltaBlue, the dpa suite) counted — opcodes and native calls — and
# timed, and each program's CPU time predicted from the two. A shorter
# loop than opcost-all's (30 iterations of 10 000 copies: the calibration
# sweep shows the cost per instruction flat from 10 iterations), so the
# check takes a few minutes.
#
#   go run ./cmd/droidprof run configs/opcost-predict.hcl
experiment "opcost-predict" {
  description = "opcost: the cost model's prediction of the workloads' CPU time on the interpreter"

  collect "opcost" {
    loop_size    = 10000
    loop_count   = 30
    measurements = 10
    call_shapes  = true
    alloc_shapes = true
  }

  collect "opcost" "workloads" {
    measurements = 5
  }

  analyze "opcost" {}
}
