package deltablue;

/** A constraint on a single variable. */
abstract class UnaryConstraint extends Constraint {
    final Variable myOutput;
    boolean satisfied;

    UnaryConstraint(Variable v, Strength strength, Planner planner) {
        super(strength, planner);
        myOutput = v;
        addConstraint();
    }

    @Override
    void addToGraph() {
        myOutput.addConstraint(this);
        satisfied = false;
    }

    @Override
    void removeFromGraph() {
        myOutput.removeConstraint(this);
        satisfied = false;
    }

    @Override
    void chooseMethod(int mark) {
        satisfied = myOutput.mark != mark && Strength.stronger(strength, myOutput.walkStrength);
    }

    @Override
    boolean isSatisfied() {
        return satisfied;
    }

    @Override
    void markUnsatisfied() {
        satisfied = false;
    }

    @Override
    void markInputs(int mark) {}

    @Override
    boolean inputsKnown(int mark) {
        return true;
    }

    @Override
    Variable output() {
        return myOutput;
    }

    @Override
    void recalculate() {
        myOutput.walkStrength = strength;
        myOutput.stay = !isInput();
        if (myOutput.stay) {
            execute();
        }
    }
}
