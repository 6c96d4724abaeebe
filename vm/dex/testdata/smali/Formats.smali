# Every instruction format of DEX 035 and all three payloads, with tries,
# handlers, debug info, annotations and static values. Assembled by real smali
# in the tests (smali assemble -a 15).
.class public LFormats;
.super Ljava/lang/Object;
.implements Ljava/lang/Runnable;
.implements Ljava/lang/Cloneable;
.source "Formats.java"

.annotation runtime Ljava/lang/Deprecated;
.end annotation

.annotation system Ldalvik/annotation/MemberClasses;
    value = {
        LFormats$Inner;
    }
.end annotation

.field public static sByte:B = 0x7ft
.field public static sShort:S = -0x8000s
.field public static sChar:C = 'x'
.field public static sInt:I = -0x80000000
.field public static sLong:J = 0x7fffffffffffffffL
.field public static sFloat:F = 3.5f
.field public static sDouble:D = -2.25
.field public static sBool:Z = true
.field public static sString:Ljava/lang/String; = "tab\there \"quoted\" \u00e9\u0000nul \ud83d\ude00"
.field public static sType:Ljava/lang/Class; = Ljava/lang/String;
.field public static sNull:Ljava/lang/Object; = null
.field public static sArray:[I
.field public static sNoValue:I

.field private iField:I
    .annotation runtime Ljava/lang/Deprecated;
    .end annotation
.end field

.field protected volatile transient lField:J

.method public constructor <init>()V
    .registers 1
    .prologue
    .line 10
    invoke-direct {p0}, Ljava/lang/Object;-><init>()V
    return-void
.end method

.method public run()V
    .registers 1
    return-void
.end method

.method public static abstractLike(I)I
    .registers 2
    .param p0, "x"
        .annotation runtime Ljava/lang/Deprecated;
        .end annotation
    .end param
    .annotation system Ldalvik/annotation/Throws;
        value = {
            Ljava/lang/Exception;
        }
    .end annotation
    .line 20
    return p0
.end method

.method public native nativeMethod()V
.end method

.method public formats(IJLjava/lang/Object;)J
    .registers 300
    .param p1, "i"
    .param p2, "j"
    .param p4, "o"
    .line 30
    nop
    const/4 v0, -0x8
    const/4 v1, 0x7
    .local v0, "a":I
    const/16 v2, -0x8000
    .local v2, "b":I, "Ljava/util/List<Ljava/lang/String;>;"
    const v3, 0x12345678
    .line 31
    const/high16 v4, 0x7f800000
    const-wide/16 v5, 0x7fff
    const-wide/32 v7, -0x80000000
    const-wide v9, 0x400921fb54442d18L
    const-wide/high16 v11, 0x4000000000000000L
    .end local v0
    const-string v13, "hello"
    const-string/jumbo v14, "jumbo"
    const-class v15, Ljava/lang/String;
    .restart local v0
    .line 1000
    move v0, v1
    move/from16 v16, v255
    move/16 v256, v257
    move-wide v0, v2
    move-wide/from16 v16, v255
    move-wide/16 v256, v258
    move-object v0, v1
    move-object/from16 v16, v255
    move-object/16 v256, v257
    .line 25
    invoke-virtual {v6}, LFormats;->run()V
    invoke-static {v0, v1, v2, v3, v4}, LFormats;->five(IIIII)V
    invoke-static/range {v0 .. v5}, LFormats;->six(IIIIII)V
    invoke-static/range {v256 .. v256}, LFormats;->abstractLike(I)I
    move-result v0
    invoke-virtual {v6}, LFormats;->wide()J
    move-result-wide v0
    invoke-super {v6}, Ljava/lang/Object;->toString()Ljava/lang/String;
    move-result-object v0
    invoke-interface {v6}, Ljava/lang/Runnable;->run()V
    invoke-direct {v6}, LFormats;->priv()V
    invoke-virtual/range {p0 .. p0}, LFormats;->run()V
    invoke-super/range {p0 .. p0}, Ljava/lang/Object;->hashCode()I
    invoke-direct/range {p0 .. p0}, LFormats;->priv()V
    invoke-interface/range {p0 .. p0}, Ljava/lang/Runnable;->run()V
    new-instance v0, Ljava/lang/Object;
    new-array v1, v2, [I
    array-length v3, v1
    filled-new-array {v2, v3}, [I
    move-result-object v1
    filled-new-array/range {v2 .. v4}, [I
    move-result-object v1
    fill-array-data v1, :array_int
    check-cast v0, Ljava/lang/String;
    instance-of v5, v0, Ljava/lang/String;
    monitor-enter v0
    monitor-exit v0
    iget v0, v6, LFormats;->iField:I
    iget-wide v0, v6, LFormats;->lField:J
    iput v0, v6, LFormats;->iField:I
    iput-wide v0, v6, LFormats;->lField:J
    sget v0, LFormats;->sInt:I
    sget-wide v0, LFormats;->sLong:J
    sget-object v0, LFormats;->sString:Ljava/lang/String;
    sget-boolean v0, LFormats;->sBool:Z
    sget-byte v0, LFormats;->sByte:B
    sget-char v0, LFormats;->sChar:C
    sget-short v0, LFormats;->sShort:S
    sput v0, LFormats;->sInt:I
    sput-object v0, LFormats;->sString:Ljava/lang/String;
    aget v0, v1, v2
    aget-wide v0, v1, v2
    aget-object v0, v1, v2
    aget-boolean v0, v1, v2
    aget-byte v0, v1, v2
    aget-char v0, v1, v2
    aget-short v0, v1, v2
    aput v0, v1, v2
    aput-wide v0, v1, v2
    aput-object v0, v1, v2
    aput-boolean v0, v1, v2
    aput-byte v0, v1, v2
    aput-char v0, v1, v2
    aput-short v0, v1, v2
    cmpl-float v0, v1, v2
    cmpg-float v0, v1, v2
    cmpl-double v0, v2, v4
    cmpg-double v0, v2, v4
    cmp-long v0, v2, v4
    neg-int v0, v1
    not-int v0, v1
    neg-long v0, v2
    not-long v0, v2
    neg-float v0, v1
    neg-double v0, v2
    int-to-long v0, v2
    int-to-float v0, v1
    int-to-double v0, v2
    long-to-int v0, v2
    long-to-float v0, v2
    long-to-double v0, v2
    float-to-int v0, v1
    float-to-long v0, v2
    float-to-double v0, v2
    double-to-int v0, v2
    double-to-long v0, v2
    double-to-float v0, v2
    int-to-byte v0, v1
    int-to-char v0, v1
    int-to-short v0, v1
    add-int v0, v1, v2
    sub-int v0, v1, v2
    mul-int v0, v1, v2
    div-int v0, v1, v2
    rem-int v0, v1, v2
    and-int v0, v1, v2
    or-int v0, v1, v2
    xor-int v0, v1, v2
    shl-int v0, v1, v2
    shr-int v0, v1, v2
    ushr-int v0, v1, v2
    add-long v0, v2, v4
    sub-long v0, v2, v4
    mul-long v0, v2, v4
    div-long v0, v2, v4
    rem-long v0, v2, v4
    and-long v0, v2, v4
    or-long v0, v2, v4
    xor-long v0, v2, v4
    shl-long v0, v2, v4
    shr-long v0, v2, v4
    ushr-long v0, v2, v4
    add-float v0, v1, v2
    sub-float v0, v1, v2
    mul-float v0, v1, v2
    div-float v0, v1, v2
    rem-float v0, v1, v2
    add-double v0, v2, v4
    sub-double v0, v2, v4
    mul-double v0, v2, v4
    div-double v0, v2, v4
    rem-double v0, v2, v4
    add-int/2addr v0, v1
    sub-int/2addr v0, v1
    mul-int/2addr v0, v1
    div-int/2addr v0, v1
    rem-int/2addr v0, v1
    and-int/2addr v0, v1
    or-int/2addr v0, v1
    xor-int/2addr v0, v1
    shl-int/2addr v0, v1
    shr-int/2addr v0, v1
    ushr-int/2addr v0, v1
    add-long/2addr v0, v2
    sub-long/2addr v0, v2
    mul-long/2addr v0, v2
    div-long/2addr v0, v2
    rem-long/2addr v0, v2
    and-long/2addr v0, v2
    or-long/2addr v0, v2
    xor-long/2addr v0, v2
    shl-long/2addr v0, v2
    shr-long/2addr v0, v2
    ushr-long/2addr v0, v2
    add-float/2addr v0, v1
    sub-float/2addr v0, v1
    mul-float/2addr v0, v1
    div-float/2addr v0, v1
    rem-float/2addr v0, v1
    add-double/2addr v0, v2
    sub-double/2addr v0, v2
    mul-double/2addr v0, v2
    div-double/2addr v0, v2
    rem-double/2addr v0, v2
    add-int/lit16 v0, v1, 0x7fff
    rsub-int v0, v1, -0x8000
    mul-int/lit16 v0, v1, 0x2
    div-int/lit16 v0, v1, 0x3
    rem-int/lit16 v0, v1, 0x4
    and-int/lit16 v0, v1, 0x5
    or-int/lit16 v0, v1, 0x6
    xor-int/lit16 v0, v1, 0x7
    add-int/lit8 v0, v1, 0x7f
    rsub-int/lit8 v0, v1, -0x80
    mul-int/lit8 v0, v1, 0x2
    div-int/lit8 v0, v1, 0x3
    rem-int/lit8 v0, v1, 0x4
    and-int/lit8 v0, v1, 0x5
    or-int/lit8 v0, v1, 0x6
    xor-int/lit8 v0, v1, 0x7
    shl-int/lit8 v0, v1, 0x8
    shr-int/lit8 v0, v1, 0x9
    ushr-int/lit8 v0, v1, 0xa
    :try_start
    packed-switch v0, :packed
    sparse-switch v0, :sparse
    :try_end
    .catch Ljava/lang/ArithmeticException; {:try_start .. :try_end} :handler
    .catch Ljava/lang/Exception; {:try_start .. :try_end} :handler2
    .catchall {:try_start .. :try_end} :handler3
    if-eq v0, v1, :back
    if-ne v0, v1, :forward
    if-lt v0, v1, :forward
    if-ge v0, v1, :forward
    if-gt v0, v1, :forward
    if-le v0, v1, :forward
    if-eqz v0, :forward
    if-nez v0, :forward
    if-ltz v0, :forward
    if-gez v0, :forward
    if-gtz v0, :forward
    if-lez v0, :forward
    goto :forward
    :back
    goto/16 :forward
    goto/32 :forward
    :forward
    .line 40
    return-wide v0

    :handler
    move-exception v0
    throw v0

    :handler2
    move-exception v0
    return-wide v0

    :handler3
    move-exception v0
    throw v0

    :packed
    .packed-switch -0x2
        :forward
        :back
        :handler
    .end packed-switch

    :sparse
    .sparse-switch
        -0x80000000 -> :forward
        0x0 -> :back
        0x7fffffff -> :handler
    .end sparse-switch

    :array_int
    .array-data 4
        0x1
        -0x1
        0x7fffffff
    .end array-data
.end method

.method public arrays()V
    .registers 4
    fill-array-data v0, :bytes
    fill-array-data v0, :shorts
    fill-array-data v0, :longs
    return-void

    :bytes
    .array-data 1
        0x1t
        0x2t
        0x3t
    .end array-data

    :shorts
    .array-data 2
        0x1s
        -0x1s
    .end array-data

    :longs
    .array-data 8
        0x1L
        -0x1L
    .end array-data
.end method

.method public wide()J
    .registers 2
    const-wide/16 v0, 0x0
    return-wide v0
.end method

.method private priv()V
    .registers 1
    return-void
.end method

.method public static five(IIIII)V
    .registers 5
    return-void
.end method

.method public static six(IIIIII)V
    .registers 6
    return-void
.end method

.method public static floats()V
    .registers 4
    const v0, 0x7fc00000
    const v0, 0xffc00000
    const v0, 0x7f800000
    const v0, 0x1
    const-wide v0, 0x7ff8000000000000L
    const-wide v0, 0x1L
    const-wide v2, 0x3ff0000000000001L
    const/high16 v0, -0x10000
    const-wide/high16 v0, -0x8000000000000000L
    return-void
.end method
