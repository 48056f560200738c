package boardbot;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * One boardbot process driven through its line protocol (see protocol.md), shared by MNKBridge and
 * CXBridge. It depends on no referee class, so it compiles against either course's referee.
 *
 * The process is started when the bridge is made (command from the environment variable
 * BOARDBOT_CMD, split on spaces; default "boardbot" on the PATH), outside the referee's timed
 * initPlayer, and kept across rounds; its stderr is inherited. A process that has not answered
 * yet is still starting: a request it does not answer in time is not a fault (the reply is skipped
 * when it comes), and initPlayer waits for it at most half its time. A process killed for a fault
 * is replaced at once, so that the new one starts while the opponent moves.
 *
 * Time: the bridge keeps its own deadline. With the referee's timeout T (timeout_in_secs), a turn
 * (or an initPlayer) has BUDGET = T - max(100 ms, 5% of T) from its start: 900 ms at T = 1 s,
 * 9.5 s at T = 10 s. The engine is told TIMEOUT = BUDGET in "init", so with its own margin (100 ms
 * by default, see protocol.md, "Time") it answers well before the deadline. Replies are read by a
 * thread of their own, so a wait ends at the deadline whatever the engine does: when no reply has
 * come by then (a frozen or stalled process), the process is killed (descendants included) and
 * turn() returns null at once; the next turn starts a new process and restores the game. The
 * bridge's margin only has to cover that fallback path (waking up, killing, returning: a few ms),
 * plus the JVM's and the machine's hiccups; the engine's time is not spent on it.
 *
 * Every turn the bridge hands over the full history (move texts as the protocol writes them). If
 * the engine knows all of it but the opponent's last move, that move is sent with "move"; otherwise
 * (a dead or frozen process, a garbage or illegal reply, an unexpected history) the game is
 * restored with "init" + "position" + "go", in a new process if needed, if time is left. When even
 * that fails, turn() returns null and the bridge plays a legal fallback move: an exception, an
 * illegal move or a late one would lose the game.
 */
final class Engine {
    /** The bridge's margin: at least this, in ms... */
    private static final long MIN_MARGIN_MS = 100;
    /** ...and at least this share of the referee's timeout. */
    private static final double MARGIN_SHARE = 0.05;
    /** A restore (or a second init) is not tried with less time than this left before the deadline. */
    private static final long MIN_RESTORE_MS = 50;

