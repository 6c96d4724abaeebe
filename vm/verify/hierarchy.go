package verify

import "github.com/droidprof/droidprof/vm/dex"

// Files is a Hierarchy over DEX files searched in order, first
// definition wins (the boot class path, then the application's), which is
// how the class linker finds classes. It reads class definitions only and
// loads nothing, so verification has no side effects on the runtime.
type Files struct {
	defs map[string]fileDef
}

type fileDef struct {
	f   *dex.File
	def *dex.ClassDef
}

// NewFiles indexes the class definitions of files.
func NewFiles(files ...*dex.File) *Files {
	h := &Files{defs: map[string]fileDef{}}
	for _, f := range files {
		for i := range f.ClassDefs {
			d := &f.ClassDefs[i]
			desc := f.Strings[f.Types[d.Class]]
			if _, dup := h.defs[desc]; !dup {
				h.defs[desc] = fileDef{f, d}
			}
		}
	}
	return h
}

// Lookup implements Hierarchy.
func (h *Files) Lookup(desc string) (ClassInfo, bool) {
	fd, ok := h.defs[desc]
	if !ok {
		return ClassInfo{}, false
	}
	info := ClassInfo{Interface: fd.def.Access&dex.AccInterface != 0}
	if fd.def.Super != dex.NoIndex {
		info.Super = fd.f.Strings[fd.f.Types[fd.def.Super]]
	}
	return info, true
}
