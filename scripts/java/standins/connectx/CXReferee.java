package connectx;

/**
 * A minimal stand-in for the CXGame referee, for testing players.
 *
 * usage: java connectx.CXReferee M N X PLAYER1 PLAYER2 [-t SECS] [-r ROUNDS]
 *
 * Loads both players by class name (one object each, kept for all rounds, initPlayer at every
 * round); round r is started by PLAYER1 when r is odd, by PLAYER2 when r is even. A late move, an
 * illegal move or an exception loses the game. Prints every move and one RESULT line per round.
 */
public class CXReferee {
    public static void main(String[] args) throws Exception {
        int m = Integer.parseInt(args[0]), n = Integer.parseInt(args[1]), x = Integer.parseInt(args[2]);
        String[] cls = {args[3], args[4]};
        int timeout = 10, rounds = 1;
        for (int a = 5; a + 1 < args.length; a += 2) {
            if (args[a].equals("-t")) timeout = Integer.parseInt(args[a + 1]);
            else if (args[a].equals("-r")) rounds = Integer.parseInt(args[a + 1]);
            else throw new IllegalArgumentException("unknown option " + args[a]);
        }
        CXPlayer[] pl = new CXPlayer[2];
        for (int p = 0; p < 2; p++) pl[p] = (CXPlayer) Class.forName(cls[p]).getDeclaredConstructor().newInstance();
        int[] wins = new int[2];
        for (int r = 1; r <= rounds; r++) {
            int firstP = (r % 2 == 1) ? 0 : 1;
            int slowInit = -1;
            for (int p = 0; p < 2; p++) {
                long i0 = System.nanoTime();
                pl[p].initPlayer(m, n, x, p == firstP, timeout);
                // As the course referees: an initPlayer longer than the timeout loses the game.
                if (slowInit < 0 && (System.nanoTime() - i0) / 1_000_000 > timeout * 1000L) slowInit = p;
            }
            if (slowInit >= 0) {
                wins[1 - slowInit]++;
                System.out.println("RESULT round " + r + ": WIN " + cls[1 - slowInit] + " (INIT by " + cls[slowInit]
                        + ": initialization takes too much time)");
                continue;
            }
            System.out.printf("round %d: cx %dx%dx%d, timeout %d s, first %s (%s), second %s (%s)%n", r, m, n, x, timeout,
                    cls[firstP], pl[firstP].playerName(), cls[1 - firstP], pl[1 - firstP].playerName());
            CXBoard board = new CXBoard(m, n, x);
            String result = "DRAW";
            int winner = -1;
            for (int ply = 0; ply < m * n; ply++) {
                int p = (ply % 2 == 0) ? firstP : 1 - firstP;
                long t0 = System.nanoTime();
                int col;
                try {
                    col = pl[p].selectColumn(board.copy());
                } catch (Throwable e) {
                    winner = 1 - p;
                    result = "WIN " + cls[1 - p] + " (EXCEPTION by " + cls[p] + ": " + e + ")";
                    break;
                }
                long ms = (System.nanoTime() - t0) / 1_000_000;
                if (ms > timeout * 1000L) {
                    winner = 1 - p;
                    result = "WIN " + cls[1 - p] + " (LATE move by " + cls[p] + ": " + ms + " ms)";
                    break;
                }
                if (col < 0 || col >= n || board.fullColumn(col)) {
                    winner = 1 - p;
                    result = "WIN " + cls[1 - p] + " (ILLEGAL move by " + cls[p] + ": column " + col + ")";
                    break;
                }
                boolean won = board.markColumn(col);
                System.out.printf("move %d: %s %d (%d ms)%n", ply + 1, cls[p], col, ms);
                if (won) {
                    winner = p;
                    result = "WIN " + cls[p];
                    break;
                }
            }
            if (winner >= 0) wins[winner]++;
            System.out.println("RESULT round " + r + ": " + result);
        }
        System.out.printf("SCORE %s %d, %s %d, draws %d%n", cls[0], wins[0], cls[1], wins[1], rounds - wins[0] - wins[1]);
        System.exit(0);
    }
}
