package boardbot;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import mnkgame.MNKCell;

/**
 * boardbot as a player of the MNKGame course referee: load it by class name, boardbot.MNKBridge.
 * The engine is the command in BOARDBOT_CMD (default "boardbot" on the PATH). See Engine.
 */
public class MNKBridge implements mnkgame.MNKPlayer {
    private final Engine engine = new Engine();

    public MNKBridge() {}

    @Override
    public void initPlayer(int M, int N, int K, boolean first, int timeout_in_secs) {
        engine.newGame("mnk", M, N, K, first, timeout_in_secs);
    }

    @Override
    public MNKCell selectCell(MNKCell[] FC, MNKCell[] MC) {
        try {
            List<String> history = new ArrayList<>();
            for (MNKCell c : MC) history.add(Engine.text(c.i, " ", c.j));
            Set<String> free = new HashSet<>();
            for (MNKCell c : FC) free.add(Engine.text(c.i, " ", c.j));
            String move = engine.turn(history, free);
            if (move != null) {
                String[] w = move.split(" ");
                return new MNKCell(Integer.parseInt(w[0]), Integer.parseInt(w[1]));
            }
            Engine.log("no move from the engine: playing the first free cell");
        } catch (RuntimeException e) {
            Engine.log("bridge failure: ", e, "; playing the first free cell");
        }
        return new MNKCell(FC[0].i, FC[0].j);
    }

    @Override
    public String playerName() {
        return engine.name();
    }
}
