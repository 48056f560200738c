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
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One boardbot process driven through its line protocol (see protocol.md), shared by MNKBridge and
 * CXBridge. It depends on no referee class, so it compiles against either course's referee.
 *
 * The process is started when the bridge is made (command from the environment variable
 * BOARDBOT_CMD, split on spaces; default "boardbot" on the PATH), outside the referee's timed
 * initPlayer, and kept across rounds; its stderr is inherited. A process that has not answered
 * yet is still starting: a request it does not answer in time is not a fault (the reply is skipped
 * when it comes), and initPlayer waits for it at most half its time. A process killed for a fault
 * is replaced by a thread of its own after the bridge has its move, so that the new one starts
 * while the opponent moves.
 *
 * Time: the bridge keeps its own deadline. With the referee's timeout T (timeout_in_secs), a turn
 * (or an initPlayer) has BUDGET = T - max(100 ms, 5% of T) from its start: 900 ms at T = 1 s,
 * 9.5 s at T = 10 s. The engine is told TIMEOUT = BUDGET in "init", so with its own margin (100 ms
 * by default, see protocol.md, "Time") it answers well before the deadline. Replies are read by a
 * thread of their own, so a wait ends at the deadline whatever the engine does: when no reply has
 * come by then (a frozen or stalled process), turn() returns null at once, the process is killed
 * (descendants included) and replaced in the background, and the next turn restores the game. The
 * bridge's margin only has to cover that fallback path (waking up, detaching the process, handing
 * it to the keeper thread, returning), plus the JVM's and the machine's hiccups; the engine's time
 * is not spent on it.
 *
 * Cold paths: code that runs for the first time inside a timed call pays the JVM's linking, which
 * on a loaded machine took a large share of the margin for a lambda and for string concatenation
 * with "+" (both are linked through invokedynamic at their first run; figures in
 * docs/results/java-bridges.md). So the timed paths use no lambda and no "+" on strings: text()
 * joins strings, the keeper thread and its job are made in the constructor, and the bridges pass
 * the legal moves as a set, not a function.
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
    /**
     * The longest single wait for a reply, in ms; a longer wait is a loop of these: on a loaded
     * machine a thread parked for the whole turn woke far later than one parked in short slices
     * (figures in docs/results/java-bridges.md).
     */
    private static final long WAIT_SLICE_MS = 50;

    private final String[] command;
    /** Volatile for the shutdown hook, which stops the process from a thread of its own. */
    private volatile Process proc;
    /** The process's output lines, read by a thread of its own; Optional.empty() at its end. */
    private BlockingQueue<Optional<String>> replies;
    private Writer out;
    private boolean startFailed;
    private String name;
    /** A thread of its own that replaces a faulty process (see restartLater). */
    private final ExecutorService keeper;
    /** The process to end and replace, handed to the keeper's job. */
    private Process dying;
    private Writer dyingIn;
    /** The keeper's job: ends the dying process, starts the next one. */
    private final Runnable replace;
    /** The keeper's last job, or null once joined. */
    private Future<?> restart;
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
        ThreadFactory daemon = job -> {
            Thread t = new Thread(job, "boardbot engine keeper");
            // Never keeps the JVM alive.
            t.setDaemon(true);
            return t;
        };
        keeper = Executors.newSingleThreadExecutor(daemon);
        replace = () -> {
            end(dying, dyingIn);
            dying = null;
            dyingIn = null;
            ensureStarted();
        };
        // Starts the keeper's thread now (the job finds the process alive and does nothing).
        restart = keeper.submit(replace);
    }

    /** The parts' strings joined: "+" on strings costs a link at its first run (see above). */
    static String text(Object... parts) {
        StringBuilder s = new StringBuilder();
        for (Object part : parts) s.append(part);
        return s.toString();
    }

    /** Logs the parts, joined, to stderr. */
    static void log(Object... parts) {
        System.err.println(text("[boardbot bridge] ", text(parts)));
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
            if (!startFailed) log("cannot start '", String.join(" ", command), "': ", e);
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
        Writer in = out;
        detach();
        end(p, in);
    }

    /** Forgets the process (alive() is false from here); it is not ended. */
    private void detach() {
        proc = null;
        replies = null;
        synced = false;
    }

    /** Closes {@code in} (the process's stdin), then kills {@code p} and its descendants. */
    private static void end(Process p, Writer in) {
        if (p == null) return;
        try {
            in.close();
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
            out.write(line);
            out.write('\n');
            out.flush();
        } catch (IOException e) {
            log("the engine's pipe failed (", e.getMessage(), ")");
            stop();
            return null;
        }
        Optional<String> reply;
        try {
            reply = poll(deadline);
            // The replies to the requests a starting process had not answered in time come first.
            while (stale > 0 && reply != null && reply.isPresent()) {
                stale--;
                reply = poll(deadline);
            }
        } catch (InterruptedException e) {
            // The referee gave up on this move: end it now (the flag stays set for the caller).
            Thread.currentThread().interrupt();
            log("interrupted while waiting for the engine (after '", line, "'): stopping it");
            stop();
            return null;
        }
        if (reply == null && fresh) {
            // Still starting: kept, its reply to this request skipped when it comes.
            stale++;
            log("the engine is still starting (no reply to '", line, "' yet): waiting for it");
            return null;
        } else if (reply == null) {
            log("no reply from the engine by the bridge's deadline (", budgetMs(), " ms a turn; after '", line,
                    "'): stopping it");
        } else if (reply.isPresent()) {
            fresh = false;
            return reply.get().trim();
        } else {
            log("the engine closed its output (after '", line, "')");
        }
        restartLater();
        return null;
    }

    /**
     * Replaces a faulty process without spending the caller's time: the process is detached at
     * once (alive() is false from here), then the keeper kills it and starts the next one while the
     * bridge returns its move and the opponent moves. Until awaitRestart() has joined the job, only
     * the keeper touches the process's fields.
     */
    private void restartLater() {
        dying = proc;
        dyingIn = out;
        detach();
        log("restarting the engine");
        restart = keeper.submit(replace);
    }

    /**
     * Waits (until {@code deadline}, System.nanoTime) for the keeper's last job; true when it is
     * done, and the process's fields are this thread's again.
     */
    private boolean awaitRestart(long deadline) {
        if (restart == null) return true;
        try {
            restart.get(Math.max(deadline - System.nanoTime(), 0), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            log("the engine is still restarting");
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (ExecutionException e) {
            log("restarting the engine failed: ", e.getCause());
        }
        restart = null;
        return true;
    }

    /** The next output line, or null if none came by {@code deadline}: waits WAIT_SLICE_MS at a time. */
    private Optional<String> poll(long deadline) throws InterruptedException {
        while (true) {
            long left = deadline - System.nanoTime();
            long wait = Math.max(Math.min(left, WAIT_SLICE_MS * 1_000_000L), 0);
            Optional<String> line = replies.poll(wait, TimeUnit.NANOSECONDS);
            if (line != null || left <= wait) return line;
        }
    }

    /** "boardbot VERSION" from the reply to "name"; "boardbot" if the engine does not answer. */
    synchronized String name() {
        if (name == null) {
            long deadline = deadline(System.nanoTime());
            String reply = awaitRestart(deadline) && ensureStarted() ? request("name", deadline) : null;
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
    synchronized void newGame(String kind, int m, int n, int k, boolean first, int timeout) {
        long t0 = System.nanoTime();
        initHead = text("init ", kind, " ", m, " ", n, " ", k, " ", first);
        timeoutSecs = timeout;
        long deadline = deadline(t0);
        known.clear();
        synced = false;
        for (int attempt = 0; attempt < 2 && !synced; attempt++) {
            if (attempt > 0 && !timeLeft(deadline)) return;
            if (!awaitRestart(deadline) || !ensureStarted()) return;
            // A process still starting gets half the time: the first move restores the game.
            long wait = fresh ? t0 + budgetMs() * 500_000L : deadline;
            String reply = request(text(initHead, " ", seconds(budgetMs())), wait);
            synced = "ok".equals(reply);
            if (!synced && alive() && fresh) return;
            if (!synced) log("init failed: ", reply);
        }
    }

    /**
     * The engine's move for the position after {@code history}, as one of the texts in {@code legal}
     * (the legal moves: integers joined by one space, "3" or "2 4"). Returns null when the engine
     * gives no legal move even after a restore, or none by the bridge's deadline.
     */
    synchronized String turn(List<String> history, Set<String> legal) {
        long deadline = deadline(System.nanoTime());
        String move = null;
        if (!awaitRestart(deadline)) return null;
        if (synced) {
            int n = known.size();
            if (history.size() == n + 1 && history.subList(0, n).equals(known)) {
                String reply = request(text("move ", history.get(n)), deadline);
                move = check(legal, reply);
            } else if (history.isEmpty() && n == 0) {
                move = check(legal, request("go", deadline));
            } else {
                log("history of ", history.size(), " moves does not follow the ", n, " the engine knows");
            }
        }
        if (move == null) move = restore(history, legal, deadline);
        known.clear();
        if (move != null) {
            known.addAll(history);
            known.add(move);
        } else {
            synced = false;
        }
        return move;
    }

    /** The reply's integers (split on spaces and commas) joined by one space, if that is in legal. */
    private static String check(Set<String> legal, String reply) {
        if (reply == null) return null;
        StringBuilder move = new StringBuilder();
        try {
            for (String word : reply.trim().split("[\\s,]+")) {
                if (move.length() > 0) move.append(' ');
                move.append(Integer.parseInt(word));
            }
        } catch (NumberFormatException e) {
            move.setLength(0);
        }
        if (legal.contains(move.toString())) return move.toString();
        log("unusable reply '", reply, "'");
        return null;
    }

    /**
     * init + position + go, in the current process if alive, then in a new one, while at least
     * MIN_RESTORE_MS are left before the deadline (none are after the engine missed it).
     */
    private String restore(List<String> history, Set<String> legal, long deadline) {
        if (initHead == null) return null;
        for (int attempt = 0; attempt < 2; attempt++) {
            if (!timeLeft(deadline)) {
                log("no time left to restore the game");
                return null;
            }
            if (!awaitRestart(deadline)) return null;
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
            if (!"ok".equals(request(text(initHead, " ", timeout), deadline))) {
                if (alive() && fresh) return null;
                continue;
            }
            StringBuilder pos = new StringBuilder("position");
            for (String mv : history) pos.append(' ').append(mv.trim().replaceAll("\\s+", ","));
            if (!"ok".equals(request(pos.toString(), deadline))) continue;
            String move = check(legal, request("go", deadline));
            if (move != null) {
                // With a shortened timeout, the next turn restores again with the full one.
                synced = full;
                log("restored the game after ", history.size(), " moves");
                return move;
            }
        }
        return null;
    }
}
