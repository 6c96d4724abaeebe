# A class without class data.
.class final LEmpty;
.super Ljava/lang/Object;
