package mnkgame;

/** Stand-in for the MNKGame cell: row i, column j. */
public class MNKCell {
    public final int i;
    public final int j;

    public MNKCell(int i, int j) {
        this.i = i;
        this.j = j;
    }

    @Override
    public String toString() {
        return i + " " + j;
    }
}
