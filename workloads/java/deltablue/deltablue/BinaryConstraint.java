package deltablue;

/** A constraint between two variables, solvable forward or backward. */
abstract class BinaryConstraint extends Constraint {
    static final int NONE = 0;
    static final int FORWARD = 1;
    static final int BACKWARD = 2;

    final Variable v1;
    final Variable v2;
    int direction = NONE;

    BinaryConstraint(Variable v1, Variable v2, Strength strength, Planner planner) {
        super(strength, planner);
        this.v1 = v1;
        this.v2 = v2;
    }

    @Override
    void chooseMethod(int mark) {
        if (v1.mark == mark) {
            direction = v2.mark != mark && Strength.stronger(strength, v2.walkStrength) ? FORWARD : NONE;
        } else if (v2.mark == mark) {
            direction = v1.mark != mark && Strength.stronger(strength, v1.walkStrength) ? BACKWARD : NONE;
        } else if (Strength.weaker(v1.walkStrength, v2.walkStrength)) {
            direction = Strength.stronger(strength, v1.walkStrength) ? BACKWARD : NONE;
        } else {
            direction = Strength.stronger(strength, v2.walkStrength) ? FORWARD : BACKWARD;
        }
    }

    @Override
    void addToGraph() {
        v1.addConstraint(this);
        v2.addConstraint(this);
        direction = NONE;
    }

    @Override
    void removeFromGraph() {
        v1.removeConstraint(this);
        v2.removeConstraint(this);
        direction = NONE;
    }

    @Override
    boolean isSatisfied() {
        return direction != NONE;
    }

    @Override
    void markUnsatisfied() {
        direction = NONE;
    }

    @Override
    void markInputs(int mark) {
        input().mark = mark;
    }

    Variable input() {
        return direction == FORWARD ? v1 : v2;
    }

    @Override
    Variable output() {
        return direction == FORWARD ? v2 : v1;
    }

    @Override
    boolean inputsKnown(int mark) {
        Variable in = input();
        return in.mark == mark || in.stay || in.determinedBy == null;
    }

    @Override
    void recalculate() {
        Variable in = input();
        Variable out = output();
        out.walkStrength = Strength.weakestOf(strength, in.walkStrength);
        out.stay = in.stay;
        if (out.stay) {
            execute();
        }
    }
}
