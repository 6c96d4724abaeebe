// Package oat is the .oat cache file: a DEX file's methods compiled ahead
// of time by vm/aot (droidprof vm compile app.dex -o app.oat), which the
// aot engine loads instead of running the front end and the passes at run
// time, as ART runs what dex2oat compiled.
//
// A cache is keyed by its DEX file's checksum and SHA-1 signature (from
// the DEX header) and by the identity of the compiler that wrote it
// (Identity): a cache whose DEX has changed is stale, one written by
// another compiler or with another pass pipeline is refused, and one that
// fails its own checksum is corrupt; none of them is ever used. An
// intact cache is trusted as ART trusts its oat files: the checksum and
// the IR checker catch damage, not forgery.
//
// # Format
//
// All integers are little-endian; uvarint and svarint are Go's
// encoding/binary varints (svarint zig-zag encoded); a string is a uvarint
// length and that many bytes; a pc is written as uvarint(pc+1), so that
// -1 (none) is 0.
//
//	file     = header body crc
//	header   = magic "DPOAT\r\n\x1a" (8 bytes; the CR, LF and ^Z catch text-mode mangling)
//	           version u32     format version (Version)
//	           length  u32     the whole file's length, crc included
//	           dexsum  u32     the DEX header's Adler-32 checksum
//	           dexsig  [20]    the DEX header's SHA-1 signature
//	body     = string compiler (Identity of the writer)
//	           string location (the DEX file's name as given to the compiler; for messages)
//	           uvarint count, count × method
//	method   = uvarint index-delta (the method index minus the previous one's, the first
//	           minus 0; methods in increasing index order, each once)
//	           byte kind: 0 compiled, 1 front-end fallback, 2 other fallback
//	           compiled: func; front-end fallback: svarint pc, string reason; other: string message
//	func     = uvarint numValues, uvarint numBlocks (ssa.Func's ID bounds, both < 2^20)
//	           uvarint count, count × block (in the function's block order, the entry first)
//	block    = uvarint id, byte kind, pc
//	           uvarint count, count × value (φs first, then program order)
//	           uvarint control+1 (0: none)
//	           uvarint count, count × svarint key (switch keys)
//	           uvarint count, uvarint ncatch, count × uvarint successor id (exception edges last)
//	           uvarint count, count × uvarint predecessor id (in φ-argument order)
//	           uvarint count, count × pc (the handler address of each exception edge, as built)
//	           uvarint throw (0: none, else the throw instruction's pc + 2)
//	value    = svarint id-delta, byte op, byte type, svarint aux, svarint pc-delta
//	           uvarint count, count × svarint (id − argument id)
//	crc      = u32 CRC-32C (Castagnoli) of everything before it
//
// A value's ID and pc are written as the difference from the previous
// value's in the function (from −1 for the first). Method names are not
// stored: the DEX file has them (SetNames). Ops, types and block kinds
// are written as their ssa numbers; Identity
// hashes their names, so a compiler whose numbering differs writes a
// different identity. The last two block fields are the side tables the
// lowering needs of the IR as the front end built it (aot.Tables), kept
// for the blocks that survive the passes.
package oat

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"github.com/droidprof/droidprof/vm/aot"
	"github.com/droidprof/droidprof/vm/aot/ssa"
	"github.com/droidprof/droidprof/vm/dex"
)

// Version is the format version this package writes and reads. 2: an
// OpTargetIs may carry more dispatches as constant operands, which a
// reader of version 1 would decode and run checking only the first.
const Version = 2

// Magic starts every .oat cache file.
const Magic = "DPOAT\r\n\x1a"

// headerSize is the fixed part before the body; crcSize the trailer.
const (
	headerSize = 8 + 4 + 4 + 4 + 20
	crcSize    = 4
)

// maxIDs bounds a function's value and block IDs, so that a corrupt count
// cannot make the reader allocate without limit; no DEX method comes near.
const maxIDs = 1 << 20

// Cache is the content of an .oat file: one DEX file's compiled methods
// and its fallbacks, with the reasons.
type Cache struct {
	DexChecksum  uint32
	DexSignature [20]byte
	// Location is the DEX file's name as the compiler was given it.
	Location string
	// Compiler is the writer's Identity.
	Compiler string
	// Methods and Fallbacks are in increasing method index order; Read
	// names them "method N" (SetNames gives them their names).
	Methods   []aot.Method
	Fallbacks []aot.Fallback
}

