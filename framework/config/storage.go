package config

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/droidprof/droidprof/framework/api"
	"github.com/droidprof/droidprof/storage/volume"
)

// storageFields are the storage block's attributes except options, typed
// like plugin fields so that values and overrides convert the same way.
var storageFields = []*api.Field{
	{Name: "backend", Type: api.Field_TYPE_STRING, Enum: volume.Backends},
	{Name: "dir", Type: api.Field_TYPE_STRING},
	{Name: "keep", Type: api.Field_TYPE_BOOL},
	{Name: "fs", Type: api.Field_TYPE_STRING, Enum: volume.Filesystems},
	{Name: "size", Type: api.Field_TYPE_SIZE, HasMin: true, Min: 1},
	{Name: "mkfs_options", Type: api.Field_TYPE_STRING_LIST},
	{Name: "mount_options", Type: api.Field_TYPE_STRING},
	{Name: "device", Type: api.Field_TYPE_STRING},
	{Name: "format", Type: api.Field_TYPE_BOOL},
	{Name: "image_dir", Type: api.Field_TYPE_STRING},
}

// storageOnly says which backends an attribute applies to.
var storageOnly = map[string][]string{
	"dir": {"dir"}, "keep": {"dir"},
	"fs": {"loop", "device"}, "mkfs_options": {"loop", "device"}, "mount_options": {"loop", "device"},
	"size": {"loop"}, "image_dir": {"loop"},
	"device": {"device"}, "format": {"device"},
}

// storageLayer is the layered storage block: constant values, and the
// attributes that refer to the matrix, still to be evaluated per cell.
type storageLayer struct {
	vals      map[string]any
	at        map[string]where
	refs      map[string]*rawAttr
	options   map[string]string
	absPath   func(string, where) string
	backendAt where
}

// layerStorage resolves the storage block for every matrix cell and checks
// that the attributes fit together.
func (e *Experiment) layerStorage(sl *storageLayer) Diagnostics {
	var ds Diagnostics
	axes := make([]string, len(e.Matrix))
	for i, ax := range e.Matrix {
		axes[i] = ax.Name
	}
	// Check the references once, not once per cell.
	usable, used := map[string]bool{}, map[string]bool{}
	for name, a := range sl.refs {
		ok := !a.bad
		for _, r := range a.refs {
			switch {
			case contains(e.badAxes, r.axis):
				ok = false
			case !contains(axes, r.axis):
				ds = append(ds, unknownAxis(r, axes, e.badAxes))
				ok = false
			}
		}
		usable[name] = ok
		if ok {
			for _, r := range a.refs {
				used[r.axis] = true
			}
		}
	}
	for _, ax := range axes {
		if used[ax] {
			e.storageAxes = append(e.storageAxes, ax)
		}
	}
	cells := e.Cells()
	e.storage = make([]Storage, len(cells))
	for i, c := range cells {
		vals := map[string]any{}
		for k, v := range sl.vals {
			vals[k] = v
		}
		ctx := cellContext(c)
		for _, f := range storageFields {
			a := sl.refs[f.Name]
			if a == nil || !usable[f.Name] {
				continue
			}
			if v, ok := evalStorage(f, a, ctx, &ds); ok {
				vals[f.Name] = v
			}
		}
		e.storage[i] = sl.build(vals, &ds)
	}
	e.storageVaries = len(sl.refs) > 0
	if len(e.storage) > 0 {
		e.Storage = e.storage[0]
	}
	return ds
}

func evalStorage(f *api.Field, a *rawAttr, ctx *hcl.EvalContext, ds *Diagnostics) (any, bool) {
	v, eds := a.eval(ctx)
	if len(eds) > 0 {
		*ds = append(*ds, eds...)
		return nil, false
	}
	if v.IsNull() {
		return nil, false
	}
	x, err := fromCty(f, v)
	if err != nil {
		*ds = append(*ds, &Diagnostic{Pos: a.pos, Summary: fmt.Sprintf("Unsuitable value for %q", f.Name), Detail: err.Error()})
		return nil, false
	}
	if err := check(f, x); err != nil {
		*ds = append(*ds, &Diagnostic{Pos: a.pos, Summary: fmt.Sprintf("Invalid value for %q", f.Name), Detail: err.Error()})
		return nil, false
	}
	return x, true
}

