package mnkgame;

/** Stand-in (written from the course's description) for the MNKGame player interface. */
public interface MNKPlayer {
    void initPlayer(int M, int N, int K, boolean first, int timeout_in_secs);

    MNKCell selectCell(MNKCell[] FC, MNKCell[] MC);

    String playerName();
}
