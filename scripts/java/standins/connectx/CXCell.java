package connectx;

/** Stand-in for the CXGame cell: row i (0 is the top), column j. */
public class CXCell {
    public final int i;
    public final int j;

    public CXCell(int i, int j) {
        this.i = i;
        this.j = j;
    }

    @Override
    public String toString() {
        return i + " " + j;
    }
}
