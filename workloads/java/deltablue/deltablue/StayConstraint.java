package deltablue;

/** Keeps a variable's value unchanged, at the given strength. */
final class StayConstraint extends UnaryConstraint {
    StayConstraint(Variable v, Strength strength, Planner planner) {
        super(v, strength, planner);
    }

    @Override
    void execute() {}
}
