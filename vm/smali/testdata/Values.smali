# Encoded values in field initialisers and annotations.
.class public abstract interface annotation Lorg/droidprof/smali/Values;
.super Ljava/lang/Object;
.implements Ljava/lang/annotation/Annotation;
.implements Ljava/io/Serializable;

.annotation system Ldalvik/annotation/AnnotationDefault;
    value = .subannotation Lorg/droidprof/smali/Values;
        count = 3
        names = {"a", "b"}
    .end subannotation
.end annotation

.annotation runtime Ljava/lang/annotation/Retention;
    value = .enum Ljava/lang/annotation/RetentionPolicy;->RUNTIME:Ljava/lang/annotation/RetentionPolicy;
.end annotation

.field public static final BYTE:B = 0x7ft
.field public static final SHORT:S = -0x8000s
.field public static final CHAR:C = '\u2603'
.field public static final INT:I = 0xffffffff
.field public static final LONG:J = -9223372036854775808L
.field public static final FLOAT:F = -0.0f
.field public static final DOUBLE:D = 1e100
.field public static final NAN:F = NaNf
.field public static final BOOL:Z = true
.field public static final STRING:Ljava/lang/String; = "tab\tquote\"backslash\\"
.field public static final NULL:Ljava/lang/Object; = null
.field public static final TYPE:Ljava/lang/Class; = [Ljava/lang/String;
.field public static final PRIM:Ljava/lang/Class; = I
.field public static final VOID:Ljava/lang/Class; = V
.field public static final FIELD:Ljava/lang/Object; = Lorg/droidprof/smali/Values;->INT:I
.field public static final METHOD:Ljava/lang/Object; = Ljava/lang/Object;->toString()Ljava/lang/String;
.field public static final HANDLE:Ljava/lang/Object; = invoke-static@Ljava/lang/Integer;->valueOf(I)Ljava/lang/Integer;
.field public static final GETTER:Ljava/lang/Object; = static-get@Lorg/droidprof/smali/Values;->INT:I
.field public static final TYPE_OF:Ljava/lang/Object; = (IJ[Ljava/lang/String;)V
.field public static final ARRAY:[I = {1, 2, 3}
.field public static final EMPTY:[I = {}
.field public static final NESTED:[[Ljava/lang/Object; = {{1, "two"}, {3.0, 'c', null}}

.field public static final annotated:I
    .annotation runtime Ljava/lang/Deprecated;
    .end annotation
.end field

.method public abstract count()I
    .annotation runtime Ljava/lang/Deprecated;
    .end annotation
.end method

.method public abstract names()[Ljava/lang/String;
.end method

.method public abstract named(ILjava/lang/String;J)V
    .param p1, "number"
    .param p2, "text"
        .annotation build Ljava/lang/SuppressWarnings;
            value = {"unused"}
        .end annotation
    .end param
    .param p3, "wide"
.end method
