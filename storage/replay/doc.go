// Package replay reads and writes Mobigen replay scripts and replays them the
// way Mobibench's `-g script` does: one OS thread per traced thread, each
// call issued at its recorded time, open loop, but inside a sandbox directory
// so that the original paths are never touched.
//
// # Script format
//
// One call per line, `<tid> <usec> <call> <args...>`, as Mobigen writes it
// (shared/reference/androstep-tools.md §2.3). Parse is tolerant exactly where
// Mobigen's real output needs it (failed calls with -1, stray quotes in
// reduced paths, CRLF, blank lines, negative times) and strict elsewhere.
// An unknown call name is an error, not a skipped line: Mobigen only ever
// prints the thirteen names it knows, and this format adds one, lseek
// (`<tid> <usec> lseek <fd> <offset> <whence> <ret>`), so another name means
// the file is not a script, or a newer one whose calls this replay would
// silently leave out.
//
// # Sandbox
//
// Everything happens in Dir/mobigen_temp. Unquoted (reduced) paths become
// temp_<tid>_<n>.dat as in Mobibench, n counting the opens in file order.
// Where Mobibench opens, stats and unlinks the quoted real paths, the replay
// uses mirrors of them under mobigen_temp/root/ (cleaned, so `..` cannot
// leave it): before the clock starts, a pre-pass over the script creates the
// mirrors of paths some call found existing, and gives them, and the temp
// files of opens that do not truncate, as many filler bytes as the script's
// later reads need. Reads then return data, paths the trace never found stay
// absent so those calls fail again, and unlink removes only the mirror.
//
// # Timing
//
// Each replay thread sleeps in a raw nanosleep (timer slack 1 ns; the
// thread keeps its Go P, so waking never waits for the Go scheduler) until
// Options.Spin before a call's time and spins on the clock for the rest;
// with Options.Realtime it runs under SCHED_FIFO. A collection runs before
// the clock starts and recording a call does not allocate. The timing
// error (issue − scheduled) is reported over the calls that could be on
// time (Result.LagOnTime), and apart over the held ones (Result.Held,
// LagHeld): calls whose thread was still inside its previous call at their
// time, or closes that waited for another thread's call on the file, which
// no replay can issue early. Result.Lag is both together. With
// Options.Trace, every issued call carries the OS thread that issued it,
// so a trace of the replay can be matched to the script's threads.
//
// # Departures from Mobibench
//
//   - Quoted paths are mirrored, as above.
//   - O_TRUNC and O_APPEND are kept as recorded (Mobibench truncates every
//     non-read-only open); Mobigen's synthetic opens (`/data/data`, made up
//     for fds opened before the capture) do not truncate.
//   - A traced open that failed is replayed without O_CREAT, so it fails
//     again; a failed data call (-1, no size known) is not issued.
//   - lseek is replayed, to the traced position (SEEK_SET to the traced
//     return value), so plain reads and writes land at the traced offsets
//     even where the sandbox's file has another size than the traced one.
//   - O_SYNC, O_DSYNC, O_DIRECT and O_APPEND are carried to the replay's
//     opens; the buffers are page-aligned for O_DIRECT. A filesystem that
//     refuses O_DIRECT (probed before the clock starts) gets the open
//     without it and a warning naming the script line (Result.Warnings).
//   - Negative times are replayed in order from the earliest, not all at
//     once at the start.
//   - Every call on an fd that was never opened is skipped and counted, as
//     Mobibench skips it silently.
package replay
