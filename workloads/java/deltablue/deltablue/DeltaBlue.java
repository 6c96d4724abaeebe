package deltablue;

import java.util.ArrayList;

/**
 * DeltaBlue-style incremental constraint solver workload (after the
 * algorithm of Freeman-Benson, Maloney and Borning), with its two classic
 * tests: a chain of n equality constraints driven by an edit at one end
 * against a stay at the other, and a projection of n variables through
 * scale-and-offset constraints edited from both sides. Arguments: n
 * (default 100), rounds (default 8). Prints, per test, plan sizes and the
 * values checked, and a final checksum.
 */
public final class DeltaBlue {
    private DeltaBlue() {}

    static long checksum;

    static void check(boolean ok, String what) {
        if (!ok) {
            throw new IllegalStateException("DeltaBlue check failed: " + what);
        }
    }

    /** Builds a chain v0 = v1 = ... = vn and drives it from v0. */
    static void chainTest(int n, boolean print) {
        Planner planner = new Planner();
        Variable first = null;
        Variable last = null;
        Variable prev = null;
        for (int i = 0; i <= n; i++) {
            Variable v = new Variable("v" + i, 0);
            if (prev != null) {
                new EqualityConstraint(prev, v, Strength.REQUIRED, planner);
            }
            if (i == 0) {
                first = v;
            }
            if (i == n) {
                last = v;
            }
            prev = v;
        }
        new StayConstraint(last, Strength.STRONG_DEFAULT, planner);
        EditConstraint edit = new EditConstraint(first, Strength.PREFERRED, planner);
        ArrayList<Constraint> edits = new ArrayList<Constraint>();
        edits.add(edit);
        Plan plan = planner.extractPlanFromConstraints(edits);
        for (int i = 0; i < 100; i++) {
            first.value = i;
            plan.execute();
            check(last.value == i, "chain: " + last.name + " = " + last.value + ", want " + i);
            checksum = checksum * 31 + last.value;
        }
        if (print) {
            System.out.println("chain n=" + n + " plan=" + plan.size() + " last=" + last.name + " value=" + last.value);
        }
    }

    /** Edits v to newValue through a temporary edit constraint. */
    static int change(Planner planner, Variable v, int newValue) {
        EditConstraint edit = new EditConstraint(v, Strength.PREFERRED, planner);
        ArrayList<Constraint> edits = new ArrayList<Constraint>();
        edits.add(edit);
        Plan plan = planner.extractPlanFromConstraints(edits);
        for (int i = 0; i < 10; i++) {
            v.value = newValue;
            plan.execute();
        }
        edit.destroyConstraint();
        return plan.size();
    }

    /** n pairs src_i -> dst_i = src_i * scale + offset, edited from all sides. */
    static void projectionTest(int n, boolean print) {
        Planner planner = new Planner();
        Variable scale = new Variable("scale", 10);
        Variable offset = new Variable("offset", 1000);
        Variable src = null;
        Variable dst = null;
        ArrayList<Variable> dests = new ArrayList<Variable>();
        for (int i = 0; i < n; i++) {
            src = new Variable("src" + i, i);
            dst = new Variable("dst" + i, i);
            dests.add(dst);
            new StayConstraint(src, Strength.NORMAL, planner);
            new ScaleConstraint(src, scale, offset, dst, Strength.REQUIRED, planner);
        }
        int p1 = change(planner, src, 17);
        check(dst.value == 1170, "projection 1: " + dst.value);
        int p2 = change(planner, dst, 1050);
        check(src.value == 5, "projection 2: " + src.value);
        int p3 = change(planner, scale, 5);
        long sum3 = 0;
        for (int i = 0; i < n - 1; i++) {
            check(dests.get(i).value == i * 5 + 1000, "projection 3");
            sum3 += dests.get(i).value;
        }
        int p4 = change(planner, offset, 2000);
        long sum4 = 0;
        for (int i = 0; i < n - 1; i++) {
            check(dests.get(i).value == i * 5 + 2000, "projection 4");
            sum4 += dests.get(i).value;
        }
        checksum = checksum * 31 + sum3 + sum4 + src.value + dst.value;
        if (print) {
            System.out.println("projection n=" + n + " plans=" + p1 + "," + p2 + "," + p3 + "," + p4
                    + " src=" + src.value + " dst=" + dst.value + " sum3=" + sum3 + " sum4=" + sum4);
        }
    }

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 100;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 8;
        for (int r = 0; r < rounds; r++) {
            chainTest(n, r == 0);
            projectionTest(n, r == 0);
        }
        System.out.println("DeltaBlue n=" + n + " rounds=" + rounds + " checksum=" + checksum);
    }
}
