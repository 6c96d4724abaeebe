// Package core holds the VM's core library: java.lang, java.util, java.io
// and java.lang.annotation written for this VM in Java (java/), and the
// DEX file built from them (core.dex), which is embedded.
//
// Most of the library is plain Java. What needs the VM is declared native,
// and Natives lists exactly those methods: the VM registers a Go
// implementation for each, and the package's tests check that the DEX
// declares no other native method and none is missing. README.md describes
// the contract, including the fields the VM reads and writes directly.
package core

import _ "embed" // for core.dex

//go:generate go run ./gen

//go:embed core.dex
var dexFile []byte

// DEX returns the core library's DEX file, the boot class path's only
// file. The slice is shared: callers must not modify it.
func DEX() []byte { return dexFile }

// Natives lists the native methods of the core library as
// "Lclass;->name(params)return" descriptors, grouped by class. The VM must
// implement each of them; the Java sources declare no others.
var Natives = []string{
	// dalvik.system.VMDebug (static): the calling thread's CPU clock.
	"Ldalvik/system/VMDebug;->threadCpuTimeNanos()J",
	// java.lang.reflect.Array (static): arrays of any type (multianewarray).
	"Ljava/lang/reflect/Array;->newArray(Ljava/lang/Class;I)Ljava/lang/Object;",
	"Ljava/lang/reflect/Array;->newMultiArray(Ljava/lang/Class;[I)Ljava/lang/Object;",
	"Ljava/lang/reflect/Array;->length(Ljava/lang/Object;)I",
	// java.lang.reflect.VMReflection (static): members by declaring class
	// and slot (index in the runtime's field or method table); values move
	// as raw longs, checks and boxing are Java.
	"Ljava/lang/reflect/VMReflection;->count(Ljava/lang/Class;Z)I",
	"Ljava/lang/reflect/VMReflection;->name(Ljava/lang/Class;IZ)Ljava/lang/String;",
	"Ljava/lang/reflect/VMReflection;->modifiers(Ljava/lang/Class;IZ)I",
	"Ljava/lang/reflect/VMReflection;->offset(Ljava/lang/Class;I)I",
	"Ljava/lang/reflect/VMReflection;->fieldType(Ljava/lang/Class;I)Ljava/lang/Class;",
	"Ljava/lang/reflect/VMReflection;->returnType(Ljava/lang/Class;I)Ljava/lang/Class;",
	"Ljava/lang/reflect/VMReflection;->parameterTypes(Ljava/lang/Class;I)[Ljava/lang/Class;",
	"Ljava/lang/reflect/VMReflection;->getRef(Ljava/lang/Class;ILjava/lang/Object;)Ljava/lang/Object;",
	"Ljava/lang/reflect/VMReflection;->getPrim(Ljava/lang/Class;ILjava/lang/Object;)J",
	"Ljava/lang/reflect/VMReflection;->setRef(Ljava/lang/Class;ILjava/lang/Object;Ljava/lang/Object;)V",
	"Ljava/lang/reflect/VMReflection;->setPrim(Ljava/lang/Class;ILjava/lang/Object;J)V",
	"Ljava/lang/reflect/VMReflection;->invoke(Ljava/lang/Class;ILjava/lang/Object;[J[Ljava/lang/Object;[J)Ljava/lang/Object;",
	"Ljava/lang/reflect/VMReflection;->newInstance(Ljava/lang/Class;I[J[Ljava/lang/Object;)Ljava/lang/Object;",
	"Ljava/lang/reflect/VMReflection;->ensureInitialized(Ljava/lang/Class;)V",
	"Ljava/lang/reflect/VMReflection;->canAccess(Ljava/lang/Class;ILjava/lang/Object;)Z",
	"Ljava/lang/reflect/VMReflection;->callerName()Ljava/lang/String;",
	"Ljava/lang/reflect/VMReflection;->annotations(Ljava/lang/Class;III)[Ljava/lang/Object;",
	"Ljava/lang/reflect/VMReflection;->annotationDefaults(Ljava/lang/Class;)[Ljava/lang/Object;",
	"Ljava/lang/reflect/VMReflection;->signature(Ljava/lang/Class;II)Ljava/lang/String;",
	"Ljava/lang/reflect/VMReflection;->enclosingMethodSlot(Ljava/lang/Class;)I",
	"Ljava/lang/reflect/VMReflection;->memberClasses(Ljava/lang/Class;)[Ljava/lang/Class;",
	"Ljava/lang/reflect/VMReflection;->loadType(Ljava/lang/String;)Ljava/lang/Class;",
	"Ljava/lang/reflect/VMReflection;->exceptionTypes(Ljava/lang/Class;I)[Ljava/lang/Class;",
	"Ljava/lang/reflect/VMReflection;->interfaces(Ljava/lang/Class;)[Ljava/lang/Class;",
	"Ljava/lang/reflect/VMReflection;->classModifiers(Ljava/lang/Class;)I",
	"Ljava/lang/reflect/VMReflection;->enclosingClass(Ljava/lang/Class;Z)Ljava/lang/Class;",
	"Ljava/lang/reflect/VMReflection;->isAnonymous(Ljava/lang/Class;)Z",

	// java.lang.reflect.Proxy (static): proxy classes the VM defines.
	"Ljava/lang/reflect/Proxy;->proxyClass([Ljava/lang/Class;)Ljava/lang/Class;",
	"Ljava/lang/reflect/Proxy;->isProxyClass0(Ljava/lang/Class;)Z",
	"Ljava/lang/reflect/Proxy;->allocate(Ljava/lang/Class;)Ljava/lang/Object;",

	// java.lang.ref.Reference (static): the queue daemon takes the
	// references the collector cleared.
	"Ljava/lang/ref/Reference;->waitForPending()Ljava/lang/ref/Reference;",
	// java.lang.Object: identity, class and monitors.
	"Ljava/lang/Object;->getClass()Ljava/lang/Class;",
	"Ljava/lang/Object;->hashCode()I",
	"Ljava/lang/Object;->clone()Ljava/lang/Object;",
	"Ljava/lang/Object;->notify()V",
	"Ljava/lang/Object;->notifyAll()V",
	"Ljava/lang/Object;->wait(JI)V",

	// java.lang.Class: the class model is the VM's; Class has no fields.
	"Ljava/lang/Class;->getName()Ljava/lang/String;",
	"Ljava/lang/Class;->getSuperclass()Ljava/lang/Class;",
	"Ljava/lang/Class;->isArray()Z",
	"Ljava/lang/Class;->isInterface()Z",
	"Ljava/lang/Class;->isPrimitive()Z",
	"Ljava/lang/Class;->getComponentType()Ljava/lang/Class;",
	"Ljava/lang/Class;->isInstance(Ljava/lang/Object;)Z",
	"Ljava/lang/Class;->isAssignableFrom(Ljava/lang/Class;)Z",
	"Ljava/lang/Class;->newInstance()Ljava/lang/Object;",
	"Ljava/lang/Class;->forName0(Ljava/lang/String;ZZ)Ljava/lang/Class;",
	"Ljava/lang/Class;->isBootClass()Z", // static
	"Ljava/lang/Class;->enumValues0()[Ljava/lang/Object;",

	// java.lang.String.
	"Ljava/lang/String;->intern()Ljava/lang/String;",

	// java.lang.System (all static).
	"Ljava/lang/System;->arraycopy(Ljava/lang/Object;ILjava/lang/Object;II)V",
	"Ljava/lang/System;->nanoTime()J",
	"Ljava/lang/System;->currentTimeMillis()J",
	"Ljava/lang/System;->identityHashCode(Ljava/lang/Object;)I",
	"Ljava/lang/System;->exit0(I)V",
	"Ljava/lang/System;->gc()V",
	"Ljava/lang/System;->vmProperties()[Ljava/lang/String;",

	// java.lang.Runtime (instance methods of the singleton).
	"Ljava/lang/Runtime;->freeMemory()J",
	"Ljava/lang/Runtime;->totalMemory()J",
	"Ljava/lang/Runtime;->maxMemory()J",
	"Ljava/lang/Runtime;->availableProcessors()I",

	// java.lang.Math (all static).
	"Ljava/lang/Math;->sin(D)D",
	"Ljava/lang/Math;->cos(D)D",
	"Ljava/lang/Math;->tan(D)D",
	"Ljava/lang/Math;->asin(D)D",
	"Ljava/lang/Math;->acos(D)D",
	"Ljava/lang/Math;->atan(D)D",
	"Ljava/lang/Math;->atan2(DD)D",
	"Ljava/lang/Math;->exp(D)D",
	"Ljava/lang/Math;->log(D)D",
	"Ljava/lang/Math;->log10(D)D",
	"Ljava/lang/Math;->sqrt(D)D",
	"Ljava/lang/Math;->cbrt(D)D",
	"Ljava/lang/Math;->pow(DD)D",
	"Ljava/lang/Math;->sinh(D)D",
	"Ljava/lang/Math;->cosh(D)D",
	"Ljava/lang/Math;->tanh(D)D",
	"Ljava/lang/Math;->hypot(DD)D",
	"Ljava/lang/Math;->expm1(D)D",
	"Ljava/lang/Math;->log1p(D)D",
	"Ljava/lang/Math;->floor(D)D",
	"Ljava/lang/Math;->ceil(D)D",
	"Ljava/lang/Math;->rint(D)D",
	"Ljava/lang/Math;->IEEEremainder(DD)D",

	// java.lang.Float and java.lang.Double (all static); parse* throw
	// NumberFormatException.
	"Ljava/lang/Float;->floatToRawIntBits(F)I",
	"Ljava/lang/Float;->intBitsToFloat(I)F",
	"Ljava/lang/Float;->toString(F)Ljava/lang/String;",
	"Ljava/lang/Float;->parseFloat(Ljava/lang/String;)F",
	"Ljava/lang/Double;->doubleToRawLongBits(D)J",
	"Ljava/lang/Double;->longBitsToDouble(J)D",
	"Ljava/lang/Double;->toString(D)Ljava/lang/String;",
	"Ljava/lang/Double;->parseDouble(Ljava/lang/String;)D",

	// java.lang.Thread.
	"Ljava/lang/Thread;->currentThread()Ljava/lang/Thread;", // static
	"Ljava/lang/Thread;->start0()V",
	"Ljava/lang/Thread;->sleep(JI)V", // static
	"Ljava/lang/Thread;->yield()V",   // static
	"Ljava/lang/Thread;->isAlive()Z",
	"Ljava/lang/Thread;->interrupt0()V",
	"Ljava/lang/Thread;->isInterrupted0(Z)Z",
	"Ljava/lang/Thread;->getThreads0()[Ljava/lang/Thread;", // static
	"Ljava/lang/Thread;->getStackTrace0()[Ljava/lang/StackTraceElement;",

	// java.lang.Throwable (static): an opaque backtrace, decoded lazily.
	"Ljava/lang/Throwable;->nativeFillInStackTrace()Ljava/lang/Object;",
	"Ljava/lang/Throwable;->nativeGetStackTrace(Ljava/lang/Object;)[Ljava/lang/StackTraceElement;",

	// java.io.FileOutputStream (static): writes to descriptor 1 or 2.
	"Ljava/io/FileOutputStream;->writeBytes(I[BII)V",
	// java.lang.ref.FinalizerReference (static): finalize() and the
	// collector's count of objects queued for it.
	"Ljava/lang/ref/FinalizerReference;->invokeFinalize(Ljava/lang/Object;)V",
	"Ljava/lang/ref/FinalizerReference;->enqueuedCount()J",
	// java.io.VMFiles (static): the file system, for File, the file
	// streams, RandomAccessFile and FileChannel (vm/runtime/files.go).
	"Ljava/io/VMFiles;->stat(Ljava/lang/String;)I",
	"Ljava/io/VMFiles;->length(Ljava/lang/String;)J",
	"Ljava/io/VMFiles;->lastModified(Ljava/lang/String;)J",
	"Ljava/io/VMFiles;->access(Ljava/lang/String;I)Z",
	"Ljava/io/VMFiles;->delete(Ljava/lang/String;)Z",
	"Ljava/io/VMFiles;->deleteOnExit(Ljava/lang/String;)V",
	"Ljava/io/VMFiles;->mkdir(Ljava/lang/String;)Z",
	"Ljava/io/VMFiles;->rename(Ljava/lang/String;Ljava/lang/String;)Z",
	"Ljava/io/VMFiles;->createNew(Ljava/lang/String;)Z",
	"Ljava/io/VMFiles;->list(Ljava/lang/String;)[Ljava/lang/String;",
	"Ljava/io/VMFiles;->canonicalize(Ljava/lang/String;)Ljava/lang/String;",
	"Ljava/io/VMFiles;->open(Ljava/lang/String;I)I",
	"Ljava/io/VMFiles;->close(I)V",
	"Ljava/io/VMFiles;->read(I[BII)I",
	"Ljava/io/VMFiles;->write(I[BII)V",
	"Ljava/io/VMFiles;->pread(I[BIIJ)I",
	"Ljava/io/VMFiles;->pwrite(I[BIIJ)V",
	"Ljava/io/VMFiles;->seek(IJI)J",
	"Ljava/io/VMFiles;->size(I)J",
	"Ljava/io/VMFiles;->truncate(IJ)V",
	"Ljava/io/VMFiles;->sync(I)V",
	"Ljava/io/VMFiles;->dup(I)I",
}
