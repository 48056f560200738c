package boardbot;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * One boardbot process driven through its line protocol (see protocol.md), shared by MNKBridge and
 * CXBridge. It depends on no referee class, so it compiles against either course's referee.
 *
 * The process is started once (command from the environment variable BOARDBOT_CMD, split on
 * spaces; default "boardbot" on the PATH) and kept across rounds; its stderr is inherited. The
 * engine keeps its own safety margin, so nothing here waits beyond reading a reply.
 *
 * Every turn the bridge hands over the full history (move texts as the protocol writes them). If
 * the engine knows all of it but the opponent's last move, that move is sent with "move"; otherwise
 * (a dead process, a garbage or illegal reply, an unexpected history) the game is restored with
 * "init" + "position" + "go", in a new process if needed. When even that fails, turn() returns null
 * and the bridge plays a legal fallback move: an exception or an illegal move would lose the game.
 */
final class Engine {
    private final String[] command;
    private Process proc;
    private BufferedReader in;
    private Writer out;
    private boolean startFailed;
    private String name;

    /** The game: "init KIND M N K FIRST", without the timeout. */
    private String initHead;
    private int timeoutSecs = 10;
    /** True when the engine is in the game of the last init, with the full timeout. */
    private boolean synced;
    /** The history the engine knows (the moves so far, its own last reply included). */
    private final List<String> known = new ArrayList<>();

    Engine() {
        String env = System.getenv("BOARDBOT_CMD");
        if (env == null || env.trim().isEmpty()) env = "boardbot";
        command = env.trim().split("\\s+");
        Runtime.getRuntime().addShutdownHook(new Thread(this::stop));
    }

    static void log(String msg) {
        System.err.println("[boardbot bridge] " + msg);
    }

    private boolean alive() {
        return proc != null && proc.isAlive();
    }

    /** Starts a process unless one is running; false if it cannot be started. */
    private boolean ensureStarted() {
        if (alive()) return true;
        stop();
        try {
            ProcessBuilder pb = new ProcessBuilder(command);
            pb.redirectError(ProcessBuilder.Redirect.INHERIT);
            proc = pb.start();
            in = new BufferedReader(new InputStreamReader(proc.getInputStream(), StandardCharsets.UTF_8));
            out = new OutputStreamWriter(proc.getOutputStream(), StandardCharsets.UTF_8);
            startFailed = false;
            return true;
        } catch (IOException | RuntimeException e) {
            if (!startFailed) log("cannot start '" + String.join(" ", command) + "': " + e);
            startFailed = true;
            proc = null;
            return false;
        }
    }

    /** Ends the process (its stdin closes, so a wrapper's children see end of input too). */
    void stop() {
        Process p = proc;
        proc = null;
        synced = false;
        if (p == null) return;
        try {
            out.close();
        } catch (IOException ignored) {
        }
        p.destroyForcibly();
        try {
            in.close();
        } catch (IOException ignored) {
        }
    }

    /** Sends one command and returns its reply line, trimmed; null if the process is gone. */
    private String request(String line) {
        if (!alive()) return null;
        try {
            out.write(line + "\n");
            out.flush();
            String reply = in.readLine();
            if (reply != null) return reply.trim();
            log("the engine closed its output (after '" + line + "')");
        } catch (IOException e) {
            log("the engine's pipe failed (" + e.getMessage() + ")");
        }
        stop();
        return null;
    }

    /** "boardbot VERSION" from the reply to "name"; "boardbot" if the engine does not answer. */
    String name() {
        if (name == null) {
            String reply = ensureStarted() ? request("name") : null;
            if (reply != null && reply.startsWith("name ") && reply.length() > 5) {
                name = reply.substring(5).trim();
            } else {
                name = "boardbot";
            }
        }
        return name;
    }

    /** A new game: kind "mnk" or "cx". Sends init and waits for ok (restarting once if needed). */
    void newGame(String kind, int m, int n, int k, boolean first, int timeout) {
        initHead = "init " + kind + " " + m + " " + n + " " + k + " " + first;
        timeoutSecs = timeout;
        known.clear();
        synced = false;
        for (int attempt = 0; attempt < 2 && !synced; attempt++) {
            if (attempt > 0) stop();
            if (!ensureStarted()) return;
            String reply = request(initHead + " " + timeout);
            synced = "ok".equals(reply);
            if (!synced) log("init failed: " + reply);
        }
    }

    /**
     * The engine's move for the position after {@code history}. {@code check} maps a reply line to
     * the canonical move text if it is a legal move now, else to null. Returns null when the engine
     * gives no legal move even after a restore.
     */
    String turn(List<String> history, Function<String, String> check) {
        long t0 = System.nanoTime();
        String move = null;
        if (synced) {
            int n = known.size();
            if (history.size() == n + 1 && history.subList(0, n).equals(known)) {
                String reply = request("move " + history.get(n));
                move = check(check, reply);
            } else if (history.isEmpty() && n == 0) {
                move = check(check, request("go"));
            } else {
                log("history of " + history.size() + " moves does not follow the " + n + " the engine knows");
            }
        }
        if (move == null) move = restore(history, check, t0);
        known.clear();
        if (move != null) {
            known.addAll(history);
            known.add(move);
        } else {
            synced = false;
        }
        return move;
    }

    private static String check(Function<String, String> check, String reply) {
        if (reply == null) return null;
        String move = check.apply(reply);
        if (move == null) log("unusable reply '" + reply + "'");
        return move;
    }

    /** init + position + go, in the current process if alive, then in a new one. */
    private String restore(List<String> history, Function<String, String> check, long t0) {
        if (initHead == null) return null;
        for (int attempt = 0; attempt < 2; attempt++) {
            if (attempt > 0 || !alive()) {
                stop();
                log("restarting the engine");
                if (!ensureStarted()) return null;
            }
            // What is left of this move's time: a restore must not make the move late.
            double left = timeoutSecs - (System.nanoTime() - t0) / 1e9;
            boolean full = left >= timeoutSecs - 0.05;
            String timeout = full ? Integer.toString(timeoutSecs) : String.format(Locale.ROOT, "%.3f", Math.max(left, 0.01));
            synced = false;
            if (!"ok".equals(request(initHead + " " + timeout))) continue;
            StringBuilder pos = new StringBuilder("position");
            for (String mv : history) pos.append(' ').append(mv.trim().replaceAll("\\s+", ","));
            if (!"ok".equals(request(pos.toString()))) continue;
            String move = check(check, request("go"));
            if (move != null) {
                // With a shortened timeout, the next turn restores again with the full one.
                synced = full;
                log("restored the game after " + history.size() + " moves");
                return move;
            }
        }
        return null;
    }
}
