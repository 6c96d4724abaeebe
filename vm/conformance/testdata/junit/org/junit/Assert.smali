# droidprof's stand-in for JUnit 4's org.junit.Assert, for running smali's
# smali-integration-tests on the VM (vm/conformance). It implements exactly
# the overloads those tests invoke, with JUnit's failure messages, and uses
# as little of the class library as it can: a test should fail because of
# the instruction it exercises, not because of Assert.
#
# Invoked by the suite (grep 'Lorg/junit/Assert;->'):
#   fail()V, assertTrue(Z)V, assertFalse(Z)V, assertEquals(JJ)V,
#   assertEquals(DDD)V, assertEquals(Ljava/lang/Object;Ljava/lang/Object;)V,
#   assertEquals([Ljava/lang/Object;[Ljava/lang/Object;)V

.class public Lorg/junit/Assert;
.super Ljava/lang/Object;
.source "Assert.smali"

.method protected constructor <init>()V
    .registers 1
    invoke-direct {p0}, Ljava/lang/Object;-><init>()V
    return-void
.end method

# fail() throws an AssertionError without a message, as JUnit's fail(null).
.method public static fail()V
    .registers 1
    new-instance v0, Ljava/lang/AssertionError;
    invoke-direct {v0}, Ljava/lang/AssertionError;-><init>()V
    throw v0
.end method

.method public static assertTrue(Z)V
    .registers 1
    if-eqz p0, :failed
    return-void
    :failed
    invoke-static {}, Lorg/junit/Assert;->fail()V
    return-void
.end method

.method public static assertFalse(Z)V
    .registers 1
    if-nez p0, :failed
    return-void
    :failed
    invoke-static {}, Lorg/junit/Assert;->fail()V
    return-void
.end method

.method public static assertEquals(JJ)V
    .registers 6
    cmp-long v0, p0, p2
    if-nez v0, :failed
    return-void
    :failed
    invoke-static {p0, p1}, Ljava/lang/Long;->valueOf(J)Ljava/lang/Long;
    move-result-object v0
    invoke-static {p2, p3}, Ljava/lang/Long;->valueOf(J)Ljava/lang/Long;
    move-result-object v1
    invoke-static {v0, v1}, Lorg/junit/Assert;->failNotEquals(Ljava/lang/Object;Ljava/lang/Object;)V
    return-void
.end method

# assertEquals(expected, actual, delta) fails when the two differ by more
# than delta, as JUnit 4's doubleIsDifferent: equal values pass (also NaN
# and NaN), a NaN difference fails. It compares with cmpl/cmpg-double
# instead of calling Double.compare and Math.abs. (JUnit would fail 0.0
# against -0.0 with a negative delta; that corner is not reproduced.)
.method public static assertEquals(DDD)V
    .registers 10
    # p0 p1 = expected, p2 p3 = actual, p4 p5 = delta; v0..v3 scratch.
    cmpl-double v0, p0, p2
    if-eqz v0, :pass
    # Only NaN is unequal to itself: pass when both are NaN.
    cmpl-double v0, p0, p0
    if-eqz v0, :check_delta
    cmpl-double v0, p2, p2
    if-nez v0, :pass
    :check_delta
    sub-double v0, p0, p2
    const-wide/16 v2, 0
    cmpl-double v2, v0, v2
    if-gez v2, :positive
    neg-double v0, v0
    :positive
    # Fail unless |expected-actual| <= delta; cmpg counts NaN as greater.
    cmpg-double v2, v0, p4
    if-gtz v2, :failed
    :pass
    return-void
    :failed
    invoke-static {p0, p1}, Ljava/lang/Double;->valueOf(D)Ljava/lang/Double;
    move-result-object v0
    invoke-static {p2, p3}, Ljava/lang/Double;->valueOf(D)Ljava/lang/Double;
    move-result-object v1
    invoke-static {v0, v1}, Lorg/junit/Assert;->failNotEquals(Ljava/lang/Object;Ljava/lang/Object;)V
    return-void
.end method

.method public static assertEquals(Ljava/lang/Object;Ljava/lang/Object;)V
    .registers 3
    invoke-static {p0, p1}, Lorg/junit/Assert;->equalsRegardingNull(Ljava/lang/Object;Ljava/lang/Object;)Z
    move-result v0
    if-eqz v0, :failed
    return-void
    :failed
    invoke-static {p0, p1}, Lorg/junit/Assert;->failNotEquals(Ljava/lang/Object;Ljava/lang/Object;)V
    return-void
.end method

