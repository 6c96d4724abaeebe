package ssa

// Reserve makes NumValues and NumBlocks at least values and blocks. A
// reader of stored IR (the .oat cache) makes its Values and Blocks itself,
// with the IDs they were written with, and calls Reserve so that the IDs
// later passes and the lowering allocate, and the slices they size by
// NumValues, cover them.
func (f *Func) Reserve(values, blocks int) {
	if values > f.nextV {
		f.nextV = values
	}
	if blocks > f.nextB {
		f.nextB = blocks
	}
}
