// Package smali is the front end of droidprof's smali assembler. It parses
// smali source, as smali 2.5.2 accepts it, into the syntax tree of package
// ast; checks the tree the way smali does before it writes DEX; renders a
// tree back to smali text; and builds trees from Go code for generated
// programs (opcost's micro-benchmarks).
//
//	class, err := smali.Parse("Foo.smali", src, &smali.Options{API: 28})
//	text := smali.Format(class)
//
// # Errors
//
// Parse returns an ErrorList: every problem with file:line:column (columns
// count characters, from 1) and the offending token, e.g.
//
//	Foo.smali:12:14: expected register, found "x1"
//	Foo.smali:13:21: invalid register v70000: must be between v0 and v65535
//
// After a syntax error the parser resumes at the next statement that starts
// on a later line, so one run reports several errors. Smali source is not
// line-oriented ("nop nop" is two instructions), only the recovery is.
//
// # Compatibility
//
// The lexer reproduces smali 2.5.2's token stream (checked against smali's
// own lexer goldens), and Parse accepts what "smali assemble -a API"
// accepts, including smali's quirks:
//
//   - A long literal where a 32-bit value is wanted (const, const/high16,
//     const-wide/32, .line, switch keys) must lie in [-2147483648L, -1L]:
//     smali compares it with the int constant 0xFFFFFFFF, which is -1.
//   - 16-bit operands (const/16, lit16, .registers) take ints from -32768 to
//     65535, wrapping the upper half; 4- and 8-bit ones are signed only.
//   - .local, .end local and .restart local take registers up to v131071.
//   - A register range may end beyond v65535 if it starts at or below it.
//   - .array-data elements are truncated to the element width, unchecked.
//   - Names in backquotes may hold spaces at any API level; class
//     descriptors only from API 30.
//   - Duplicate fields and methods are accepted (smali keeps the first).
//   - "invoke-polymorphic/range" is a valid member name.
//
// smali hangs on ".array-data 4L"; Parse reports an error.
//
// # Registers
//
// pN names the N-th parameter register: vN' with N' = registers - P + N,
// where registers is the .registers count (or .locals plus P) and P is the
// number of parameter registers, "this" included (ast.Proto.ParamRegisters
// plus one for instance methods). The tree keeps pN as written; Check
// resolves it to test the instruction format's register range.
//
// # Lowering
//
// The tree is ready for lowering to DEX (package vm/dex's writer): opcode
// values and formats come from package opcode; literal operands convert
// with ast.Literal's ShortIntegral, Fixed32 and Fixed64, as Check did; a
// member reference with an empty Class means the class being defined.
package smali
