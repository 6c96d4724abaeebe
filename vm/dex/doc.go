// Package dex reads Dalvik executable (DEX) files, versions 035 to 040, into
// a plain Go data model, and decodes Dalvik instructions.
//
// # Model
//
// A File holds the header, every id table (strings, types, protos, fields,
// methods), the class definitions with their class data, code, debug info,
// annotations and static values, the call sites, method handles and the map
// list. References between items are indices into the File's tables, exactly
// as in the file format (NoIndex where the format allows "none"), so the model
// can be written back by a writer and compared after a round trip. Fields named
// Off record where an item was read from; they describe the input layout and
// are not part of the model's meaning (a writer lays items out anew).
//
// # Eager tables, lazy instructions
//
// Read decodes and validates everything except instructions eagerly: id
// tables, class data, code items with tries and handlers, debug info, encoded
// values and annotations. Every index is checked against its table and every
// offset and count against the file size before anything is allocated, so a
// File that Read returns is self-consistent: its users (the printer, the
// interpreter, the writer) can index tables without re-checking, and a
// malformed file is rejected once, with an error naming the item and the file
// offset. DEX files are small compared with memory, so eager decoding costs
// little and keeps the model a plain value.
//
// Instructions stay as the method's raw code units (Code.Insns). They are
// decoded on demand with Decode or an Iterator, which return Instruction
// values without allocating: an interpreter decodes as it executes (like
// Dalvik's portable interpreter) and methods that never run cost nothing.
// Payloads (packed-switch, sparse-switch, fill-array-data) are decoded by
// their own functions when needed. Decoding errors carry the code unit index
// and, through Code, the file offset.
//
// Strings are decoded from MUTF-8 to Go strings. Surrogate pairs become
// ordinary UTF-8; an unpaired surrogate is kept as its 3-byte encoding, so
// EncodeMUTF8 gives back exactly the bytes that were read.
package dex
