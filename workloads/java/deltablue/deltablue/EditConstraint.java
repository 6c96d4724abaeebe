package deltablue;

/** Marks a variable as set from outside (an input) while a plan runs. */
final class EditConstraint extends UnaryConstraint {
    EditConstraint(Variable v, Strength strength, Planner planner) {
        super(v, strength, planner);
    }

    @Override
    boolean isInput() {
        return true;
    }

    @Override
    void execute() {}
}
