package connectx;

/** A trivial test player: the lowest-numbered available column. */
public class FirstColumnPlayer implements CXPlayer {
    public void initPlayer(int M, int N, int X, boolean first, int timeout_in_secs) {}

    public int selectColumn(CXBoard B) {
        int best = Integer.MAX_VALUE;
        for (Integer c : B.getAvailableColumns()) best = Math.min(best, c);
        return best;
    }

    public String playerName() {
        return "FirstColumn";
    }
}
