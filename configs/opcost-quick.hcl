# The CPU cost of a few opcode classes on droidprof's interpreter
# (paper 004, Majima et al.; the full study of every opcode comes with
# issue 20): a micro-benchmark per opcode, the empty loop subtracted,
# costs per executed instruction with their coefficient of variation.
#
#   go run ./cmd/droidprof run configs/opcost-quick.hcl
experiment "opcost-quick" {
  description = "opcost: CPU cost per instruction of the arithmetic, comparison and array-access opcodes"

  collect "opcost" {
    opcodes      = ["cmp", "array-access", "add-int", "mul-int", "div-int", "add-double", "mul-double", "div-double", "int-to-double", "double-to-int"]
    loop_size    = 10000
    loop_count   = 200
    measurements = 10
  }

  analyze "opcost" {}
}
