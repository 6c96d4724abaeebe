package deltablue;

import java.util.ArrayList;

/**
 * The incremental planner: keeps a solution graph as constraints come and
 * go, and extracts plans that recompute it after inputs change.
 */
final class Planner {
    private int currentMark;

    int newMark() {
        return ++currentMark;
    }

    /** Satisfies c, possibly overriding weaker constraints in a chain. */
    void incrementalAdd(Constraint c) {
        int mark = newMark();
        Constraint overridden = c.satisfy(mark);
        while (overridden != null) {
            overridden = overridden.satisfy(mark);
        }
    }

    /**
     * Removes satisfied constraint c and re-satisfies, strongest first, the
     * constraints that may now be satisfiable.
     */
    void incrementalRemove(Constraint c) {
        Variable out = c.output();
        c.markUnsatisfied();
        c.removeFromGraph();
        ArrayList<Constraint> unsatisfied = removePropagateFrom(out);
        Strength s = Strength.REQUIRED;
        while (true) {
            for (int i = 0; i < unsatisfied.size(); i++) {
                Constraint u = unsatisfied.get(i);
                if (u.strength == s) {
                    incrementalAdd(u);
                }
            }
            s = s.nextWeaker();
            if (s == Strength.WEAKEST) {
                break;
            }
        }
    }

    /** Orders the constraints reachable from sources whose inputs are known. */
    Plan makePlan(ArrayList<Constraint> sources) {
        int mark = newMark();
        Plan plan = new Plan();
        ArrayList<Constraint> todo = new ArrayList<Constraint>(sources);
        for (int head = 0; head < todo.size(); head++) {
            Constraint c = todo.get(head);
            Variable out = c.output();
            if (out.mark != mark && c.inputsKnown(mark)) {
                plan.add(c);
                out.mark = mark;
                addConstraintsConsumingTo(out, todo);
            }
        }
        return plan;
    }

    /** Plans from the satisfied input constraints among constraints. */
    Plan extractPlanFromConstraints(ArrayList<Constraint> constraints) {
        ArrayList<Constraint> sources = new ArrayList<Constraint>();
        for (int i = 0; i < constraints.size(); i++) {
            Constraint c = constraints.get(i);
            if (c.isInput() && c.isSatisfied()) {
                sources.add(c);
            }
        }
        return makePlan(sources);
    }

    /**
     * Recomputes walkabout strengths and stay flags downstream of c. Returns
     * false (after retracting c) if that reaches a variable marked with mark,
     * which means a cycle.
     */
    boolean addPropagate(Constraint c, int mark) {
        ArrayList<Constraint> todo = new ArrayList<Constraint>();
        todo.add(c);
        for (int head = 0; head < todo.size(); head++) {
            Constraint d = todo.get(head);
            if (d.output().mark == mark) {
                incrementalRemove(c);
                return false;
            }
            d.recalculate();
            addConstraintsConsumingTo(d.output(), todo);
        }
        return true;
    }

    /**
     * Resets out to undetermined and updates everything downstream of it;
     * returns the unsatisfied constraints met on the way.
     */
    ArrayList<Constraint> removePropagateFrom(Variable out) {
        out.determinedBy = null;
        out.walkStrength = Strength.WEAKEST;
        out.stay = true;
        ArrayList<Constraint> unsatisfied = new ArrayList<Constraint>();
        ArrayList<Variable> todo = new ArrayList<Variable>();
        todo.add(out);
        for (int head = 0; head < todo.size(); head++) {
            Variable v = todo.get(head);
            for (int i = 0; i < v.constraints.size(); i++) {
                Constraint c = v.constraints.get(i);
                if (!c.isSatisfied()) {
                    unsatisfied.add(c);
                }
            }
            Constraint determining = v.determinedBy;
            for (int i = 0; i < v.constraints.size(); i++) {
                Constraint next = v.constraints.get(i);
                if (next != determining && next.isSatisfied()) {
                    next.recalculate();
                    todo.add(next.output());
                }
            }
        }
        return unsatisfied;
    }

    private void addConstraintsConsumingTo(Variable v, ArrayList<Constraint> coll) {
        Constraint determining = v.determinedBy;
        for (int i = 0; i < v.constraints.size(); i++) {
            Constraint c = v.constraints.get(i);
            if (c != determining && c.isSatisfied()) {
                coll.add(c);
            }
        }
    }
}