// build makes the Storage of one cell from its values, checks that they fit
// the backend, and fills in the backend's defaults.
func (sl *storageLayer) build(vals map[string]any, ds *Diagnostics) Storage {
	st := Storage{Backend: "dir", Options: map[string]string{}}
	for k, v := range sl.options {
		st.Options[k] = v
	}
	at := func(name string) where {
		if w, ok := sl.at[name]; ok {
			return w
		}
		return sl.backendAt
	}
	b, ok := vals["backend"].(string)
	if !ok {
		// The backend itself was bad and has been reported; checking the
		// other attributes against a guess would only add noise.
		return st
	}
	st.Backend = b
	if w, ok := sl.at["backend"]; ok {
		sl.backendAt = w
	}
	str := func(name string) string { s, _ := vals[name].(string); return s }
	set := func(name string) bool {
		// Zero values are what an absent attribute means anyway (and what
		// the defaults layer puts in).
		switch v := vals[name].(type) {
		case bool:
			return v
		case string:
			return v != ""
		case []any:
			return len(v) > 0
		}
		_, ok := vals[name]
		return ok
	}
	// A backend chosen by an override (--set storage.backend=dir) replaces
	// the file's choice together with the file's settings for it: they are
	// dropped rather than reported, so a loop config can be tried without
	// root by overriding one key.
	backendOverridden := sl.at["backend"].src != ""
	for _, f := range storageFields {
		only := storageOnly[f.Name]
		if only == nil || !set(f.Name) || contains(only, st.Backend) {
			continue
		}
		if backendOverridden && at(f.Name).src == "" {
			delete(vals, f.Name)
			continue
		}
		which := fmt.Sprintf("backend %q", only[0])
		if len(only) == 2 {
			which = fmt.Sprintf("backends %q and %q", only[0], only[1])
		}
		*ds = append(*ds, at(f.Name).diag(fmt.Sprintf("Argument %q does not apply here", f.Name),
			fmt.Sprintf("%q applies to %s only; this storage uses backend %q.", f.Name, which, st.Backend)))
	}
	if d := str("dir"); d != "" {
		st.Dir = sl.absPath(d, at("dir"))
	}
	st.Keep, _ = vals["keep"].(bool)
	st.FS = str("fs")
	st.Size, _ = vals["size"].(int64)
	if l, ok := vals["mkfs_options"].([]any); ok {
		for _, o := range l {
			st.MkfsOptions = append(st.MkfsOptions, o.(string))
		}
	}
	st.MountOptions = str("mount_options")
	st.Device = str("device")
	st.Format, _ = vals["format"].(bool)
	if d := str("image_dir"); d != "" {
		st.ImageDir = sl.absPath(d, at("image_dir"))
	}
	switch st.Backend {
	case "loop":
		if st.FS == "" {
			st.FS = volume.DefaultFS
		}
		if st.Size == 0 {
			st.Size = volume.DefaultSize
		}
		if st.ImageDir == "" {
			st.ImageDir = volume.DefaultImageDir
		}
	case "device":
		switch {
		case st.Device == "":
			*ds = append(*ds, sl.backendAt.diag("Missing device",
				`backend "device" needs the block device to use, e.g. device = "/dev/sdb"`))
		case !strings.HasPrefix(st.Device, "/"):
			*ds = append(*ds, at("device").diag(`Invalid value for "device"`,
				fmt.Sprintf("%q is not an absolute path of a block device, e.g. /dev/sdb", st.Device)))
		default:
			st.Device = filepath.Clean(st.Device)
		}
		if !st.Format && len(st.MkfsOptions) > 0 {
			*ds = append(*ds, at("mkfs_options").diag(`Argument "mkfs_options" needs format = true`,
				"droidprof never formats a device unless format = true, so mkfs options would be ignored."))
		}
		if st.Format && st.FS == "" {
			st.FS = volume.DefaultFS
		}
	}
	return st
}

// StorageFor returns the storage of a matrix cell: the storage block with
// the cell's matrix values in place of its matrix references.
func (e *Experiment) StorageFor(c Cell) Storage {
	if c.Index >= 0 && c.Index < len(e.storage) {
		return e.storage[c.Index]
	}
	return e.Storage
}

// Spec converts the storage settings to a volume spec.
func (s Storage) Spec() volume.Spec {
	return volume.Spec{Backend: s.Backend, Dir: s.Dir, Keep: s.Keep, FS: s.FS, Size: s.Size,
		MkfsOptions: append([]string(nil), s.MkfsOptions...), MountOptions: s.MountOptions,
		Device: s.Device, Format: s.Format, ImageDir: s.ImageDir}
}

// resolvedStorage renders st as plain data for config.resolved.json.
func resolvedStorage(st Storage) map[string]any {
	opts := map[string]any{}
	for k, v := range st.Options {
		opts[k] = v
	}
	m := map[string]any{"backend": st.Backend, "dir": st.Dir, "keep": st.Keep, "options": opts}
	if st.Backend == "dir" {
		return m
	}
	mkfs := []any{}
	for _, o := range st.MkfsOptions {
		mkfs = append(mkfs, o)
	}
	m["fs"], m["mkfs_options"], m["mount_options"] = st.FS, mkfs, st.MountOptions
	switch st.Backend {
	case "loop":
		m["size"], m["image_dir"] = st.Size, st.ImageDir
	case "device":
		m["device"], m["format"] = st.Device, st.Format
	}
	return m
}
