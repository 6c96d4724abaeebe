package engine

import (
	"github.com/droidprof/droidprof/vm/aot"
	"github.com/droidprof/droidprof/vm/aot/oat"
	"github.com/droidprof/droidprof/vm/aot/ssa"
	"github.com/droidprof/droidprof/vm/dex"
	"github.com/droidprof/droidprof/vm/runtime"
)

// cachedMethod is a method of an .oat cache: its IR, or why the compiler
// left it to the interpreter.
type cachedMethod struct {
	m        *aot.Method
	fallback error
}

// UseCache makes the engine take the methods of f from c, an .oat cache
// compiled from f, instead of running the front end and the passes at
// their first call; methods of f the cache lacks compile as before. It
// refuses a cache compiled from another version of f (an error wrapping
// oat.ErrStale) or by a compiler of another identity (oat.ErrCompiler).
func (e *Engine) UseCache(f *dex.File, c *oat.Cache) error {
	if err := c.Match(f); err != nil {
		return err
	}
	if err := c.CheckCompiler(oat.Identity(e.cfg)); err != nil {
		return err
	}
	c.SetNames(f)
	ms := make(map[uint32]cachedMethod, len(c.Methods)+len(c.Fallbacks))
	for i := range c.Methods {
		ms[c.Methods[i].Index] = cachedMethod{m: &c.Methods[i]}
	}
	for _, fb := range c.Fallbacks {
		ms[fb.Index] = cachedMethod{fallback: fb.Reason}
	}
	if e.cached == nil {
		e.cached = map[*dex.File]map[uint32]cachedMethod{}
	}
	e.cached[f] = ms
	return nil
}

// lowerCached lowers method idx of f from the cache; ok is false if the
// cache has no entry for it.
func (e *Engine) lowerCached(f *dex.File, idx uint32, m *runtime.Method) (c *code, ok bool, err error) {
	cm, ok := e.cached[f][idx]
	if !ok {
		return nil, false, nil
	}
	if cm.fallback != nil {
		return nil, true, cm.fallback
	}
	c, err = lower(cm.m.Func, m, cm.m.Tables.Handlers, cm.m.Tables.ThrowPC)
	if err == nil {
		e.fromCache++
		e.barrierSites += ssa.CountBarriers(cm.m.Func)
	}
	return c, true, err
}
