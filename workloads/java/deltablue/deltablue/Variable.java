package deltablue;

import java.util.ArrayList;

/** A constrained variable with its current value and planning state. */
final class Variable {
    final String name;
    int value;
    final ArrayList<Constraint> constraints = new ArrayList<Constraint>();
    /** The constraint whose output this variable currently is, or null. */
    Constraint determinedBy;
    int mark;
    Strength walkStrength = Strength.WEAKEST;
    /** True when the value cannot change while the plan runs. */
    boolean stay = true;

    Variable(String name, int value) {
        this.name = name;
        this.value = value;
    }

    void addConstraint(Constraint c) {
        constraints.add(c);
    }

    void removeConstraint(Constraint c) {
        constraints.remove(c);
        if (determinedBy == c) {
            determinedBy = null;
        }
    }
}
