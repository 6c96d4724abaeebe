// Package conformance holds the harnesses that run external conformance
// suites on droidprof's Dalvik VM (package vm): AOSP ART's run-tests and
// smali's smali-integration-tests. The suites are not vendored; they are
// fetched from Debian source packages at test time (internal/debsrc).
// Everything is in the package's tests; see vm/CONFORMANCE.md for the
// selection rules, how to run the harnesses and the current results.
package conformance
