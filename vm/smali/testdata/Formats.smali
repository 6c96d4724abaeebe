# Every instruction format, with registers and literals at their limits.
.class public final Lorg/droidprof/smali/Formats;
.super Ljava/lang/Object;
.source "Formats.smali"

.field private static counter:I
.field private value:J

.method public constructor <init>()V
    .registers 1
    invoke-direct {p0}, Ljava/lang/Object;-><init>()V
    return-void
.end method

.method public static formats(IJLjava/lang/Object;)J
    .locals 10
    nop                                   # 10x
    move v0, v15                          # 12x
    move/from16 v255, v65535              # 22x
    move/16 v65535, v0                    # 32x
    move-wide v2, v4
    move-wide/from16 v2, v300
    move-wide/16 v1000, v2
    move-object v3, p3
    move-object/from16 v3, p3
    move-object/16 v3, p3
    const/4 v0, -8                        # 11n
    const/4 v1, 7
    const/16 v0, -32768                   # 21s
    const/16 v0, 0x7fff
    const v0, 0x80000000                  # 31i
    const v0, -2147483648
    const v0, 1.5f
    const v0, true
    const v0, 'x'
    const/high16 v0, 0x7f000000           # 21h
    const/high16 v0, -1.0f
    const-wide/16 v0, -1                  # 21s
    const-wide/32 v0, 0x7fffffff          # 31i
    const-wide v0, 0x7fffffffffffffffL    # 51l
    const-wide v0, -0x8000000000000000L
    const-wide v0, 2.5
    const-wide v0, NaN
    const-wide v0, -Infinity
    const-wide v0, 0x1.8p1
    const-wide/high16 v0, 0x4000000000000000L
    const-wide/high16 v0, -0x8000000000000000L
    const-string v0, "hello, \"world\"\n\u00e9\u2603"      # 21c string
    const-string/jumbo v0, "jumbo"        # 31c
    const-class v0, [Ljava/lang/String;   # 21c type
    check-cast v3, Ljava/lang/String;
    new-instance v4, Ljava/lang/StringBuilder;
    instance-of v0, v3, Ljava/lang/String;  # 22c type
    new-array v0, v1, [[I
    array-length v1, v0
    filled-new-array {v0, v1, v2, v3, v4}, [I   # 35c type
    filled-new-array/range {v0 .. v4}, [I       # 3rc type
    filled-new-array/range {}, [I
    filled-new-array/range {v7}, [I
    move-result-object v5                 # 11x
    sget v0, Lorg/droidprof/smali/Formats;->counter:I   # 21c field
    sput v0, counter:I
    iget-wide v0, v3, Lorg/droidprof/smali/Formats;->value:J   # 22c field
    iput-wide v0, v3, value:J
    aget v0, v1, v2                        # 23x
    aput-object v255, v254, v253
    add-int v0, v1, v2
    add-int/2addr v0, v1
    add-int/lit16 v0, v1, 32767            # 22s
    rsub-int v0, v1, -32768
    add-int/lit8 v0, v1, 127               # 22b
    shl-int/lit8 v200, v201, -128
    neg-double v0, v2
    int-to-char v0, v1
    cmp-long v0, v2, v4
    if-eq v0, v1, :target                  # 22t
    if-nez v200, :target                   # 21t
    goto :target                           # 10t
    goto/16 :target                        # 20t
    goto/32 :target                        # 30t
    :target
    invoke-virtual {v4}, Ljava/lang/StringBuilder;->toString()Ljava/lang/String;   # 35c method
    invoke-static/range {v0 .. v2}, Lorg/droidprof/smali/Formats;->formats(IJLjava/lang/Object;)J   # 3rc method
    invoke-static {v0, v1, v2, v3}, formats(IJLjava/lang/Object;)J
    invoke-interface {v3}, Ljava/lang/Runnable;->run()V
    invoke-super {p3}, Ljava/lang/Object;->hashCode()I
    invoke-direct {p3}, Ljava/lang/Object;-><init>()V
    monitor-enter v3
    monitor-exit v3
    fill-array-data v0, :data              # 31t
    packed-switch v1, :packed
    sparse-switch v1, :sparse
    move-result-wide v0
    return-wide v0
    throw v3

    :data
    .array-data 4
        1
        -1
        0x7fffffff
        2.0f
        'a'
        true
    .end array-data

    :packed
    .packed-switch -1
        :target
        :data
    .end packed-switch

    :sparse
    .sparse-switch
        -10 -> :target
        0x10 -> :data
        100 -> :target
    .end sparse-switch
.end method