    private final String[] command;
    private Process proc;
    /** The process's output lines, read by a thread of its own; Optional.empty() at its end. */
    private BlockingQueue<Optional<String>> replies;
    private Writer out;
    private boolean startFailed;
    private String name;
    /** True from the process's start until its first reply: it may still be starting. */
    private boolean fresh;
    /** Requests whose replies were not read in time (from a process still starting): their
     * replies come first, in order, and are skipped. */
    private int stale;

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
        // Started now, when the referee makes the player, not in its timed initPlayer: an engine
        // that takes long to start (a loaded machine, a wrapper) starts outside the moves' time.
        ensureStarted();
    }

    static void log(String msg) {
        System.err.println("[boardbot bridge] " + msg);
    }

    private boolean alive() {
        return proc != null && proc.isAlive();
    }

    /** The time for a turn, in ms: the referee's timeout less the bridge's margin. */
    private long budgetMs() {
        long timeoutMs = timeoutSecs * 1000L;
        long margin = Math.max(MIN_MARGIN_MS, Math.round(timeoutMs * MARGIN_SHARE));
        return Math.max(timeoutMs - margin, 1);
    }

    /** The deadline (System.nanoTime) of a turn started at t0. */
    private long deadline(long t0) {
        return t0 + budgetMs() * 1_000_000L;
    }

    /** Whether another try is worth it: MIN_RESTORE_MS left before the deadline, no interrupt. */
    private static boolean timeLeft(long deadline) {
        return (deadline - System.nanoTime()) / 1_000_000 >= MIN_RESTORE_MS && !Thread.currentThread().isInterrupted();
    }

    /** A TIMEOUT for "init": seconds with 3 decimals, at least 0.001. */
    private static String seconds(long ms) {
        return String.format(Locale.ROOT, "%.3f", Math.max(ms, 1) / 1000.0);
    }

    /** A thread that reads the process's output lines into a queue, then Optional.empty(). */
    private static BlockingQueue<Optional<String>> readLines(InputStream stream) {
        BlockingQueue<Optional<String>> queue = new LinkedBlockingQueue<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) queue.add(Optional.of(line));
            } catch (IOException ignored) {
                // A pipe error is the end of the output too.
            }
            queue.add(Optional.empty());
        }, "boardbot engine reader");
        // Never keeps the JVM alive (if a stray holder of the pipe kept it open).
        reader.setDaemon(true);
        reader.start();
        return queue;
    }

    /** Starts a process unless one is running; false if it cannot be started. */
    private boolean ensureStarted() {
        if (alive()) return true;
        stop();
        try {
            ProcessBuilder pb = new ProcessBuilder(command);
            pb.redirectError(ProcessBuilder.Redirect.INHERIT);
            proc = pb.start();
            replies = readLines(proc.getInputStream());
            out = new OutputStreamWriter(proc.getOutputStream(), StandardCharsets.UTF_8);
            startFailed = false;
            fresh = true;
            stale = 0;
            return true;
        } catch (IOException | RuntimeException e) {
            if (!startFailed) log("cannot start '" + String.join(" ", command) + "': " + e);
            startFailed = true;
            proc = null;
            return false;
        }
    }

    /**
     * Ends the process: its stdin closes, then it and its descendants (a wrapper script's engine)
     * are killed, stopped ones too. The reader thread ends at the end of the output; its queue is
     * dropped, so nothing the old process wrote can reach the next one's requests.
     */
    void stop() {
        Process p = proc;
        proc = null;
        replies = null;
        synced = false;
        if (p == null) return;
        try {
            out.close();
        } catch (IOException ignored) {
        }
        try {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
        } catch (RuntimeException ignored) {
            // The process handles are best effort; the process itself is killed below.
        }
        p.destroyForcibly();
    }

    /**
     * Sends one command and returns its reply line, trimmed; null if the process is gone or gave no
     * reply by {@code deadline} (System.nanoTime), when it is killed. (The write itself cannot wait:
     * a command is a short line, and the engine has answered every earlier one.)
     */
    private String request(String line, long deadline) {
        if (!alive()) return null;
        try {
            out.write(line + "\n");
            out.flush();
        } catch (IOException e) {
            log("the engine's pipe failed (" + e.getMessage() + ")");
            stop();
            return null;
        }
        Optional<String> reply;
        try {
            reply = replies.poll(Math.max(deadline - System.nanoTime(), 0), TimeUnit.NANOSECONDS);
            // The replies to the requests a starting process had not answered in time come first.
            while (stale > 0 && reply != null && reply.isPresent()) {
                stale--;
                reply = replies.poll(Math.max(deadline - System.nanoTime(), 0), TimeUnit.NANOSECONDS);
            }
        } catch (InterruptedException e) {
            // The referee gave up on this move: end it now (the flag stays set for the caller).
            Thread.currentThread().interrupt();
            log("interrupted while waiting for the engine (after '" + line + "'): stopping it");
            stop();
            return null;
        }
        if (reply == null && fresh) {
            // Still starting: kept, its reply to this request skipped when it comes.
            stale++;
            log("the engine is still starting (no reply to '" + line + "' yet): waiting for it");
            return null;
        } else if (reply == null) {
            log("no reply from the engine by the bridge's deadline (" + budgetMs() + " ms a turn; after '" + line
                    + "'): stopping it");
        } else if (reply.isPresent()) {
            fresh = false;
            return reply.get().trim();
        } else {
            log("the engine closed its output (after '" + line + "')");
        }
        stop();
        // The next process starts now, while the opponent moves, not in our next move's time.
        log("restarting the engine");
        ensureStarted();
        return null;
    }

    /** "boardbot VERSION" from the reply to "name"; "boardbot" if the engine does not answer. */
    String name() {
        if (name == null) {
            String reply = ensureStarted() ? request("name", deadline(System.nanoTime())) : null;
            if (reply != null && reply.startsWith("name ") && reply.length() > 5) {
                name = reply.substring(5).trim();
            } else {
                name = "boardbot";
            }
        }
        return name;
    }

    /**
     * A new game: kind "mnk" or "cx"; timeout, the referee's seconds per move. Sends init (with the
     * bridge's budget as TIMEOUT) and waits for ok, restarting once if needed, all within the
     * budget: the referee may time initPlayer too.
     */
    void newGame(String kind, int m, int n, int k, boolean first, int timeout) {
        long t0 = System.nanoTime();
        initHead = "init " + kind + " " + m + " " + n + " " + k + " " + first;
        timeoutSecs = timeout;
        long deadline = deadline(t0);
        known.clear();
        synced = false;
        for (int attempt = 0; attempt < 2 && !synced; attempt++) {
            if (attempt > 0 && !timeLeft(deadline)) return;
            if (!ensureStarted()) return;
            // A process still starting gets half the time: the first move restores the game.
            long wait = fresh ? t0 + budgetMs() * 500_000L : deadline;
            String reply = request(initHead + " " + seconds(budgetMs()), wait);
            synced = "ok".equals(reply);
            if (!synced && alive() && fresh) return;
            if (!synced) log("init failed: " + reply);
        }
    }

    /**
     * The engine's move for the position after {@code history}. {@code check} maps a reply line to
     * the canonical move text if it is a legal move now, else to null. Returns null when the engine
     * gives no legal move even after a restore, or none by the bridge's deadline.
     */
    String turn(List<String> history, Function<String, String> check) {
        long deadline = deadline(System.nanoTime());
        String move = null;
        if (synced) {
            int n = known.size();
            if (history.size() == n + 1 && history.subList(0, n).equals(known)) {
                String reply = request("move " + history.get(n), deadline);
                move = check(check, reply);
            } else if (history.isEmpty() && n == 0) {
                move = check(check, request("go", deadline));
            } else {
                log("history of " + history.size() + " moves does not follow the " + n + " the engine knows");
            }
        }
        if (move == null) move = restore(history, check, deadline);
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

    /**
     * init + position + go, in the current process if alive, then in a new one, while at least
     * MIN_RESTORE_MS are left before the deadline (none are after the engine missed it).
     */
    private String restore(List<String> history, Function<String, String> check, long deadline) {
        if (initHead == null) return null;
        for (int attempt = 0; attempt < 2; attempt++) {
            if (!timeLeft(deadline)) {
                log("no time left to restore the game");
                return null;
            }
            if (!alive()) {
                stop();
                log("restarting the engine");
                if (!ensureStarted()) return null;
            }
            // What is left of this move's time: the engine's reply must come by the deadline.
            long budget = budgetMs();
            long left = (deadline - System.nanoTime()) / 1_000_000;
            boolean full = left >= budget - 50;
            String timeout = seconds(full ? budget : left);
            synced = false;
            if (!"ok".equals(request(initHead + " " + timeout, deadline))) {
                if (alive() && fresh) return null;
                continue;
            }
            StringBuilder pos = new StringBuilder("position");
            for (String mv : history) pos.append(' ').append(mv.trim().replaceAll("\\s+", ","));
            if (!"ok".equals(request(pos.toString(), deadline))) continue;
            String move = check(check, request("go", deadline));
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
