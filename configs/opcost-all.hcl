# The CPU cost of every Dalvik instruction on both of droidprof's engines
# (paper 004, Majima et al.): the cost table of all 218 opcodes, the
# calibration sweep of move (the paper's Fig. 1), the linearity study (its
# Table 3), the operand-value grids of the divisions, multiplications and
# conversions (heat maps), the cost model's prediction of the workloads'
# CPU time, and the two engines' tables compared by rank correlation.
#
# Loop size 10 000 as in the paper; 300 iterations instead of its
# 10 000: the calibration sweep shows the cost per instruction flat from
# 10 iterations on. At 1 000 iterations the study needed about 34 CPU-
# minutes on this machine (the interpreter's table alone 12, its operand
# grids 7), over the 30-minute budget; at 300 it needs about 11.
# stop_ci = 1: a benchmark or grid point stops after 10 of its 30 runs
# once the 95 % interval of their mean is within ±1 % (a quiet one needs
# no more to give the same cost); at load 13, run to run, every grid
# point at 30 runs took the interpreter's grids alone to some 20 minutes.
#
#   go run ./cmd/droidprof run configs/opcost-all.hcl
experiment "opcost-all" {
  description = "opcost: every opcode's CPU cost on the interpreter and the aot engine, calibration, linearity, prediction"

  matrix {
    engine = ["interp", "aot"]
  }

  collect "opcost" {
    loop_size    = 10000
    loop_count   = 300
    measurements = 30
    stop_ci      = 1
    linearity    = true
    sweep_opcode = "move"
    operand_grids = ["all"]
    use_cases    = true
    call_shapes  = true
    alloc_shapes = true
    vm {
      engine = matrix.engine
    }
  }

  collect "opcost" "workloads" {
    measurements = 5
    vm {
      engine = matrix.engine
    }
  }

  analyze "opcost" {}
}
