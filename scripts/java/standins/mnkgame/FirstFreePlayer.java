package mnkgame;

/** A trivial test player: the free cell with the smallest (row, column). */
public class FirstFreePlayer implements MNKPlayer {
    public void initPlayer(int M, int N, int K, boolean first, int timeout_in_secs) {}

    public MNKCell selectCell(MNKCell[] FC, MNKCell[] MC) {
        MNKCell best = FC[0];
        for (MNKCell c : FC) if (c.i < best.i || (c.i == best.i && c.j < best.j)) best = c;
        return best;
    }

    public String playerName() {
        return "FirstFree";
    }
}
