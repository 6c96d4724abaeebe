package deltablue;

/** v1 = v2. */
final class EqualityConstraint extends BinaryConstraint {
    EqualityConstraint(Variable v1, Variable v2, Strength strength, Planner planner) {
        super(v1, v2, strength, planner);
        addConstraint();
    }

    @Override
    void execute() {
        output().value = input().value;
    }
}
