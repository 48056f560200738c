package connectx;

/** Stand-in (written from the course's description) for the CXGame player interface. */
public interface CXPlayer {
    void initPlayer(int M, int N, int X, boolean first, int timeout_in_secs);

    int selectColumn(CXBoard B);

    String playerName();
}
