package boardbot;

import connectx.CXBoard;
import connectx.CXCell;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * boardbot as a player of the CXGame course referee: load it by class name, boardbot.CXBridge.
 * The engine is the command in BOARDBOT_CMD (default "boardbot" on the PATH). See Engine.
 */
public class CXBridge implements connectx.CXPlayer {
    private final Engine engine = new Engine();

    public CXBridge() {}

    @Override
    public void initPlayer(int M, int N, int X, boolean first, int timeout_in_secs) {
        engine.newGame("cx", M, N, X, first, timeout_in_secs);
    }

    @Override
    public int selectColumn(CXBoard B) {
        Integer[] avail = B.getAvailableColumns();
        try {
            List<String> history = new ArrayList<>();
            for (CXCell c : B.getMarkedCells()) history.add(Integer.toString(c.j));
            Set<String> free = new HashSet<>();
            for (Integer col : avail) free.add(col.toString());
            String move = engine.turn(history, free);
            if (move != null) return Integer.parseInt(move);
            Engine.log("no move from the engine: playing the first available column");
        } catch (RuntimeException e) {
            Engine.log("bridge failure: ", e, "; playing the first available column");
        }
        return avail[0];
    }

    @Override
    public String playerName() {
        return engine.name();
    }
}
