# Debug directives, exceptions and switches.
.class public Lorg/droidprof/smali/Debug;
.super Ljava/lang/Object;
.source "Debug.java"

.method public static divide(II)I
    .registers 6
    .param p0, "a"
    .param p1, "b"
    .prologue
    .line 10
    const/4 v0, 0
    .local v0, "result":I
    :try_start
    div-int v0, p0, p1
    :try_end
    .catch Ljava/lang/ArithmeticException; {:try_start .. :try_end} :handler
    .catchall {:try_start .. :try_end} :finally
    .line 12
    .end local v0
    .restart local v0
    .epilogue
    return v0
    :handler
    move-exception v1
    .local v1, "e":Ljava/lang/ArithmeticException;
    .local v2, null:V
    .local v3, "list":Ljava/util/List;, "Ljava/util/List<Ljava/lang/String;>;"
    .local v4
    .source "Other.java"
    .line 20
    const/4 v0, -1
    .source
    return v0
    :finally
    move-exception v1
    throw v1
.end method

.method public static choose(I)Ljava/lang/String;
    .locals 1
    packed-switch p0, :table
    const-string v0, "other"
    return-object v0
    :zero
    const-string v0, "zero"
    return-object v0
    :one
    const-string v0, "one"
    return-object v0
    :table
    .packed-switch 0x0
        :zero
        :one
    .end packed-switch
.end method

.method private native nativeMethod()V
.end method

.method static synthetic access$000(Lorg/droidprof/smali/Debug;)V
    .registers 1
    return-void
.end method
