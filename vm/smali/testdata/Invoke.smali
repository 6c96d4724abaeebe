# Method handles, method types, invoke-polymorphic and invoke-custom (API 28).
.class public Lorg/droidprof/smali/Invoke;
.super Ljava/lang/Object;

.method public static bootstrap(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/invoke/MethodType;I)Ljava/lang/invoke/CallSite;
    .registers 5
    const/4 v0, 0
    return-object v0
.end method

.method public static run(Ljava/lang/invoke/MethodHandle;)V
    .registers 8
    const-method-handle v0, invoke-static@Lorg/droidprof/smali/Invoke;->run(Ljava/lang/invoke/MethodHandle;)V
    const-method-handle v0, instance-get@Ljava/lang/Thread;->name:Ljava/lang/String;
    const-method-type v1, (IJ)Ljava/lang/String;
    invoke-polymorphic {p0, v1}, Ljava/lang/invoke/MethodHandle;->invoke([Ljava/lang/Object;)Ljava/lang/Object;, (I)V
    invoke-polymorphic/range {v0 .. v2}, Ljava/lang/invoke/MethodHandle;->invokeExact([Ljava/lang/Object;)Ljava/lang/Object;, (IJ)V
    invoke-custom {v1}, call_site_0("apply", (I)V, 42)@Lorg/droidprof/smali/Invoke;->bootstrap(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/invoke/MethodType;I)Ljava/lang/invoke/CallSite;
    invoke-custom/range {v1 .. v1}, call_site_1("apply", (I)V, 7)@Lorg/droidprof/smali/Invoke;->bootstrap(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/invoke/MethodType;I)Ljava/lang/invoke/CallSite;
    return-void
.end method

# Names that are keywords elsewhere are fine as member names.
.method public static move(I)V
    .registers 2
    :v0
    :public
    :I
    :123
    goto :v0
.end method

.field public static `name with spaces`:I
.field public static I:I
.field public static static:I
