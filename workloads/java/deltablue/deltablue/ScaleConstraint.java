package deltablue;

/** dest = src * scale + offset, solvable for dest or for src. */
final class ScaleConstraint extends BinaryConstraint {
    final Variable scale;
    final Variable offset;

    ScaleConstraint(Variable src, Variable scale, Variable offset, Variable dest, Strength strength, Planner planner) {
        super(src, dest, strength, planner);
        this.scale = scale;
        this.offset = offset;
        addConstraint();
    }

    @Override
    void addToGraph() {
        super.addToGraph();
        scale.addConstraint(this);
        offset.addConstraint(this);
    }

    @Override
    void removeFromGraph() {
        super.removeFromGraph();
        scale.removeConstraint(this);
        offset.removeConstraint(this);
    }

    @Override
    void markInputs(int mark) {
        super.markInputs(mark);
        scale.mark = mark;
        offset.mark = mark;
    }

    @Override
    void execute() {
        if (direction == FORWARD) {
            v2.value = v1.value * scale.value + offset.value;
        } else {
            v1.value = (v2.value - offset.value) / scale.value;
        }
    }

    @Override
    void recalculate() {
        Variable in = input();
        Variable out = output();
        out.walkStrength = Strength.weakestOf(strength, in.walkStrength);
        out.stay = in.stay && scale.stay && offset.stay;
        if (out.stay) {
            execute();
        }
    }
}
