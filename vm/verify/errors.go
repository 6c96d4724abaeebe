package verify

import (
	"fmt"
	"strings"
)

// Error is a method that failed verification: a hard failure in ART's
// terms. The runtime turns it into java.lang.VerifyError.
type Error struct {
	// Method is the method in ART's pretty form, "void Foo.bar(int)".
	Method string
	// PC is the dex pc (in code units) of the offending instruction, or
	// -1 when the failure concerns the method as a whole.
	PC int
	// Reason says what is wrong, in the words ART's verifier uses where
	// there is an equivalent.
	Reason string
}

// Error formats the failure as ART's verifier does after "failed to
// verify: ": the method, the dex pc in brackets, the reason.
func (e *Error) Error() string {
	if e.PC < 0 {
		return e.Method + ": " + e.Reason
	}
	return fmt.Sprintf("%s: [0x%X] %s", e.Method, e.PC, e.Reason)
}

// ClassError collects the methods of one class that failed verification.
type ClassError struct {
	// Class is the class in Java form, "pkg.Foo".
	Class   string
	Methods []*Error
}

// Error is the message of the VerifyError ART throws for the class:
// "Verifier rejected class Foo: void Foo.bar(int) failed to verify:
// void Foo.bar(int): [0x1A] reason", one such part per failed method.
func (e *ClassError) Error() string {
	var b strings.Builder
	b.WriteString("Verifier rejected class ")
	b.WriteString(e.Class)
	b.WriteString(": ")
	for i, m := range e.Methods {
		if i > 0 {
			b.WriteString("\n ")
		}
		b.WriteString(m.Method)
		b.WriteString(" failed to verify: ")
		b.WriteString(m.Error())
	}
	return b.String()
}

// Unwrap gives errors.As access to the method errors.
func (e *ClassError) Unwrap() []error {
	out := make([]error, len(e.Methods))
	for i, m := range e.Methods {
		out[i] = m
	}
	return out
}

// failure is the panic value the checks use to stop at the first hard
// failure of a method; Method turns it into an *Error.
type failure struct {
	pc     int
	reason string
}

func (v *verifier) fail(format string, args ...any) {
	panic(failure{v.pc, fmt.Sprintf(format, args...)})
}
