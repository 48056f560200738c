package mnkgame;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * A minimal stand-in for the MNKGame referee, for testing players.
 *
 * usage: java mnkgame.MNKReferee M N K PLAYER1 PLAYER2 [-t SECS] [-r ROUNDS]
 *
 * Loads both players by class name (one object each, kept for all rounds, initPlayer at every
 * round); round r is started by PLAYER1 when r is odd, by PLAYER2 when r is even. A late move, an
 * illegal move or an exception loses the game. Prints every move and one RESULT line per round.
 */
public class MNKReferee {
    public static void main(String[] args) throws Exception {
        int m = Integer.parseInt(args[0]), n = Integer.parseInt(args[1]), k = Integer.parseInt(args[2]);
        String[] cls = {args[3], args[4]};
        int timeout = 10, rounds = 1;
        for (int a = 5; a + 1 < args.length; a += 2) {
            if (args[a].equals("-t")) timeout = Integer.parseInt(args[a + 1]);
            else if (args[a].equals("-r")) rounds = Integer.parseInt(args[a + 1]);
            else throw new IllegalArgumentException("unknown option " + args[a]);
        }
        MNKPlayer[] pl = new MNKPlayer[2];
        for (int p = 0; p < 2; p++) pl[p] = (MNKPlayer) Class.forName(cls[p]).getDeclaredConstructor().newInstance();
        int[] wins = new int[2];
        Random rng = new Random(1);
        for (int r = 1; r <= rounds; r++) {
            int firstP = (r % 2 == 1) ? 0 : 1;
            int slowInit = -1;
            for (int p = 0; p < 2; p++) {
                long i0 = System.nanoTime();
                pl[p].initPlayer(m, n, k, p == firstP, timeout);
                // As the course referees: an initPlayer longer than the timeout loses the game.
                if (slowInit < 0 && (System.nanoTime() - i0) / 1_000_000 > timeout * 1000L) slowInit = p;
            }
            if (slowInit >= 0) {
                wins[1 - slowInit]++;
                System.out.println("RESULT round " + r + ": WIN " + cls[1 - slowInit] + " (INIT by " + cls[slowInit]
                        + ": initialization takes too much time)");
                continue;
            }
            System.out.printf("round %d: %dx%dx%d, timeout %d s, first %s (%s), second %s (%s)%n", r, m, n, k, timeout,
                    cls[firstP], pl[firstP].playerName(), cls[1 - firstP], pl[1 - firstP].playerName());
            int[][] board = new int[m][n]; // 0 empty, 1 first player, 2 second player
            List<MNKCell> mc = new ArrayList<>();
            String result = "DRAW";
            int winner = -1;
            for (int ply = 0; ply < m * n; ply++) {
                int p = (ply % 2 == 0) ? firstP : 1 - firstP;
                List<MNKCell> fc = new ArrayList<>();
                for (int i = 0; i < m; i++) for (int j = 0; j < n; j++) if (board[i][j] == 0) fc.add(new MNKCell(i, j));
                Collections.shuffle(fc, rng); // FC comes in arbitrary order
                long t0 = System.nanoTime();
                MNKCell c;
                try {
                    c = pl[p].selectCell(fc.toArray(new MNKCell[0]), mc.toArray(new MNKCell[0]));
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
                if (c == null || c.i < 0 || c.i >= m || c.j < 0 || c.j >= n || board[c.i][c.j] != 0) {
                    winner = 1 - p;
                    result = "WIN " + cls[1 - p] + " (ILLEGAL move by " + cls[p] + ": " + c + ")";
                    break;
                }
                int stone = (ply % 2 == 0) ? 1 : 2;
                board[c.i][c.j] = stone;
                mc.add(new MNKCell(c.i, c.j));
                System.out.printf("move %d: %s %d %d (%d ms)%n", ply + 1, cls[p], c.i, c.j, ms);
                if (wins(board, c.i, c.j, k)) {
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

    static boolean wins(int[][] b, int i, int j, int k) {
        int[][] dirs = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
        for (int[] d : dirs) {
            int count = 1;
            for (int s = -1; s <= 1; s += 2) {
                int y = i + s * d[0], x = j + s * d[1];
                while (y >= 0 && y < b.length && x >= 0 && x < b[0].length && b[y][x] == b[i][j]) {
                    count++;
                    y += s * d[0];
                    x += s * d[1];
                }
            }
            if (count >= k) return true;
        }
        return false;
    }
}
