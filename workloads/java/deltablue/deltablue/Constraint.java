package deltablue;

/** A constraint between variables, satisfiable in one or more directions. */
abstract class Constraint {
    final Strength strength;
    final Planner planner;

    Constraint(Strength strength, Planner planner) {
        this.strength = strength;
        this.planner = planner;
    }

    /** Hooks the constraint into its variables and lets the planner satisfy it. */
    final void addConstraint() {
        addToGraph();
        planner.incrementalAdd(this);
    }

    /** Removes the constraint, re-planning if it was satisfied. */
    final void destroyConstraint() {
        if (isSatisfied()) {
            planner.incrementalRemove(this);
        } else {
            removeFromGraph();
        }
    }

    /**
     * Tries to satisfy the constraint at the given mark: picks a direction,
     * takes over the output variable and propagates the new walkabout
     * strengths. Returns the constraint that lost the output, or null.
     */
    final Constraint satisfy(int mark) {
        chooseMethod(mark);
        if (!isSatisfied()) {
            if (strength == Strength.REQUIRED) {
                throw new IllegalStateException("could not satisfy a required constraint");
            }
            return null;
        }
        markInputs(mark);
        Variable out = output();
        Constraint overridden = out.determinedBy;
        if (overridden != null) {
            overridden.markUnsatisfied();
        }
        out.determinedBy = this;
        if (!planner.addPropagate(this, mark)) {
            throw new IllegalStateException("cycle encountered");
        }
        out.mark = mark;
        return overridden;
    }

    boolean isInput() {
        return false;
    }

    abstract void addToGraph();

    abstract void removeFromGraph();

    abstract void chooseMethod(int mark);

    abstract boolean isSatisfied();

    abstract void markUnsatisfied();

    abstract void markInputs(int mark);

    abstract boolean inputsKnown(int mark);

    abstract Variable output();

    abstract void recalculate();

    abstract void execute();
}