// New returns the cache of r, the result of compiling f (read from
// location) with the compiler configuration cfg.
func New(f *dex.File, location string, r *aot.Result, cfg ssa.Config) *Cache {
	return &Cache{
		DexChecksum:  f.Header.Checksum,
		DexSignature: f.Header.Signature,
		Location:     location,
		Compiler:     Identity(cfg),
		Methods:      r.Methods,
		Fallbacks:    r.Fallbacks,
	}
}

// Identity names the compiler that cfg configures: the format version,
// a hash of the IR's vocabulary (op, type and block kind names by number:
// the encoding), the passes it runs, in order, and a hash of the rest of
// cfg (any setting that changes the IR the passes make, such as one added
// later, changes the identity). A cache is used only by a compiler of the
// same identity, because the IR another one makes is not what this one
// would run.
func Identity(cfg ssa.Config) string {
	h := sha256.New()
	for o := ssa.Op(1); o.String() != "Invalid"; o++ {
		fmt.Fprintf(h, "op %d %s\n", o, o)
	}
	for t := ssa.Type(0); t.String() != "invalid"; t++ {
		fmt.Fprintf(h, "type %d %s\n", t, t)
	}
	for k := ssa.BlockKind(0); k.String() != "invalid"; k++ {
		fmt.Fprintf(h, "kind %d %s\n", k, k)
	}
	var run []string
	for _, p := range ssa.PassNames() {
		// inline runs only with an Inliner: a cache of inlined IR
		// names it, one without does not
		if p == "inline" && cfg.Inline == nil || p == "guardinline" && cfg.Guarded == nil {
			continue
		}
		if !cfg.Disabled[p] {
			run = append(run, p)
		}
	}
	// what does not change the IR: the checker, the dump hook, and the
	// disabled passes and the inliner, which the pass list shows (a
	// function prints as its address)
	rest := cfg
	rest.Disabled, rest.Check, rest.After, rest.Inline, rest.Guarded = nil, false, nil, nil, nil
	c := sha256.Sum256(fmt.Appendf(nil, "%+v", rest))
	return fmt.Sprintf("oat %d; ir %s; passes %s; config %s", Version, hex.EncodeToString(h.Sum(nil)[:8]), strings.Join(run, ","), hex.EncodeToString(c[:4]))
}

// Errors a cache is refused with; the errors of Read, Match and
// CheckCompiler wrap one of them.
var (
	// ErrCorrupt: the file is not an intact .oat cache (wrong magic,
	// truncated, a checksum mismatch, undecodable content).
	ErrCorrupt = errors.New("corrupt .oat cache")
	// ErrStale: the cache was compiled from another version of the DEX.
	ErrStale = errors.New("stale .oat cache")
	// ErrCompiler: the cache was written by another compiler (another
	// format version or pass pipeline).
	ErrCompiler = errors.New(".oat cache of another compiler")
)

// CorruptError is a Read error at an offset of the file.
type CorruptError struct {
	Offset int
	Reason string
}

// Error names the offset and what is wrong there.
func (e *CorruptError) Error() string {
	return fmt.Sprintf("corrupt .oat cache: offset %#x: %s", e.Offset, e.Reason)
}

// Is makes errors.Is(err, ErrCorrupt) hold.
func (e *CorruptError) Is(target error) bool { return target == ErrCorrupt }

// SetNames names the methods and fallbacks of c, and their functions, as
// f does; Read, which does not see the DEX file, calls them "method N".
func (c *Cache) SetNames(f *dex.File) {
	name := func(i uint32) string {
		if int(i) < len(f.Methods) {
			return f.MethodName(i)
		}
		return fmt.Sprintf("method %d", i)
	}
	for i := range c.Methods {
		m := &c.Methods[i]
		m.Name = name(m.Index)
		m.Func.Name = m.Name
	}
	for i := range c.Fallbacks {
		c.Fallbacks[i].Name = name(c.Fallbacks[i].Index)
	}
}

// Match reports whether the cache was compiled from f: an error wrapping
// ErrStale if f's checksum or signature differs from the recorded ones.
func (c *Cache) Match(f *dex.File) error {
	if f.Header.Checksum == c.DexChecksum && f.Header.Signature == c.DexSignature {
		return nil
	}
	return fmt.Errorf("%w: compiled from %s with checksum %08x and signature %x; this DEX has checksum %08x and signature %x",
		ErrStale, c.Location, c.DexChecksum, c.DexSignature, f.Header.Checksum, f.Header.Signature)
}

// CheckCompiler reports whether the cache was written by the compiler
// whose Identity is id: an error wrapping ErrCompiler if not.
func (c *Cache) CheckCompiler(id string) error {
	if c.Compiler == id {
		return nil
	}
	return fmt.Errorf("%w: written by %q, this compiler is %q", ErrCompiler, c.Compiler, id)
}
