# An inner interface with an abstract method, no source file, and an enum-like
# annotation: covers class_defs without class data helpers, interfaces and
# annotation element kinds (enum, method, field, array, nested annotation).
.class public interface abstract LFormats$Inner;
.super Ljava/lang/Object;

.annotation system Ldalvik/annotation/EnclosingClass;
    value = LFormats;
.end annotation

.annotation system Ldalvik/annotation/InnerClass;
    accessFlags = 0x609
    name = "Inner"
.end annotation

.annotation runtime LFormats$Ann;
    e = .enum Ljava/lang/annotation/RetentionPolicy;->RUNTIME:Ljava/lang/annotation/RetentionPolicy;
    m = LFormats;->run()V
    f = LFormats;->sInt:I
    arr = { 1.5f, 2.0, 'c', 0x10s, 0x1t, 0x100000000L, true, null, "s" }
    nested = .subannotation Ljava/lang/Deprecated;
    .end subannotation
.end annotation

.method public abstract act(JD)V
.end method
