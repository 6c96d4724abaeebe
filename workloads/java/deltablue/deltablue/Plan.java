package deltablue;

import java.util.ArrayList;

/** An ordered list of constraints whose execution recomputes the outputs. */
final class Plan {
    final ArrayList<Constraint> steps = new ArrayList<Constraint>();

    void add(Constraint c) {
        steps.add(c);
    }

    int size() {
        return steps.size();
    }

    void execute() {
        for (int i = 0; i < steps.size(); i++) {
            steps.get(i).execute();
        }
    }
}