# assertEquals(Object[], Object[]) compares lengths and then elements with
# equals (JUnit 4 also recurses into nested arrays; the suite has none).
.method public static assertEquals([Ljava/lang/Object;[Ljava/lang/Object;)V
    .registers 8
    # p0 = expected, p1 = actual
    if-ne p0, p1, :different_refs
    return-void
    :different_refs
    if-eqz p0, :null_array
    if-eqz p1, :null_array
    array-length v0, p0
    array-length v1, p1
    if-ne v0, v1, :lengths_differ
    const/4 v2, 0
    :loop
    if-ge v2, v0, :done
    aget-object v3, p0, v2
    aget-object v4, p1, v2
    invoke-static {v3, v4}, Lorg/junit/Assert;->equalsRegardingNull(Ljava/lang/Object;Ljava/lang/Object;)Z
    move-result v5
    if-eqz v5, :element_differs
    add-int/lit8 v2, v2, 1
    goto :loop
    :done
    return-void

    :null_array
    new-instance v0, Ljava/lang/AssertionError;
    const-string v1, "expected array was null or actual array was null"
    invoke-direct {v0, v1}, Ljava/lang/AssertionError;-><init>(Ljava/lang/Object;)V
    throw v0

    :lengths_differ
    new-instance v2, Ljava/lang/StringBuilder;
    const-string v3, "array lengths differed, expected.length="
    invoke-direct {v2, v3}, Ljava/lang/StringBuilder;-><init>(Ljava/lang/String;)V
    invoke-virtual {v2, v0}, Ljava/lang/StringBuilder;->append(I)Ljava/lang/StringBuilder;
    const-string v3, " actual.length="
    invoke-virtual {v2, v3}, Ljava/lang/StringBuilder;->append(Ljava/lang/String;)Ljava/lang/StringBuilder;
    invoke-virtual {v2, v1}, Ljava/lang/StringBuilder;->append(I)Ljava/lang/StringBuilder;
    invoke-virtual {v2}, Ljava/lang/StringBuilder;->toString()Ljava/lang/String;
    move-result-object v2
    new-instance v0, Ljava/lang/AssertionError;
    invoke-direct {v0, v2}, Ljava/lang/AssertionError;-><init>(Ljava/lang/Object;)V
    throw v0

    :element_differs
    new-instance v0, Ljava/lang/StringBuilder;
    const-string v1, "arrays first differed at element ["
    invoke-direct {v0, v1}, Ljava/lang/StringBuilder;-><init>(Ljava/lang/String;)V
    invoke-virtual {v0, v2}, Ljava/lang/StringBuilder;->append(I)Ljava/lang/StringBuilder;
    const-string v1, "]; expected:<"
    invoke-virtual {v0, v1}, Ljava/lang/StringBuilder;->append(Ljava/lang/String;)Ljava/lang/StringBuilder;
    invoke-virtual {v0, v3}, Ljava/lang/StringBuilder;->append(Ljava/lang/Object;)Ljava/lang/StringBuilder;
    const-string v1, "> but was:<"
    invoke-virtual {v0, v1}, Ljava/lang/StringBuilder;->append(Ljava/lang/String;)Ljava/lang/StringBuilder;
    invoke-virtual {v0, v4}, Ljava/lang/StringBuilder;->append(Ljava/lang/Object;)Ljava/lang/StringBuilder;
    const-string v1, ">"
    invoke-virtual {v0, v1}, Ljava/lang/StringBuilder;->append(Ljava/lang/String;)Ljava/lang/StringBuilder;
    invoke-virtual {v0}, Ljava/lang/StringBuilder;->toString()Ljava/lang/String;
    move-result-object v0
    new-instance v1, Ljava/lang/AssertionError;
    invoke-direct {v1, v0}, Ljava/lang/AssertionError;-><init>(Ljava/lang/Object;)V
    throw v1
.end method

# equalsRegardingNull is JUnit's: both null, or expected.equals(actual).
.method private static equalsRegardingNull(Ljava/lang/Object;Ljava/lang/Object;)Z
    .registers 3
    if-nez p0, :call_equals
    if-nez p1, :not_equal
    const/4 v0, 1
    return v0
    :not_equal
    const/4 v0, 0
    return v0
    :call_equals
    invoke-virtual {p0, p1}, Ljava/lang/Object;->equals(Ljava/lang/Object;)Z
    move-result v0
    return v0
.end method

# failNotEquals throws AssertionError("expected:<E> but was:<A>").
.method private static failNotEquals(Ljava/lang/Object;Ljava/lang/Object;)V
    .registers 4
    new-instance v0, Ljava/lang/StringBuilder;
    const-string v1, "expected:<"
    invoke-direct {v0, v1}, Ljava/lang/StringBuilder;-><init>(Ljava/lang/String;)V
    invoke-virtual {v0, p0}, Ljava/lang/StringBuilder;->append(Ljava/lang/Object;)Ljava/lang/StringBuilder;
    const-string v1, "> but was:<"
    invoke-virtual {v0, v1}, Ljava/lang/StringBuilder;->append(Ljava/lang/String;)Ljava/lang/StringBuilder;
    invoke-virtual {v0, p1}, Ljava/lang/StringBuilder;->append(Ljava/lang/Object;)Ljava/lang/StringBuilder;
    const-string v1, ">"
    invoke-virtual {v0, v1}, Ljava/lang/StringBuilder;->append(Ljava/lang/String;)Ljava/lang/StringBuilder;
    invoke-virtual {v0}, Ljava/lang/StringBuilder;->toString()Ljava/lang/String;
    move-result-object v0
    new-instance v1, Ljava/lang/AssertionError;
    invoke-direct {v1, v0}, Ljava/lang/AssertionError;-><init>(Ljava/lang/Object;)V
    throw v1
.end method
