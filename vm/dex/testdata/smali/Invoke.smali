# DEX 038/039 instructions: invoke-polymorphic (45cc, 4rcc), invoke-custom
# (35c, 3rc call sites), const-method-handle and const-method-type.
# Assembled with smali assemble -a 28.
.class public LInvoke;
.super Ljava/lang/Object;
.source "Invoke.java"

.method public static bsm(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/invoke/MethodType;I)Ljava/lang/invoke/CallSite;
    .registers 5
    const/4 v0, 0x0
    return-object v0
.end method

.method public static bsm2(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/invoke/MethodType;JFDLjava/lang/String;Ljava/lang/Class;)Ljava/lang/invoke/CallSite;
    .registers 12
    const/4 v0, 0x0
    return-object v0
.end method

.method public static target(I)V
    .registers 1
    return-void
.end method

.method public test(Ljava/lang/invoke/MethodHandle;)V
    .registers 10
    invoke-polymorphic {p1, v0, v1}, Ljava/lang/invoke/MethodHandle;->invoke([Ljava/lang/Object;)Ljava/lang/Object;, (II)V
    invoke-polymorphic/range {v2 .. v8}, Ljava/lang/invoke/MethodHandle;->invokeExact([Ljava/lang/Object;)Ljava/lang/Object;, (IIIIII)I
    invoke-custom {v0}, call_site_0("run", (I)V, 0x7)@LInvoke;->bsm(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/invoke/MethodType;I)Ljava/lang/invoke/CallSite;
    invoke-custom/range {v0 .. v0}, call_site_1("walk", (I)V, 0x1L, 2.5f, 3.25, "str", LInvoke;)@LInvoke;->bsm2(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/invoke/MethodType;JFDLjava/lang/String;Ljava/lang/Class;)Ljava/lang/invoke/CallSite;
    const-method-handle v0, invoke-static@LInvoke;->target(I)V
    const-method-handle v0, invoke-instance@Ljava/lang/Object;->toString()Ljava/lang/String;
    const-method-handle v0, static-get@LInvoke;->f:I
    const-method-handle v0, instance-put@LInvoke;->g:J
    const-method-type v0, (ILjava/lang/String;)V
    return-void
.end method

.field public static f:I
.field public g:J
